// What an action's performer is given (the run's step, its event and entity) and answers (the
// record it leaves), with what several performers need of it.
import type { Tx } from '../../../db/client';
import type { AuditActor } from '../../audit';
import { conflict, invalid, notFound } from '../../errors';
import type { RecordAttribute } from '../records';

export interface RunContext {
  organisationId: string;
  automation: { id: string; name: string; entity: string };
  entity: { type: string; id: string; reference: string | null };
  event: { id: string; type: string; createdOn: number; payload: Record<string, unknown> };
  step: { actionId: string; adaptor: string; adaptorAction: string; parameters: Record<string, string> };
  workflowId: string;
}

export interface ActionOutcome {
  status: 'COMPLETED' | 'FAILED' | 'SKIPPED';
  attributes: RecordAttribute[];
}

/** Who the audit rows of an action's writes name: the automation, not a user. */
export const systemActor = (ctx: RunContext): AuditActor => ({ organisationId: ctx.organisationId, actorType: 'system', actorId: `automation:${ctx.automation.id}` });

/** The event's contact: the entity itself, or the contact the event is about. */
export function contactIdOf(ctx: RunContext): string {
  if (ctx.entity.type === 'CONTACTS') return ctx.entity.id;
  const id = ctx.event.payload.contact_id;
  if (typeof id !== 'string') throw invalid('adaptor_action', `${ctx.event.type} events name no contact`);
  return id;
}

/**
 * The event's contact, for an action that writes to it: refused when the organisation has no such
 * contact, or when it is anonymized (nothing may attach to it again: docs/contacts.md).
 */
export async function writableContactOf(tx: Tx, ctx: RunContext): Promise<string> {
  const contactId = contactIdOf(ctx);
  const contact = await tx.contact.findFirst({ where: { organisationId: ctx.organisationId, id: contactId }, select: { isAnonymized: true } });
  if (!contact) throw notFound('Contact', 'contact_id');
  if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', 'the contact is anonymized: nothing is written to it', 'contact_id');
  return contactId;
}
