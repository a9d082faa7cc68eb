// The activities of an automation run (docs/automations.md "Runs"). Each action writes its
// adaptor action record in the same transaction as its effect, keyed by (event, automation,
// action): a retried activity finds the record and repeats nothing; what must follow the commit
// (starting a webhook delivery or a communication's send) is started again on every try, and
// those starts are idempotent by workflow id.
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from '.';
import { scopedClient } from '../db/tenancy';
import type { Tx } from '../db/client';
import { evaluateFilters } from '../domain/automations/filters';
import { entityIdOf } from '../domain/automations/catalogue';
import { loadRunPlan } from '../domain/automations/definitions';
import { createRecord, recordAttribute, type NewRecord, type RecordAttribute, type RecordStatus } from '../domain/automations/records';
import { performAction, type ActionOutcome, type RunContext } from '../domain/automations/actions';
import { AppError } from '../domain/errors';
import { communicationWorkflowId } from '../domain/communications/communications';
import { automationRunWorkflowId } from '../outbox-dispatcher';
import { searchAttributes } from '../search-attributes';
import { startWebhookDelivery } from '../webhook-workflows';

export interface AutomationEvent {
  id: string;
  type: string;
  /** Epoch seconds. */
  createdOn: number;
  /** The outbox payload: the event's facts and, for an event about a contact, its snapshot. */
  payload: Record<string, unknown>;
}

export interface AutomationRunInput {
  organisationId: string;
  automationId: string;
  event: AutomationEvent;
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
  entity: { type: string; id: string; reference: string | null };
  steps: RunStep[];
}

export interface StepResult {
  recordId: string;
  status: string;
}

/**
 * What one call of runAutomation did: the plan (read on the first call, then handed back by the
 * workflow), the steps it recorded, and where it stopped: the end, a stop (FAILED), or an
 * approval to wait for (`approval`, whose step is `at`).
 */
export interface RunProgress {
  plan: RunPlan | null;
  steps: Array<{ actionId: string; adaptorAction: string } & StepResult>;
  stopped: boolean;
  approval?: { at: number; recordId: string; status: string };
}

export function automationActivities(deps: ActivityDeps) {
  const org = (id: string) => scopedClient(deps.db, id);

  /** Reads the automation and its sequence and evaluates each action's filters against the event. */
  async function prepare(input: AutomationRunInput): Promise<RunPlan | null> {
    const plan = await loadRunPlan(org(input.organisationId), input.organisationId, input.automationId);
    if (!plan) return null;
    const entityId = entityIdOf(plan.automation.entity, input.event.payload);
    if (!entityId) throw ApplicationFailure.nonRetryable(`event ${input.event.id} (${input.event.type}) names no ${plan.automation.entity} entity`, 'EVENT_WITHOUT_ENTITY');
    const data = { ...input.event.payload, event_type: input.event.type, created_on: input.event.createdOn };
    return {
      automation: { id: plan.automation.id, name: plan.automation.name, entity: plan.automation.entity },
      entity: { type: plan.automation.entity, id: entityId, reference: entityReference(input.event.payload) },
      steps: plan.actions.map((a) => {
        const verdict = evaluateFilters(a.filters, data);
        return { actionId: a.id, order: a.order, adaptor: a.adaptor, adaptorAction: a.adaptorAction, parameters: a.parameters, matched: verdict.matched, reason: verdict.reason };
      }),
    };
  }

  /** One action: its effect and its record in one transaction, then the starts that follow. */
  async function runStep(input: AutomationRunInput, plan: RunPlan, step: RunStep): Promise<StepResult> {
    const ctx = runContext(input, plan, step);
    const record = await org(input.organisationId).$transaction(async (tx) => {
      const found = await findRecord(tx, ctx);
      if (found) return found;
      let outcome: ActionOutcome;
      if (!step.matched) {
        outcome = { status: 'SKIPPED', attributes: [recordAttribute('reason', 'Reason', 'STRING', step.reason ?? 'filters not met')] };
      } else {
        try {
          outcome = await performAction(tx, deps, ctx);
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          outcome = failed(err);
        }
      }
      return createRecord(tx, input.organisationId, recordInput(ctx, outcome.status, outcome.attributes));
    }, { maxWait: 10_000, timeout: 30_000 });
    await startFollowUps(ctx, record.attributes as unknown as RecordAttribute[]);
    return { recordId: record.id, status: record.status };
  }

  /** Opens an approval request: its record, PENDING. */
  async function openApproval(input: AutomationRunInput, plan: RunPlan, step: RunStep): Promise<StepResult> {
    const ctx = runContext(input, plan, step);
    // timeout_seconds always has a value: loadRunPlan fills in the catalogue's default.
    const timeout = Number(step.parameters.timeout_seconds);
    const attributes = [
      recordAttribute('status', 'Status', 'STRING', 'PENDING'),
      recordAttribute('timeout_on', 'Decide before', 'DATE', String(Math.floor(Date.now() / 1000) + timeout)),
      ...(step.parameters.approver_user_id ? [recordAttribute('approver_user_id', 'Approver', 'STRING', step.parameters.approver_user_id)] : []),
      ...(step.parameters.approval_entity_type ? [recordAttribute('approval_entity_type', 'Entity type', 'STRING', step.parameters.approval_entity_type)] : []),
    ];
    // A repeated call finds the first record (and its decision, if one was made meanwhile).
    const record = await createRecord(org(input.organisationId), input.organisationId, recordInput(ctx, 'PENDING', attributes));
    return { recordId: record.id, status: record.status };
  }

  async function startFollowUps(ctx: RunContext, attributes: RecordAttribute[]): Promise<void> {
    const client = Context.current().client;
    const value = (key: string) => attributes.find((a) => a.key === key)?.value as string | undefined;
    const requestId = value('webhook_request_id');
    if (requestId) {
      await startWebhookDelivery(client, deps.config, ctx.organisationId, requestId, { automationId: ctx.automation.id, entityType: ctx.entity.type, entityId: ctx.entity.id });
    }
    const communicationId = value('communication_id');
    if (communicationId) {
      try {
        await client.workflow.start('communicationSendWorkflow', {
          workflowId: communicationWorkflowId(communicationId), taskQueue: deps.config.TEMPORAL_TASK_QUEUE, args: [{ organisationId: ctx.organisationId, communicationId }],
          // Found with its run, like the run's webhook deliveries.
          typedSearchAttributes: searchAttributes({ organisationId: ctx.organisationId, automationId: ctx.automation.id, entityType: ctx.entity.type, entityId: ctx.entity.id }),
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }
  }

  return {
    /**
     * Runs the sequence from step `from` (the plan is read on the first call) until its end, a
     * FAILED step, or an approval, which it opens and leaves to the workflow to wait for. One
     * activity for the usual run; each step is still recorded (and found again) on its own.
     */
    async runAutomation(input: AutomationRunInput, known: RunPlan | null, from: number): Promise<RunProgress> {
      const plan = known ?? (await prepare(input));
      if (!plan) return { plan: null, steps: [], stopped: true };
      const steps: RunProgress['steps'] = [];
      for (let at = from; at < plan.steps.length; at++) {
        const step = plan.steps[at];
        if (step.matched && step.adaptorAction === 'REQUEST_APPROVAL') {
          const opened = await openApproval(input, plan, step);
          return { plan, steps, stopped: false, approval: { at, ...opened } };
        }
        const result = await runStep(input, plan, step);
        steps.push({ actionId: step.actionId, adaptorAction: step.adaptorAction, ...result });
        if (result.status === 'FAILED') return { plan, steps, stopped: true };
        Context.current().heartbeat(at);
      }
      return { plan, steps, stopped: false };
    },

    /**
     * The decision of an approval, from the database: the API writes a decision there before it
     * signals, so a lost signal is found here. Still PENDING when the wait ends: REJECTED by timeout.
     */
    async settleApproval(organisationId: string, recordId: string, timedOut: boolean): Promise<string> {
      const tx = org(organisationId);
      if (timedOut) {
        const record = await tx.adaptorActionRecord.findFirstOrThrow({ where: { organisationId, id: recordId } });
        if (record.status === 'PENDING') {
          const attributes = (record.attributes as unknown as RecordAttribute[]).map((a) => (a.key === 'status' ? { ...a, value: 'REJECTED' } : a));
          attributes.push(recordAttribute('reason', 'Reason', 'STRING', 'TIMEOUT: no decision before timeout_on'));
          // Conditional: a decision that lands at the same moment wins over the timeout.
          await tx.adaptorActionRecord.updateMany({ where: { organisationId, id: recordId, status: 'PENDING' }, data: { status: 'REJECTED', attributes: attributes as object[] } });
        }
      }
      const record = await tx.adaptorActionRecord.findFirstOrThrow({ where: { organisationId, id: recordId }, select: { status: true } });
      return record.status;
    },
  };
}

function runContext(input: AutomationRunInput, plan: RunPlan, step: RunStep): RunContext {
  return {
    organisationId: input.organisationId,
    automation: plan.automation,
    entity: plan.entity,
    event: input.event,
    step,
    workflowId: automationRunWorkflowId(input.automationId, input.event.id),
  };
}

function recordInput(ctx: RunContext, status: RecordStatus, attributes: RecordAttribute[]): NewRecord {
  return {
    automationId: ctx.automation.id,
    automationName: ctx.automation.name,
    actionId: ctx.step.actionId,
    adaptor: ctx.step.adaptor,
    adaptorAction: ctx.step.adaptorAction,
    eventId: ctx.event.id,
    eventType: ctx.event.type,
    entityType: ctx.entity.type,
    entityId: ctx.entity.id,
    entityReference: ctx.entity.reference,
    status,
    attributes,
    workflowId: ctx.workflowId,
  };
}

function findRecord(tx: Tx, ctx: RunContext) {
  return tx.adaptorActionRecord.findFirst({
    where: { organisationId: ctx.organisationId, eventId: ctx.event.id, automationId: ctx.automation.id, actionId: ctx.step.actionId },
  });
}

function failed(err: AppError): ActionOutcome {
  return {
    status: err.code === 'CONTACT_OPTED_OUT' ? 'SKIPPED' : 'FAILED',
    attributes: [recordAttribute('error', 'Error', 'STRING', `${err.code}: ${err.message}`)],
  };
}

/** What search_value finds a run's records by, besides the entity id. */
function entityReference(payload: Record<string, unknown>): string | null {
  const contact = payload.contact as { code?: string | null; name?: string | null } | undefined;
  const parts = [payload.reference_number, payload.number, contact?.code, contact?.name].filter((v): v is string => typeof v === 'string' && v !== '');
  return parts.length ? parts.join(' ') : null;
}
