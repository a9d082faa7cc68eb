import type { Tx } from '../../db/client';
import { newId } from '../ids';
import { currentTraceparent } from '../../telemetry/trace';
import { contactSnapshotSql } from './contact-snapshot';

/** Event types written through recordEvent; the money writes have theirs (MoneyEventType). */
export type DomainEventType = 'REGISTER_CONTACT' | 'UPDATE_CONTACT' | 'ANONYMIZE_CONTACT';

export interface DomainEvent {
  organisationId: string;
  type: DomainEventType;
  entityType: string;
  entityId: string;
  /** Facts of the event; ids only. A `contact_id` adds the contact's snapshot (contact-snapshot.ts). */
  payload: Record<string, unknown>;
}

const INSERT = `INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, payload, traceparent)
SELECT $2::uuid, $1::uuid, $3, $4, $5::uuid, $6::jsonb || ${contactSnapshotSql(`($6::jsonb->>'contact_id')::uuid`)}, $7`;

/**
 * Records an event in the same transaction as the change that caused it (transactional
 * outbox): if the change commits, the event exists; the dispatcher (src/temporal/dispatcher.ts)
 * then fans it out into the automations' runs.
 */
export async function recordEvent(tx: Tx, event: DomainEvent): Promise<string> {
  const id = newId();
  await tx.$executeRawUnsafe(INSERT, event.organisationId, id, event.type, event.entityType, event.entityId, JSON.stringify(event.payload), currentTraceparent());
  return id;
}
