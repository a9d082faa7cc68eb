import { proxyActivities } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { TerminationInput } from './contracts';

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
