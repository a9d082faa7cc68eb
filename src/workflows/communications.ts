// Single communications and communication plans (docs/communications.md).
import { ActivityFailure, condition, continueAsNew, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import { SIGNAL_NAMES, type CommunicationPlanInput, type SendCommunicationInput, type SendOutcome, type SignalArgs } from './contracts';

/** Attempts of a communication's send; the last one marks it FAILED (docs/communications.md). */
export const COMMUNICATION_SEND_ATTEMPTS = 3;

const communications = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: COMMUNICATION_SEND_ATTEMPTS },
});

/**
 * One communication (workflow id `communication:<id>`), started after its PENDING row
 * committed: one activity sends it and marks it SENT, or FAILED after a non-retryable error or
 * the last attempt. A repeat finds it no longer PENDING and sends nothing.
 */
export async function communicationSendWorkflow(input: SendCommunicationInput): Promise<SendOutcome> {
  return await communications.sendCommunication({ ...input, maximumAttempts: COMMUNICATION_SEND_ATTEMPTS });
}

const planReads = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Writing a tick's rows is idempotent: retried until it succeeds. */
const planTickWrites = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Sending: the last attempt marks what it could not send FAILED. */
const planTickSends = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: COMMUNICATION_SEND_ATTEMPTS },
});

/** Asked for by every plan write (an intent of its transaction): the workflow re-reads the plan (schedule, contents, state). */
export const planChangedSignal = defineSignal<SignalArgs['planChanged']>(SIGNAL_NAMES.planChanged);

/** Wakes after which the run continues as new, so its history stays short. */
const PLAN_WAKES_PER_RUN = 200;

/**
 * A POSTED plan (workflow id `communication-plan:<plan id>`): sleeps on the workflow clock to
 * each tick of its frequency, writes the tick's communications, sends them, and sleeps again.
 * Woken late (the worker was down), it sends the latest tick missed, once. Ends when the plan
 * is deleted, back in DRAFT, or past its end date (docs/communications.md "Plans").
 */
export async function communicationPlanWorkflow(input: CommunicationPlanInput): Promise<string> {
  let changed = false;
  setHandler(planChangedSignal, () => {
    changed = true;
  });
  let lastTick = input.lastTick ?? null;
  for (let wake = 0; wake < PLAN_WAKES_PER_RUN; wake++) {
    changed = false;
    const status = await planReads.planStatus({ ...input, lastTick });
    if (status.ended) return status.ended;
    if (status.due !== null) {
      const tick = { ...input, tick: status.due, maximumAttempts: COMMUNICATION_SEND_ATTEMPTS };
      await planTickWrites.createTickCommunications(tick);
      try {
        await planTickSends.sendTickCommunications(tick);
      } catch (err) {
        // Only when the last attempt itself failed (the database was away): the rows left stay
        // PENDING, and the plan goes on with its next tick rather than ending.
        if (!(err instanceof ActivityFailure)) throw err;
      }
      lastTick = status.due;
    } else if (status.next !== null) {
      // A signal cuts the sleep short; at least a second, so a clock a little behind does not spin.
      await condition(() => changed, Math.max(status.next - Date.now(), 1000));
    }
    if (workflowInfo().continueAsNewSuggested) break;
  }
  return await continueAsNew<typeof communicationPlanWorkflow>({ ...input, lastTick });
}
