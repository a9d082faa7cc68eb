/**
 * Workflow code only: runs in the SDK's deterministic sandbox, so it may import nothing but
 * @temporalio/workflow and types.
 */
import { ActivityFailure, condition, continueAsNew, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { TerminationInput } from '../activities/termination';
import type { TopupInput } from '../activities/ledger';
import type { SendCommunicationInput, SendOutcome } from '../activities/communications';
import type { PlanRef } from '../activities/communication-plans';
import { sleep } from '@temporalio/workflow';

export * from './automations';
export * from './webhooks';
export * from './reports';
export * from './retention';

const { ping } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/** Health/smoke workflow: one activity round trip through a worker. */
export async function pingWorkflow(name: string): Promise<string> {
  return await ping(name);
}

const { expireLots } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '10 seconds', maximumInterval: '5 minutes' },
});

/** Pages per run; what is left waits for the next run (the history of one run stays short). */
const EXPIRY_PAGES_PER_RUN = 50;

/**
 * Daily (the Schedule `ledger-expiry`, src/schedules.ts): expired value leaves the balances
 * through EXPIRY transactions (docs/money.md "Expiry"). Answers how many lots it expired.
 */
export async function ledgerExpiryWorkflow(): Promise<number> {
  let total = 0;
  for (let page = 0; page < EXPIRY_PAGES_PER_RUN; page++) {
    const { expired, more } = await expireLots();
    total += expired;
    if (!more) break;
  }
  return total;
}

const termination = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Account termination (workflow id `account-termination:<account id>`): the receivable book,
 * then every wallet, move to the target account; the wallets are cancelled; the account is
 * marked TERMINATED last. Every step is an idempotent activity (docs/money.md).
 */
export async function accountTerminationWorkflow(input: TerminationInput): Promise<void> {
  let plan = await termination.planTermination(input);
  if (plan.done) return;
  await termination.moveReceivable(input);
  // Again until none is left: a wallet made while the saga ran moves too.
  while (plan.walletIds.length) {
    for (const walletId of plan.walletIds) await termination.moveTerminatedWallet({ ...input, walletId });
    plan = await termination.planTermination(input);
  }
  await termination.markTerminated(input);
}

const topup = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Auto top-up (workflow id `wallet-topup:<debit transaction id>`), started before the debit
 * commits: the debit is looked for until the request's transaction can no longer commit (its
 * timeout is 30 s), so a debit that rolled back tops up nothing. Then the gateway charge (same
 * key on every retry) and, when approved, the credit.
 */
export async function walletTopupWorkflow(input: TopupInput & { currencyCode: string }): Promise<'CREDITED' | 'DECLINED' | 'NOT_NEEDED'> {
  let plan = await topup.planTopup(input);
  for (let waited = 0; plan === 'NOT_YET_VISIBLE' && waited < 40; waited += 5) {
    await sleep('5 seconds');
    plan = await topup.planTopup(input);
  }
  if (plan === null || plan === 'NOT_YET_VISIBLE') return 'NOT_NEEDED';
  const charged = await topup.chargeTopup({ ...input, ...plan });
  if (charged.outcome !== 'APPROVED') return 'DECLINED';
  await topup.creditTopup({ ...input, walletId: plan.walletId, amount: plan.amount, chargeId: charged.chargeId });
  return 'CREDITED';
}

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

/** Sent after a plan's write commits: the workflow re-reads the plan (schedule, contents, state). */
export const planChangedSignal = defineSignal('planChanged');

/** Wakes after which the run continues as new, so its history stays short. */
const PLAN_WAKES_PER_RUN = 200;

/**
 * A POSTED plan (workflow id `communication-plan:<plan id>`): sleeps on the workflow clock to
 * each tick of its frequency, writes the tick's communications, sends them, and sleeps again.
 * Woken late (the worker was down), it sends the latest tick missed, once. Ends when the plan
 * is deleted, back in DRAFT, or past its end date (docs/communications.md "Plans").
 */
export async function communicationPlanWorkflow(input: PlanRef & { lastTick?: number | null }): Promise<string> {
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
