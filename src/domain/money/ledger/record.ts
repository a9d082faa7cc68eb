// The audit row and the outbox event of a money write, in one statement on the write's own
// transaction (docs/money.md "The write path"; the Prisma forms are src/domain/audit.ts and
// src/domain/events/outbox.ts).
import type { OrgSql } from '../../../db/sql';
import type { AuditActor, AuditChange } from '../../audit';
import { newId } from '../../ids';

export type MoneyEventType = 'WALLET_TRANSACTION_POSTED' | 'WALLET_TRANSACTION_VOIDED';

const RECORD = `WITH a AS (
  INSERT INTO audit_entries (id, organisation_id, actor_type, actor_id, request_id, action, entity_type, entity_id, changes)
  VALUES ($2, $1, $3, $4, $5, $6, $7, $8, $9::jsonb) RETURNING id
)
INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, payload)
SELECT $10, $1, $11, $7, $8, $12::jsonb WHERE $11::text IS NOT NULL`;

export async function recordMoneyChange(sql: OrgSql, actor: AuditActor, change: AuditChange, event?: { type: MoneyEventType; payload: Record<string, unknown> }): Promise<void> {
  await sql.rows(RECORD, [
    newId(), actor.actorType, actor.actorId, actor.requestId ?? null, change.action, change.entityType, change.entityId,
    change.changes === undefined ? null : JSON.stringify(change.changes), newId(), event?.type ?? null, event ? JSON.stringify(event.payload) : null,
  ]);
}
