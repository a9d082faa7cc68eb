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

export function presentCommunication(c: CommunicationRecord): Item {
  return { ...common(c), contact: { id: c.contact.id, name: contactName(c.contact), code: c.contact.code }, rich_content: c.richContent };
}

export function presentCommunicationListItem(c: Communication): ListItem {
  return { ...common(c), contact_id: c.contactId };
}
