import type { z } from 'zod';
import type { Communication } from '../../db/client';
import { contactName, type CommunicationRecord } from '../../domain/communications/communications';
import type { SortField } from '../lists';
import { epoch } from '../present';
import type { communicationItem, communicationListItem } from './schemas';

type Item = z.input<typeof communicationItem>;
type ListItem = z.input<typeof communicationListItem>;

export const COMMUNICATION_SORT: Record<string, SortField> = { created_on: 'createdAt', name: 'name', life_cycle_state: 'lifeCycleState', channel: 'channel' };

function common(c: Communication): Omit<ListItem, 'contact_id'> {
  return {
    id: c.id,
    name: c.name,
    life_cycle_state: c.lifeCycleState as Item['life_cycle_state'],
    channel: c.channel as Item['channel'],
    is_viewed: c.isViewed,
    viewed_on: epoch(c.viewedOn),
    is_archived: c.isArchived,
    clicked_on: epoch(c.clickedOn),
    created_on: epoch(c.createdAt),
    sent_on: epoch(c.sentAt),
    language: c.language,
    sender: c.sender,
    recipient: c.recipient,
    subject: c.subject,
    content: c.content,
    failure_reason: c.failureReason,
    integration_id: c.integrationId,
    template_id: c.templateId,
  };
}

/** The public key asking, if it is one: it reads less (docs/communications.md "Public keys"). */
export function publicKeyOf(ctx: { actor: { kind: 'SECRET' | 'PUBLIC'; id: string } }): string | undefined {
  return ctx.actor.kind === 'PUBLIC' ? ctx.actor.id : undefined;
}

/**
 * What a public key may see of a message: its text only when that key sent it and no contact value
 * was rendered into it, never the address (a contact code must not resolve to an e-mail or phone).
 */
const readsText = (c: Communication, publicKeyId: string) => c.publicKeyId === publicKeyId && !c.holdsContactData;

function forViewer<T extends Omit<ListItem, 'contact_id'>>(c: Communication, item: T, publicKeyId: string | undefined): T {
  if (!publicKeyId) return item;
  const own = readsText(c, publicKeyId);
  return {
    ...item,
    recipient: null,
    ...(own ? {} : { sender: null, subject: null, content: null, failure_reason: null }),
  };
}

export function presentCommunication(c: CommunicationRecord, publicKeyId?: string): Item {
  const item = { ...common(c), contact: { id: c.contact.id, name: contactName(c.contact), code: c.contact.code }, rich_content: c.richContent };
  if (!publicKeyId) return item;
  return { ...forViewer(c, item, publicKeyId), contact: { ...item.contact, name: null }, rich_content: readsText(c, publicKeyId) ? c.richContent : null };
}

export function presentCommunicationListItem(c: Communication, publicKeyId?: string): ListItem {
  return forViewer(c, { ...common(c), contact_id: c.contactId }, publicKeyId);
}
