import { proxyActivities } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';

const { expireLots } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '10 seconds', maximumInterval: '5 minutes' },
});

/** Pages per run; what is left waits for the next run (the history of one run stays short). */
const EXPIRY_PAGES_PER_RUN = 50;

/**
 * Daily (the Schedule `ledger-expiry`, src/temporal/schedules.ts): expired value leaves the balances
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
