import { proxyActivities, sleep } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { TopupInput, TopupOutcome } from './contracts';

const topup = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Auto top-up (workflow id `wallet-topup:<debit transaction id>`), started by the outbox dispatcher
 * from the intent the debit committed with, so the debit is there: the plan (null when there is
 * nothing to do any more), the gateway charge (same key on every retry) and, when approved, the credit.
 */
export async function walletTopupWorkflow(input: TopupInput): Promise<TopupOutcome> {
  let plan = await topup.planTopup(input);
  // Runs started before intents (docs/money.md "Auto top-up") were started ahead of the debit's
  // commit, and their histories may hold 'NOT_YET_VISIBLE' with a wait for the debit: they replay
  // that wait as it was written. A run started from an intent never sees it.
  for (let waited = 0; (plan as unknown) === 'NOT_YET_VISIBLE' && waited < 40; waited += 5) {
    await sleep('5 seconds');
    plan = await topup.planTopup(input);
  }
  if (plan === null || (plan as unknown) === 'NOT_YET_VISIBLE') return 'NOT_NEEDED';
  const charged = await topup.chargeTopup({ ...input, ...plan });
  if (charged.outcome !== 'APPROVED') return 'DECLINED';
  await topup.creditTopup({ ...input, walletId: plan.walletId, amount: plan.amount, chargeId: charged.chargeId });
  return 'CREDITED';
}
