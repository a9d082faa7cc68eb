// The retention run's work (docs/operations.md "Retention"): batches of finished rows deleted
// across every organisation, each batch its own short statement.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { purgeBatch, RETENTION_BATCH, RETENTION_KINDS, type RetentionKind } from '../domain/retention/purge';
import type { ActivityDeps } from './deps';

/** How long one call deletes before it hands back to the workflow: a retry repeats little, the history stays short. */
const CALL_BUDGET_MS = 60_000;

export interface PurgeProgress {
  deleted: number;
  /** A full last batch: there may be more past the period. */
  more: boolean;
}

export function retentionActivities(deps: Pick<ActivityDeps, 'db' | 'config'>) {
  return {
    /** Deletes batches of `kind` until one is short or the call's budget is spent. Safe to repeat. */
    async purgeRetained(kind: RetentionKind): Promise<PurgeProgress> {
      if (!RETENTION_KINDS.includes(kind)) throw ApplicationFailure.nonRetryable(`unknown retention kind ${String(kind)}`, 'INVALID_INPUT');
      const ctx = Context.current();
      const until = Date.now() + CALL_BUDGET_MS;
      let deleted = 0;
      for (;;) {
        const batch = await purgeBatch(deps.db, deps.config, kind);
        deleted += batch;
        // Between batches: the worker is alive, and a cancellation (an operator's) is seen here.
        ctx.heartbeat(deleted);
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        if (batch < RETENTION_BATCH) return { deleted, more: false };
        if (Date.now() >= until) return { deleted, more: true };
      }
    },
  };
}
