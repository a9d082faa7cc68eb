/**
 * Workflow code only: runs in the SDK's deterministic sandbox, so it may import nothing but
 * @temporalio/workflow and types.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TerminationInput } from '../activities/termination';
import type { TopupInput } from '../activities/ledger';
import type { SendCommunicationInput, SendOutcome } from '../activities/communications';
import { sleep } from '@temporalio/workflow';

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
  retry: { initialInterval: '10 seconds', maximumInterval: '5 minutes' },
});

/** Pages per run; what is left waits for the next run (the history of one run stays short). */
const EXPIRY_PAGES_PER_RUN = 50;

/**
 * Daily (cron, id `ledger-expiry`): expired value leaves the balances through EXPIRY
 * transactions (docs/money.md "Expiry"). Answers how many lots it expired.
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
