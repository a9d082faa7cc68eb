import type { Tx } from '../../db/client';
import { newId } from '../ids';

/** Event types written to the outbox; automations subscribe to them (spec 6). */
export type DomainEventType = 'REGISTER_CONTACT' | 'AWARD_CUSTOMER' | 'CONTACT_BULK_UPDATED';

export interface DomainEvent {
  organisationId: string;
  type: DomainEventType;
  entityType: string;
  entityId: string;
  payload: Record<string, unknown>;
}

/**
 * Records an event in the same transaction as the change that caused it (transactional
 * outbox): if the change commits, the event exists; a dispatcher later starts workflows.
 */
export async function recordEvent(tx: Tx, event: DomainEvent): Promise<string> {
  const id = newId();
  await tx.outboxEvent.create({
    data: { id, organisationId: event.organisationId, type: event.type, entityType: event.entityType, entityId: event.entityId, payload: event.payload as object },
  });
  return id;
}
