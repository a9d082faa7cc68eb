// The audit rows and outbox events of a write, in one statement on ctx.sql (docs/money.md "The
// write path"; the Prisma forms are src/domain/audit.ts and src/domain/events/outbox.ts). Either
// a statement of its own, or folded into the write's last statement (`withRecords`), so a
// journal or a purchase records itself in the round trip that writes its last entry. An event
// about a contact carries the contact's snapshot (contact-snapshot.ts), read from the tables or,
// for a new contact, from the statement's own inserts (recordCtes' snapshotFrom).
import type { OrgSql } from '../../db/sql';
import type { AuditActor, AuditChange } from '../audit';
import { newId } from '../ids';
import { currentTraceparent } from '../../telemetry/trace';
import { contactSnapshotSql, type SnapshotSources } from './contact-snapshot';

export interface ChangeRecord<E extends string = string> {
  change: AuditChange;
  event?: { type: E; payload: Record<string, unknown> };
}

/**
 * The records' CTEs; their parameters are $n (the rows), $n+1..$n+3 (actor type, actor id, request
 * id). `snapshotFrom`: where a new contact's event reads it (a statement inserting it, whose CTEs
 * these must follow).
 */
export function recordCtes(n: number, snapshotFrom?: SnapshotSources): string {
  return `rx AS (
  SELECT * FROM jsonb_to_recordset($${n}::jsonb) AS x(audit_id uuid, action text, entity_type text, entity_id uuid, changes jsonb, event_id uuid, event_type text, payload jsonb, traceparent text)
), ra AS (
  INSERT INTO audit_entries (id, organisation_id, actor_type, actor_id, request_id, action, entity_type, entity_id, changes)
  SELECT audit_id, $1, $${n + 1}, $${n + 2}, $${n + 3}, action, entity_type, entity_id, changes FROM rx RETURNING id
), ro AS (
  INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, payload, traceparent)
  SELECT event_id, $1, event_type, entity_type, entity_id, payload || ${contactSnapshotSql(`(payload->>'contact_id')::uuid`, snapshotFrom)}, traceparent
  FROM rx WHERE event_type IS NOT NULL RETURNING id
)`;
}

const RECORD = `WITH ${recordCtes(2)} SELECT count(*)::int AS recorded FROM ra`;

/** The parameters `withRecords` appends after a statement's own. */
export function recordParams(actor: AuditActor, records: readonly ChangeRecord[]): unknown[] {
  // The write's trace: the runs its events start continue it (docs/operations.md "Traces").
  const traceparent = currentTraceparent();
  const rows = records.map(({ change, event }) => ({
    audit_id: newId(), action: change.action, entity_type: change.entityType, entity_id: change.entityId, changes: change.changes ?? null,
    event_id: event ? newId() : null, event_type: event?.type ?? null, payload: event?.payload ?? null, traceparent,
  }));
  return [JSON.stringify(rows), actor.actorType, actor.actorId, actor.requestId ?? null];
}

/**
 * `statement` (a `WITH ...` whose own parameters end at $used) that also writes the records
 * given by `recordParams` as its next parameters. Data-modifying CTEs always run to completion,
 * whatever the main query reads.
 */
export function withRecords(statement: string, used: number): string {
  if (!/^WITH /.test(statement)) throw new Error('withRecords needs a WITH statement');
  return statement.replace(/^WITH /, `WITH ${recordCtes(used + 1)}, `);
}

export async function recordChanges(sql: OrgSql, actor: AuditActor, records: readonly ChangeRecord[]): Promise<void> {
  await sql.rows(RECORD, recordParams(actor, records));
}
