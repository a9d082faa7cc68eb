// What the daily retention run deletes (docs/operations.md "Retention"): finished rows past their
// period, across every organisation (system work, on the unscoped client). One statement per batch:
// its own transaction, a bounded number of rows, and rows another session holds (a dispatcher's
// claim, an anonymisation, a second retention run) skipped rather than waited for, so a large
// backlog never holds long locks and two runs at once delete each row once. Every period is
// measured on the database's clock, like the rows' own stamps.
import type { Db } from '../../db/client';
import type { RetentionSettings } from './settings';

/** Rows per statement: a few hundred milliseconds of work on PostgreSQL, short locks. */
export const RETENTION_BATCH = 5000;

export const RETENTION_KINDS = ['outboxEvents', 'workflowIntents', 'webhookRequests', 'idempotencyRecords', 'refreshTokens'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Each kind: its statement ($1 the period, $2 the batch size) and the setting giving the period. */
const PURGES: Record<RetentionKind, { setting: keyof RetentionSettings; statement: string }> = {
  // Dispatched only. Automation runs load their event again after an approval (which may wait up
  // to a year): an event is kept while a record of its runs is PENDING or changed within the period.
  outboxEvents: {
    setting: 'RETENTION_OUTBOX_DAYS',
    statement: `DELETE FROM outbox_events WHERE id IN (
      SELECT e.id FROM outbox_events e
      WHERE e.dispatched_at < now() - make_interval(days => $1)
        AND NOT EXISTS (SELECT 1 FROM adaptor_action_records r
          WHERE r.event_id = e.id AND (r.status = 'PENDING' OR r.updated_at >= now() - make_interval(days => $1)))
      LIMIT $2 FOR UPDATE OF e SKIP LOCKED)`,
  },
  // Performed intents (src/temporal/intents.ts): the workflow they started or signalled keeps its
  // own history; the row only says when it was asked for. An intent not yet performed is never deleted.
  workflowIntents: {
    setting: 'RETENTION_OUTBOX_DAYS',
    statement: `DELETE FROM workflow_intents WHERE id IN (
      SELECT id FROM workflow_intents
      WHERE dispatched_at < now() - make_interval(days => $1)
      LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  },
  // SUCCESS or FAILED (completed_at is set exactly then); a PENDING one is still being delivered.
  // Its attempts go with it (ON DELETE CASCADE), in the same statement.
  webhookRequests: {
    setting: 'RETENTION_WEBHOOK_REQUESTS_DAYS',
    statement: `DELETE FROM webhook_requests WHERE id IN (
      SELECT id FROM webhook_requests
      WHERE completed_at < now() - make_interval(days => $1) AND state <> 'PENDING'
      LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  },
  // Past the period (never under the 24 h window) a record is no longer in progress: a request
  // runs for seconds, and the claim already takes over a record older than 24 h whatever its state
  // (src/api/middleware/idempotency.ts), so what is left of a crashed request goes too.
  idempotencyRecords: {
    setting: 'RETENTION_IDEMPOTENCY_HOURS',
    statement: `DELETE FROM idempotency_records WHERE (organisation_id, credential_id, key) IN (
      SELECT organisation_id, credential_id, key FROM idempotency_records
      WHERE created_at < now() - make_interval(hours => $1)
      LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  },
  // An expired token is refused whatever its row says; a used one is kept until then, so that
  // presenting it again still revokes the user's other tokens (src/domain/users/users.ts).
  refreshTokens: {
    setting: 'RETENTION_REFRESH_TOKENS_DAYS',
    statement: `DELETE FROM refresh_tokens WHERE id IN (
      SELECT id FROM refresh_tokens
      WHERE expires_at < now() - make_interval(days => $1)
      LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  },
};

/** Deletes one batch of `kind` past its period; answers how many rows went. */
export async function purgeBatch(db: Db, settings: RetentionSettings, kind: RetentionKind, batch = RETENTION_BATCH): Promise<number> {
  const { setting, statement } = PURGES[kind];
  return db.$executeRawUnsafe(statement, settings[setting], batch);
}
