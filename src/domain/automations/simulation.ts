// What an automation would do for an event, judged as its run would and performed by nothing
// (docs/automations.md "Simulations"): the run's plan (./plan.ts: the same filter evaluation),
// then each action's effect rendered by its own declaration (a webhook's request as the step
// writes it, a transaction performer's `preview`, an approval's record), in a read-only
// transaction. A business refusal the run would record (the webhook is gone, the contact
// anonymized or opted out) is the same AppError here, judged as the run judges it.
import type { Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { readOnlyTransaction } from '../../db/read-only';
import { AppError, found, invalid, notFound } from '../errors';
import { requestBody } from '../webhooks/requests';
import { entityAttribute, entityDef, stepAction, type EntityCode } from './catalogue';
import { runPlanOf, runPlanSql, type RunPlan as StoredPlan, type StoredRunPlan } from './definitions';
import { recordEvent } from './simulation-events';
import { explainFilters, type FilterVerdict } from './filters';
import type { Effect, Performer } from './actions/define';
import type { RunContext } from './actions/run-context';
import { filterData, planRun, runContext, type AutomationEvent } from './plan';

export type ActionVerdictCode = 'WOULD_RUN' | 'SKIPPED' | 'WOULD_FAIL';

export interface ActionVerdict {
  id: string;
  order: number;
  adaptor: string;
  adaptor_action: string;
  verdict: ActionVerdictCode;
  filters: FilterVerdict[];
  /** Why it would not run (the reason its record would carry); null when it would. */
  reason: string | null;
  /** What it would send or write; null when it would not run. */
  effect: Effect | null;
}

export interface RunVerdict {
  entity: { type: string; id: string };
  /** `contact_id`: the contact the event is about (anonymisation drops a stored sample by it). */
  event: { type: string; occurred_on: number; contact_id: string | null };
  /** At least one action would do its work. */
  would_run: boolean;
  actions: ActionVerdict[];
}

/** Read once per simulation (a page of a replay), not per event: the webhooks the effects name. */
export type SimulationMemo = Map<string, Promise<unknown>>;

/** The reason of an action after one that would fail: the run stops there. */
export const NOT_REACHED = 'NOT_REACHED: an earlier action would fail and stop the run';

/** The verdict of the automation (its plan as saved now) for one event. */
export async function judgeEvent(tx: Tx, sql: OrgSql, organisationId: string, event: AutomationEvent, stored: StoredPlan, memo: SimulationMemo): Promise<RunVerdict> {
  const plan = planRun(event, stored);
  if (!plan) throw invalid('entity_id', `entity_id: a ${event.type} event names no ${stored.automation.entity} record`);
  const data = filterData(event);
  const actions: ActionVerdict[] = [];
  let stopped = false;
  for (const [i, step] of plan.steps.entries()) {
    const base = { id: step.actionId, order: step.order, adaptor: step.adaptor, adaptor_action: step.adaptorAction, filters: explainFilters(stored.actions[i].filters, data) };
    if (stopped) {
      actions.push({ ...base, verdict: 'SKIPPED', reason: NOT_REACHED, effect: null });
    } else if (!step.matched) {
      actions.push({ ...base, verdict: 'SKIPPED', reason: step.reason ?? 'filters not met', effect: null });
    } else {
      const judged = await judgeAction(tx, sql, runContext(organisationId, event, plan, step), stepAction(step)?.performer, memo);
      actions.push({ ...base, ...judged });
      stopped = judged.verdict === 'WOULD_FAIL';
    }
  }
  return {
    entity: plan.entity,
    event: { type: event.type, occurred_on: event.createdOn, contact_id: typeof event.payload.contact_id === 'string' ? event.payload.contact_id : null },
    would_run: actions.some((a) => a.verdict === 'WOULD_RUN'),
    actions,
  };
}

type Judged = Pick<ActionVerdict, 'verdict' | 'reason' | 'effect'>;

async function judgeAction(tx: Tx, sql: OrgSql, ctx: RunContext, performer: Performer | undefined, memo: SimulationMemo): Promise<Judged> {
  try {
    if (!performer) throw invalid('adaptor_action', `${ctx.step.adaptor}/${ctx.step.adaptorAction} has no run-time behaviour`);
    return { verdict: 'WOULD_RUN', reason: null, effect: await effectOf(tx, sql, ctx, performer, memo) };
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    // As the run records it (src/activities/automations.ts `failed`): the contact's choice or the quota skips, the rest fails.
    const skipped = err.code === 'CONTACT_OPTED_OUT' || err.code === 'QUOTA_EXCEEDED';
    return { verdict: skipped ? 'SKIPPED' : 'WOULD_FAIL', reason: `${err.code}: ${err.message}`, effect: null };
  }
}

async function effectOf(tx: Tx, sql: OrgSql, ctx: RunContext, performer: Performer, memo: SimulationMemo): Promise<Effect> {
  switch (performer.kind) {
    case 'transaction':
      return performer.preview(tx, ctx);
    case 'approval': {
      const attributes = Object.fromEntries(performer.opened(ctx).map((a) => [a.key, a.value]));
      return { kind: 'APPROVAL', status: attributes.status, timeout_on: Number(attributes.timeout_on), approver_user_id: attributes.approver_user_id ?? null, approval_entity_type: attributes.approval_entity_type ?? null };
    }
    case 'webhook': {
      const request = performer.request(ctx);
      const key = `webhook:${request.webhookId}`;
      if (!memo.has(key)) memo.set(key, sql.rows<{ method: string; url_endpoint: string }>('SELECT method, url_endpoint FROM webhooks WHERE organisation_id = $1 AND id = $2::uuid', [request.webhookId]));
      const [hook] = (await memo.get(key)) as Array<{ method: string; url_endpoint: string }>;
      // The run's step records the same refusal (src/activities/automations.ts transactionStep).
      if (!hook) throw notFound('Webhook', 'webhook_id');
      // The request's id is given when it is written: none here.
      const body = { ...requestBody('', { ...request, automation: ctx.automation, entity: ctx.entity } as Parameters<typeof requestBody>[1]), id: null };
      return { kind: 'WEBHOOK', webhook_id: request.webhookId, method: hook.method, url: hook.url_endpoint, body };
    }
  }
}

// ---------------------------------------------------------------- RECORD mode

/** The automation and its sequence as saved now, as a run reads them (definitions.ts runPlanSql); 404 when the organisation has none. */
export async function storedPlan(sql: OrgSql, automationId: string): Promise<StoredPlan> {
  const [row] = await sql.rows<{ automation: StoredRunPlan | null }>(`SELECT ${runPlanSql('$1', '$2')} AS automation`, [automationId]);
  return found(runPlanOf(row?.automation ?? null), 'Automation');
}

/**
 * The verdict for one record's event, as it would be raised now, with `overrides` (attribute
 * codes → values) set where the catalogue reads them. Reads only, in a read-only transaction.
 */
export function simulateRecord(db: Tx, organisationId: string, automationId: string, entityId: string, overrides: Record<string, unknown> = {}): Promise<RunVerdict> {
  return readOnlyTransaction(db, organisationId, async (tx, sql) => {
    const plan = await storedPlan(sql, automationId);
    const entity = plan.automation.entity as EntityCode;
    const event = await recordEvent(sql, entity, plan.automation.event, entityId);
    if (!event) throw notFound(entityDef(entity)?.name.replace(/s$/, '') ?? 'Record', 'entity_id');
    for (const [code, value] of Object.entries(overrides)) {
      const def = entityAttribute(entity, code);
      if (!def) throw invalid(`event.${code}`, `event.${code}: not an attribute of ${entity} (GET /automation_events)`);
      setAt(event.payload, def.path, value);
    }
    return judgeEvent(tx, sql, organisationId, event, plan, new Map());
  });
}

function setAt(data: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = data;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    at = at[key] = next !== null && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
  }
  at[keys[keys.length - 1]] = value;
}
