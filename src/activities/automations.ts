// The activities of an automation run (docs/automations.md "Runs"). Each action writes its
// adaptor action record in the same transaction as its effect, keyed by (event, automation,
// action): a retried activity finds the record and repeats nothing; what must follow the commit
// (starting a webhook delivery or a communication's send) is a workflow intent written in that
// same transaction (src/temporal/intents.ts), performed by the outbox dispatcher. A webhook's
// first attempt is made here, after the commit, and its delivery workflow is started only when a
// retry is needed (docs/webhooks.md "First attempt in the run").
import { countAutomationRun } from '../telemetry/instruments';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from './deps';
import { scopedClient } from '../db/tenancy';
import type { Db, Tx } from '../db/client';
import { stepAction } from '../domain/automations/catalogue';
import { planRun, runContext, type AutomationEvent, type RunPlan, type RunStep } from '../domain/automations/plan';
import { runPlanOf, runPlanSql, type RunPlan as StoredPlan, type StoredRunPlan } from '../domain/automations/definitions';
import { createRecord, recordAttribute, recordReason, rejectPendingApprovals, type NewRecord, type RecordAttribute, type RecordStatus } from '../domain/automations/records';
import type { Performer, StepWebhookRequest } from '../domain/automations/actions/define';
import type { ActionOutcome, RunContext } from '../domain/automations/actions/run-context';
import { writeWebhookStep } from '../domain/automations/webhook-step';
import { AppError, invalid, notFound } from '../domain/errors';
import type { AutomationRunInput, StepResult } from '../workflows/contracts';
import { attemptDelivery, LOG_RETRY_MS, type AttemptRequest } from '../domain/webhooks/delivery';
import { pgSql } from '../db/sql';
import { contactSnapshotSql } from '../domain/events/contact-snapshot';
import { checkIds, notOwned } from './ownership';
import { inOrgTransaction } from './transaction';

// The workflow reads the plan's types from here (src/workflows/automations.ts).
export type { AutomationEvent, RunPlan, RunStep };

/**
 * Runs started before inputs carried ids (2026-11-26) also carried the event with its payload:
 * only its id is read, and the event is loaded like any other, so what such an input says is
 * never trusted. It stays while such a run can still wait for an approval (at most a year).
 */
type RunInput = AutomationRunInput | { organisationId: string; automationId: string; event: { id: string } };

const eventIdOf = (input: RunInput): unknown => ('eventId' in input ? input.eventId : input.event?.id);

// The snapshot written with the event, or for an event dispatched before snapshots stayed with
// their events, the contact as it is now (such an event's run may still wait for an approval).
// On a run's first call ($3, the automation's id) the same statement reads its automation and sequence.
const EVENT = `SELECT id, type, floor(extract(epoch FROM created_at))::bigint AS "createdOn",
  CASE WHEN payload ? 'contact' OR NOT payload ? 'contact_id' THEN payload
    ELSE payload || ${contactSnapshotSql(`(payload->>'contact_id')::uuid`)} END AS payload,
  ${runPlanSql('$1', '$3')} AS automation
FROM outbox_events WHERE organisation_id = $1 AND id = $2::uuid`;

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

  /**
   * The run's event, from the outbox of the input's organisation (another's is refused), and with
   * `withPlan` the automation and its sequence, read into the run's plan: filters evaluated
   * against the event. The plan is null once the automation is deleted.
   */
  async function loadEvent(input: RunInput, withPlan: boolean): Promise<{ event: AutomationEvent; plan: RunPlan | null }> {
    const eventId = eventIdOf(input);
    checkIds({ organisationId: input.organisationId, automationId: input.automationId, eventId });
    type Row = Omit<AutomationEvent, 'createdOn'> & { createdOn: string; automation: StoredRunPlan | null };
    const [row] = await pgSql(deps.pool, input.organisationId).rows<Row>(EVENT, [eventId, withPlan ? input.automationId : null]);
    if (!row) throw notOwned('event', eventId as string, input.organisationId);
    const { automation, ...rest } = row;
    const event = { ...rest, createdOn: Number(row.createdOn) };
    return { event, plan: withPlan ? prepare(event, runPlanOf(automation)) : null };
  }

  /** Each action's filters evaluated against the event (./plan.ts, as a simulation plans it). */
  function prepare(event: AutomationEvent, plan: StoredPlan | null): RunPlan | null {
    if (!plan) return null;
    const planned = planRun(event, plan);
    if (!planned) throw ApplicationFailure.nonRetryable(`event ${event.id} (${event.type}) names no ${plan.automation.entity} entity`, 'EVENT_WITHOUT_ENTITY');
    return planned;
  }

  /**
   * One action: its effect and its record in one transaction, then the starts that follow.
   * `performer`: its action's, none when the catalogue no longer has the action.
   */
  async function runStep(input: RunInput, event: AutomationEvent, plan: RunPlan, step: RunStep, performer?: Performer): Promise<StepResult> {
    const ctx = runContext(input.organisationId, event, plan, step);
    const record = (step.matched && performer?.kind === 'webhook' && (await webhookStep(ctx, performer.request(ctx)))) || (await transactionStep(ctx, step, performer));
    const attributes = record.attributes as unknown as RecordAttribute[];
    // Also for a record found by a retried call: its first attempt may not have been made (or logged).
    const requestId = attributes.find((a) => a.key === 'webhook_request_id')?.value as string | undefined;
    if (requestId && firstAttemptInRun()) await firstAttempt(input.organisationId, requestId, record.request);
    const reason = recordReason(record.status, attributes);
    return { recordId: record.id, status: record.status, ...(reason ? { reason } : {}) };
  }

  /** `request`: a webhook request the step just wrote, as its first attempt sends it. */
  type StepRecord = { id: string; status: string; attributes: unknown; request?: AttemptRequest };

  /**
   * A webhook action: its request, record and held delivery in one statement (the usual run's
   * only write before its attempt). Null when the webhook is not there: the transaction step
   * records the refusal.
   */
  async function webhookStep(ctx: RunContext, request: StepWebhookRequest): Promise<StepRecord | null> {
    const sql = pgSql(deps.pool, ctx.organisationId);
    const hold = firstAttemptInRun() ? HOLD_SECONDS(deps.config.WEBHOOK_TIMEOUT_MS) : null;
    const step = await writeWebhookStep(sql, deps.config, ctx, request, hold);
    if (step.written) {
      if (hold === null) deps.afterWrite?.();
      return { id: step.recordId, status: 'COMPLETED', attributes: step.attributes, request: step.request };
    }
    return step.hook ? (await findRecord(org(ctx.organisationId), ctx)) : null;
  }

  /**
   * Any other action (a step whose filters do not hold, a webhook action whose webhook is gone, one
   * the catalogue no longer has): look for the record, else act and record.
   */
  async function transactionStep(ctx: RunContext, step: RunStep, performer?: Performer): Promise<StepRecord> {
    const record = await inOrgTransaction(deps.db, ctx.organisationId, async (tx) => {
      const found = await findRecord(tx, ctx);
      if (found) return found;
      let outcome: ActionOutcome;
      if (!step.matched) {
        outcome = { status: 'SKIPPED', attributes: [recordAttribute('reason', 'Reason', 'STRING', step.reason ?? 'filters not met')] };
      } else if (performer?.kind === 'transaction') {
        try {
          outcome = await performer.perform(tx, deps, ctx);
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          outcome = failed(err);
        }
      } else {
        // A webhook action whose webhook is gone, or an action the catalogue no longer has (an approval
        // whose filters hold is opened by runAutomation, never here).
        outcome = failed(performer ? notFound('Webhook', 'webhook_id') : invalid('adaptor_action', `${step.adaptor}/${step.adaptorAction} has no run-time behaviour`));
      }
      return createRecord(tx, ctx.organisationId, recordInput(ctx, outcome.status, outcome.attributes));
    });
    deps.afterWrite?.();
    return record;
  }

  /** Opens an approval request: its record, PENDING, with the attributes its action gives it. */
  async function openApproval(input: RunInput, event: AutomationEvent, plan: RunPlan, step: RunStep, opened: (ctx: RunContext) => RecordAttribute[]): Promise<StepResult> {
    const ctx = runContext(input.organisationId, event, plan, step);
    // A repeated call finds the first record (and its decision, if one was made meanwhile).
    const record = await createRecord(org(input.organisationId), input.organisationId, recordInput(ctx, 'PENDING', opened(ctx)));
    return { recordId: record.id, status: record.status };
  }

  /** Only when the schedule's first delay is 0: a delayed first attempt belongs to the workflow's timer. */
  const firstAttemptInRun = () => deps.config.WEBHOOK_RETRY_SCHEDULE[0] === 0;

  /**
   * The request's first attempt, as its delivery workflow would make it (logged once, never sent
   * again once logged); its log settles the held intent: no workflow after a SUCCESS (or a final
   * failure), the delivery workflow for the retries after a failure (it finds attempt 1 logged).
   */
  async function firstAttempt(organisationId: string, requestId: string, written?: AttemptRequest): Promise<void> {
    const schedule = deps.config.WEBHOOK_RETRY_SCHEDULE;
    const options = { timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, config: deps.config, held: true };
    const state = await attemptDelivery(pgSql(deps.pool, organisationId), options, { organisationId, requestId, attempt: 1, last: schedule.length === 1 }, written);
    // Released to the dispatcher: its delivery workflow makes the retries.
    if (state === 'PENDING') deps.afterWrite?.();
  }

  /** runAutomation's steps; `loaded` is told when the run's event was committed (epoch ms). */
  async function runSteps(input: RunInput, known: RunPlan | null, from: number, loaded: (createdOn: number) => void): Promise<RunProgress> {
    const read = await loadEvent(input, known === null);
    const { event } = read;
    loaded(event.createdOn);
    const plan = known ?? read.plan;
    if (!plan) return { plan: null, steps: [], stopped: true };
    const steps: RunProgress['steps'] = [];
    for (let at = from; at < plan.steps.length; at++) {
      const step = plan.steps[at];
      const performer = stepAction(step)?.performer;
      if (step.matched && performer?.kind === 'approval') {
        const opened = await openApproval(input, event, plan, step, performer.opened);
        return { plan, steps, stopped: false, approval: { at, ...opened } };
      }
      const result = await runStep(input, event, plan, step, performer);
      steps.push({ actionId: step.actionId, adaptorAction: step.adaptorAction, ...result });
      if (result.status === 'FAILED') return { plan, steps, stopped: true };
      if (!Context.current().info.isLocal) Context.current().heartbeat(at);
    }
    return { plan, steps, stopped: false };
  }

  return {
    /**
     * Runs the sequence from step `from` (the plan is read on the first call) until its end, a
     * FAILED step, or an approval, which it opens and leaves to the workflow to wait for. One
     * activity for the usual run; each step is still recorded (and found again) on its own.
     */
    async runAutomation(input: RunInput, known: RunPlan | null, from: number): Promise<RunProgress> {
      let since: number | undefined;
      try {
        const progress = await runSteps(input, known, from, (createdOn) => (since = createdOn));
        countAutomationRun(input.organisationId, !progress.plan ? 'gone' : progress.stopped ? 'stopped' : progress.approval ? 'waiting' : 'completed', since);
        return progress;
      } catch (err) {
        countAutomationRun(input.organisationId, 'error');
        throw err;
      }
    },

    /**
     * The decision of an approval, from the database: the API writes a decision there before it
     * signals, so a lost signal is found here. Still PENDING when the wait ends: REJECTED by timeout.
     */
    async settleApproval(organisationId: string, recordId: string, timedOut: boolean): Promise<string> {
      checkIds({ organisationId, recordId });
      const tx = org(organisationId);
      // Conditional: a decision that lands at the same moment wins over the timeout.
      if (timedOut) await rejectPendingApprovals(tx, organisationId, { id: recordId }, 'TIMEOUT: no decision before timeout_on');
      const record = await tx.adaptorActionRecord.findFirst({ where: { organisationId, id: recordId }, select: { status: true } });
      if (!record) throw notOwned('adaptor action record', recordId, organisationId);
      return record.status;
    },
  };
}

/**
 * How long the dispatcher leaves a held delivery to its run: the attempt's whole deadline, the
 * log's patience with a busy database, and the database around them. A hold that ended while the
 * run still attempted would let the delivery workflow send the same request again; a run that
 * dies holds it no longer than this.
 */
const HOLD_SECONDS = (timeoutMs: number) => Math.ceil((timeoutMs + LOG_RETRY_MS) / 1000) + 15;

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

function findRecord(tx: Tx | Db, ctx: RunContext) {
  return tx.adaptorActionRecord.findFirst({
    where: { organisationId: ctx.organisationId, eventId: ctx.event.id, automationId: ctx.automation.id, actionId: ctx.step.actionId },
  });
}

function failed(err: AppError): ActionOutcome {
  return {
    // Not sent by the contact's choice or the organisation's quota: skipped, with the reason.
    status: err.code === 'CONTACT_OPTED_OUT' || err.code === 'QUOTA_EXCEEDED' ? 'SKIPPED' : 'FAILED',
    attributes: [recordAttribute('error', 'Error', 'STRING', `${err.code}: ${err.message}`)],
  };
}
