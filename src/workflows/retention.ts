import { proxyActivities } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { RetentionKind } from '../domain/retention/purge';

const { purgeRetained } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '10 seconds', maximumInterval: '5 minutes' },
});

/** One kind after the other: never more than one retention statement at a time on the database. */
const KINDS: RetentionKind[] = ['outboxEvents', 'workflowIntents', 'webhookRequests', 'idempotencyRecords', 'refreshTokens'];

/** Calls per kind per run (a minute of deleting each); a larger backlog goes on in the next run. */
const CALLS_PER_KIND = 60;

/**
 * Daily (the Schedule `retention`, src/temporal/schedules.ts): deletes finished rows past
 * their periods (docs/operations.md "Retention"). Answers how many rows of each kind went.
 */
export async function retentionWorkflow(): Promise<Record<RetentionKind, number>> {
  const deleted = {} as Record<RetentionKind, number>;
  for (const kind of KINDS) {
    deleted[kind] = 0;
    for (let call = 0; call < CALLS_PER_KIND; call++) {
      const progress = await purgeRetained(kind);
      deleted[kind] += progress.deleted;
      if (!progress.more) break;
    }
  }
  return deleted;
}
