// The audit rows and outbox events of a money write, in one statement on the write's own
// transaction (docs/money.md "The write path"; the Prisma forms are src/domain/audit.ts and
// src/domain/events/outbox.ts). A purchase records itself and each award in the same statement;
// an event about a contact carries the contact's snapshot (src/domain/events/contact-snapshot.ts).
import type { OrgSql } from '../../../db/sql';
import type { AuditActor, AuditChange } from '../../audit';
import { contactSnapshotSql } from '../../events/contact-snapshot';
import { newId } from '../../ids';

export type MoneyEventType =
  | 'WALLET_TRANSACTION_POSTED' | 'WALLET_TRANSACTION_VOIDED'
  | 'AWARD_CUSTOMER' | 'PURCHASE_POSTED' | 'PURCHASE_CANCELLED' | 'PURCHASE_RETURNED'
  | 'VOUCHER_ISSUED' | 'VOUCHER_USED' | 'VOUCHER_CANCELLED';

export interface MoneyRecord {
  change: AuditChange;
  event?: { type: MoneyEventType; payload: Record<string, unknown> };
}

const RECORD = `WITH x AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(audit_id uuid, action text, entity_type text, entity_id uuid, changes jsonb, event_id uuid, event_type text, payload jsonb)
), a AS (
  INSERT INTO audit_entries (id, organisation_id, actor_type, actor_id, request_id, action, entity_type, entity_id, changes)
  SELECT audit_id, $1, $3, $4, $5, action, entity_type, entity_id, changes FROM x RETURNING id
)
INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, payload)
SELECT event_id, $1, event_type, entity_type, entity_id, payload || ${contactSnapshotSql(`(payload->>'contact_id')::uuid`)}
FROM x WHERE event_type IS NOT NULL`;

export async function recordMoneyChanges(sql: OrgSql, actor: AuditActor, records: MoneyRecord[]): Promise<void> {
  const rows = records.map(({ change, event }) => ({
    audit_id: newId(), action: change.action, entity_type: change.entityType, entity_id: change.entityId, changes: change.changes ?? null,
    event_id: event ? newId() : null, event_type: event?.type ?? null, payload: event?.payload ?? null,
  }));
  await sql.rows(RECORD, [JSON.stringify(rows), actor.actorType, actor.actorId, actor.requestId ?? null]);
}

export function recordMoneyChange(sql: OrgSql, actor: AuditActor, change: AuditChange, event?: MoneyRecord['event']): Promise<void> {
  return recordMoneyChanges(sql, actor, [{ change, event }]);
}
