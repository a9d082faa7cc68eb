// What a run of an automation does with one event, before any effect: the entity it names, each
// action's filters evaluated against the event's data, and the context an action's performer is
// given. Pure: the run (src/activities/automations.ts) and the simulations (./simulation.ts) both
// plan through here, so a simulation cannot judge an event otherwise than a run would.
import { automationRunWorkflowId } from '../../workflows/contracts';
import { entityIdOf, entityOfEvent } from './catalogue';
import type { RunPlan as StoredPlan } from './definitions';
import { evaluateFilters } from './filters';
import type { RunContext } from './actions/run-context';

/** An event as a run sees it: the outbox row, or for a simulation the event rebuilt from its record. */
export interface AutomationEvent {
  id: string;
  type: string;
  /** Epoch seconds. */
  createdOn: number;
  /** The outbox payload: the event's facts and, for an event about a contact, its snapshot. */
  payload: Record<string, unknown>;
}

export interface RunStep {
  actionId: string;
  order: number;
  adaptor: string;
  adaptorAction: string;
  parameters: Record<string, string>;
  /** Whether the action's filters hold for the event; a step that does not is recorded SKIPPED. */
  matched: boolean;
  reason?: string;
}

/** The automation as it was when the run began: later edits change only later runs. */
export interface RunPlan {
  automation: { id: string; name: string; entity: string };
  /** Ids only: the plan travels through the workflow's history (a run's reference is derived per call). */
  entity: { type: string; id: string };
  steps: RunStep[];
}

/** What the filters see: the payload (snapshot included) with the event's type and time. */
export const filterData = (event: AutomationEvent): Record<string, unknown> => ({ ...event.payload, event_type: event.type, created_on: event.createdOn });

/**
 * The run's plan for the event: each action's filters evaluated against it. Undefined when the
 * event names no record of the automation's entity (the run refuses it: EVENT_WITHOUT_ENTITY).
 */
export function planRun(event: AutomationEvent, plan: StoredPlan): RunPlan | undefined {
  const entityId = entityIdOf(plan.automation.entity, event.payload);
  if (!entityId || entityOfEvent(event.type) !== plan.automation.entity) return undefined;
  const data = filterData(event);
  return {
    automation: { id: plan.automation.id, name: plan.automation.name, entity: plan.automation.entity },
    entity: { type: plan.automation.entity, id: entityId },
    steps: plan.actions.map((a) => {
      const verdict = evaluateFilters(a.filters, data);
      return { actionId: a.id, order: a.order, adaptor: a.adaptor, adaptorAction: a.adaptorAction, parameters: a.parameters, matched: verdict.matched, reason: verdict.reason };
    }),
  };
}

/** What the step's performer is given. */
export function runContext(organisationId: string, event: AutomationEvent, plan: RunPlan, step: RunStep): RunContext {
  return {
    organisationId,
    automation: plan.automation,
    // The reference holds the contact's code and name: derived here, never kept in the plan.
    entity: { type: plan.entity.type, id: plan.entity.id, reference: entityReference(event.payload) },
    event,
    step,
    workflowId: automationRunWorkflowId(plan.automation.id, event.id),
  };
}

/** What search_value finds a run's records by, besides the entity id. */
function entityReference(payload: Record<string, unknown>): string | null {
  const contact = payload.contact as { code?: string | null; name?: string | null } | undefined;
  const parts = [payload.reference_number, payload.number, contact?.code, contact?.name].filter((v): v is string => typeof v === 'string' && v !== '');
  return parts.length ? parts.join(' ') : null;
}
