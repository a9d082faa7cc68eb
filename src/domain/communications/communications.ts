// Communications (spec 2.10; docs/communications.md "Communications"): the row written PENDING
// by POST /communications, read, listed and archived here. Sending is the communication-send
// workflow's activity (src/activities/communications.ts).
import type { Communication, Contact, Integration, Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict, forbidden, found, invalid, notFound } from '../errors';
import { newId } from '../ids';
import { pageOf, type ListArgs, type ListPage } from '../lists';
import { findContact } from '../contacts/lookup';
import { renderDirect, renderMessage, type LanguageContent, type RenderContact } from './render';
import type { Channel } from './integration-settings';
import type { CommunicationInput } from './types';
import { takeQuota } from './quotas';
import { txSql } from '../../db/sql';
import { recordIntent } from '../../temporal/intents';
import type { SearchValues } from '../../temporal/search-attributes';
import { communicationWorkflowId } from '../../workflows/contracts';

export type LifeCycleState = 'PENDING' | 'SENT' | 'FAILED';

const ENTITY = 'communication';

const INCLUDE = { contact: { select: { id: true, code: true, companyName: true, firstName: true, lastName: true } } } satisfies Prisma.CommunicationInclude;
export type CommunicationRecord = Prisma.CommunicationGetPayload<{ include: typeof INCLUDE }>;

export interface CommunicationFilter {
  contactId?: string;
  lifeCycleState?: LifeCycleState;
  channel?: Channel;
  isArchived?: boolean;
}

/** The contact's display name: company name, else first and last name (as segments list them). */
export function contactName(c: { companyName: string | null; firstName: string | null; lastName: string | null }): string | null {
  return c.companyName ?? ([c.firstName, c.lastName].filter(Boolean).join(' ') || null);
}

/**
 * Who asks for a send. A public key sits in client code, so anyone may hold it: it sends only to
 * the contact's own stored address, never past an opt-out (docs/communications.md "Public keys").
 */
export interface Sender {
  /** The public key sending, if it is one. */
  publicKeyId?: string;
  /** What its send workflow is found by besides the organisation: the communication, unless a run names its automation and entity. */
  search?: SearchValues;
}

/** The request fields only a secret key or a user may use. */
function checkPublicSender(input: CommunicationInput): void {
  if (input.recipient != null) {
    throw forbidden("recipient: a public key sends only to the contact's stored address or number; leave recipient out, or use a secret key", 'recipient');
  }
  if (input.ignore_preferences) throw forbidden('ignore_preferences: a public key always honours opt-outs; use a secret key', 'ignore_preferences');
}

/**
 * Checks the refusals and the channel's quota and writes the row PENDING with the intent of its
 * send workflow, which the dispatcher starts after the commit (so the workflow always finds it).
 */
export async function createCommunication(tx: Tx, actor: AuditActor, input: CommunicationInput, sender: Sender = {}): Promise<{ id: string }> {
  const { organisationId } = actor;
  const { contact, channel, integration, language, recipient, subject, content, richContent, holdsContactData } = await composeCommunication(tx, organisationId, input, sender);
  await takeQuota(tx, organisationId, channel, Boolean(sender.publicKeyId));

  const id = newId();
  await tx.communication.create({
    data: {
      id,
      organisationId,
      name: input.name,
      contactId: contact.id,
      channel,
      integrationId: integration?.id ?? null,
      language,
      recipient,
      subject,
      content,
      richContent,
      templateId: input.template_id ?? null,
      publicKeyId: sender.publicKeyId ?? null,
      holdsContactData,
      lifeCycleState: 'PENDING',
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input), channel } });
  await recordIntent(txSql(tx, organisationId), {
    kind: 'start', workflow: 'communicationSendWorkflow', workflowId: communicationWorkflowId(id),
    input: { organisationId, communicationId: id }, search: sender.search ?? { entityType: 'COMMUNICATIONS', entityId: id },
  });
  return { id };
}

/**
 * The message a communication would be, read-only: the recipient contact and its refusals
 * (anonymized, opted out), the integration, the recipient's address, and the text rendered for the
 * contact. createCommunication writes what this answers; an automation's simulation shows it.
 */
export async function composeCommunication(tx: Tx, organisationId: string, input: CommunicationInput, sender: Sender = {}) {
  if (sender.publicKeyId) checkPublicSender(input);
  const contact = await recipientContact(tx, organisationId, input.contact_id);
  if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', 'contact_id: the contact is anonymized; nothing is sent to it', 'contact_id');
  const channel = input.channel;
  if (!input.ignore_preferences) {
    if (channel === 'EMAIL' && contact.emailOptOut) throw conflict('CONTACT_OPTED_OUT', 'contact_id: the contact opted out of e-mail (ignore_preferences: true sends anyway)', 'contact_id');
    if (channel === 'SMS' && contact.smsOptOut) throw conflict('CONTACT_OPTED_OUT', 'contact_id: the contact opted out of SMS (ignore_preferences: true sends anyway)', 'contact_id');
  }
  const integration = await pickIntegration(tx, organisationId, channel, input.integration_id ?? undefined);
  const details = await contactDetails(tx, organisationId, contact);
  const recipient = input.recipient ?? (channel === 'EMAIL' ? details.email : channel === 'SMS' ? details.phone : null) ?? null;
  if (!recipient && channel !== 'INAPP') {
    throw invalid('recipient', `recipient: required, the contact has no ${channel === 'EMAIL' ? 'e-mail address' : 'phone number'}`);
  }
  if (recipient && channel === 'EMAIL' && !/^[^\s@<>]+@[^\s@<>]+$/.test(recipient)) throw invalid('recipient', 'recipient: must be an e-mail address');

  // Direct text renders like a template's: a new user's `{{contact.first_name}}` is never sent raw.
  let subject = renderDirect(input.subject, details.render, 'subject');
  let content = renderDirect(input.content, details.render, 'content');
  let richContent: string | null = null;
  let language = input.language ?? null;
  // The same text rendered with no contact values: where it differs, the contact's data is in it.
  let holdsContactData = subject !== renderDirect(input.subject, {}, 'subject') || content !== renderDirect(input.content, {}, 'content');
  if (input.template_id) {
    const contents = await templateContents(tx, organisationId, input.template_id, 'template_id');
    const choice = { language, preferred: contact.preferredLanguageCode, channel };
    const message = renderMessage(contents, choice, details.render);
    const blank = renderMessage(contents, choice, {});
    holdsContactData = message.subject !== blank.subject || message.content !== blank.content || message.richContent !== blank.richContent;
    language = message.language;
    subject = message.subject ?? subject;
    richContent = message.richContent;
    content = message.content ?? content;
  }
  if (!content) throw invalid('content', input.template_id ? 'content: the template content has no text' : 'content: required without template_id');
  if (channel === 'EMAIL' && !subject) throw invalid('subject', 'subject: required for EMAIL (given or from the template)');
  return { contact, channel, integration, language, recipient, subject, content, richContent, holdsContactData };
}

/** The contact named by `contact_id` (id or code); 400 naming it. */
const recipientContact = (tx: Tx, organisationId: string, idOrCode: string) =>
  findContact(tx, organisationId, idOrCode).catch((err) => {
    throw err?.code === 'NOT_FOUND' ? notFound('Contact', 'contact_id') : err;
  });

/** A stored template's contents in order, as renderMessage takes them; 400 naming `attribute`. */
async function templateContents(tx: Tx, organisationId: string, templateId: string, attribute?: string): Promise<LanguageContent[]> {
  const template = await tx.communicationTemplate.findFirst({ where: { organisationId, id: templateId }, include: { contents: { orderBy: { position: 'asc' } } } });
  if (!template) throw notFound('Communication template', attribute);
  return template.contents.map((c) => ({ language: c.language, subject: c.subject, rich_content: c.richContent, plain_content: c.plainContent }));
}

export interface RenderRequest {
  contact_id: string;
  language?: string | null;
  channel: Channel;
}

/**
 * POST /communication_templates/{id}/render: what a communication from the template would carry
 * for this contact, written nowhere and sent to no one (the console's preview).
 */
export async function previewTemplate(tx: Tx, organisationId: string, templateId: string, input: RenderRequest) {
  const contents = await templateContents(tx, organisationId, templateId);
  const contact = await recipientContact(tx, organisationId, input.contact_id);
  const details = await contactDetails(tx, organisationId, contact);
  const message = renderMessage(contents, { language: input.language, preferred: contact.preferredLanguageCode, channel: input.channel }, details.render);
  return { contact, message };
}

/** The given integration (of the channel), else the organisation's oldest of the channel; null: the SYSTEM mailer (EMAIL) or nothing to send through (INAPP). */
export async function pickIntegration(tx: Tx, organisationId: string, channel: Channel, id: string | undefined): Promise<Integration | null> {
  if (id) {
    const given = await tx.integration.findFirst({ where: { organisationId, id } });
    if (!given) throw notFound('Integration', 'integration_id');
    if (given.channel !== channel) throw invalid('integration_id', `integration_id: a ${given.channel} integration, not ${channel}`);
    return given;
  }
  const first = await tx.integration.findFirst({ where: { organisationId, channel }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  if (!first && channel === 'SMS') throw invalid('integration_id', 'integration_id: required, the organisation has no SMS integration');
  return first;
}

/** The placeholder values of a contact of the organisation; none (each renders empty) without one. */
export async function placeholderValues(tx: Tx, organisationId: string, contactId: string | undefined): Promise<RenderContact> {
  const contact = contactId ? await tx.contact.findFirst({ where: { organisationId, id: contactId } }) : null;
  return contact ? (await contactDetails(tx, organisationId, contact)).render : {};
}

/** Primary e-mail and phone (else the first one), and the placeholder values. */
async function contactDetails(tx: Tx, organisationId: string, contact: Contact) {
  const [emails, phones] = await Promise.all([
    tx.contactEmail.findMany({ where: { organisationId, contactId: contact.id }, orderBy: [{ isPrimary: 'desc' }, { createdAt: 'asc' }], take: 1 }),
    tx.contactPhone.findMany({ where: { organisationId, contactId: contact.id }, orderBy: [{ isPrimary: 'desc' }, { createdAt: 'asc' }], take: 1 }),
  ]);
  const email = emails[0]?.emailAddress ?? null;
  const phone = phones[0]?.number ?? null;
  const render: RenderContact = {
    id: contact.id,
    code: contact.code,
    title: contact.title,
    first_name: contact.firstName,
    middle_name: contact.middleName,
    last_name: contact.lastName,
    name: contactName(contact),
    company_name: contact.companyName,
    email,
    phone,
    loyalty_identifier: contact.loyaltyIdentifier,
    referral_code: contact.referralCode,
  };
  return { email, phone, render };
}

/** The communication, or 404 (also for another organisation's id). */
export async function getCommunication(tx: Tx, organisationId: string, id: string): Promise<CommunicationRecord> {
  return found(await tx.communication.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Communication');
}

export async function listCommunications(tx: Tx, organisationId: string, args: ListArgs, q: CommunicationFilter): Promise<ListPage<Communication>> {
  const where: Prisma.CommunicationWhereInput = { organisationId, contactId: q.contactId, lifeCycleState: q.lifeCycleState, channel: q.channel, isArchived: q.isArchived };
  return pageOf(tx.communication.findMany({ where, ...args }), tx.communication.count({ where }));
}

/** PUT: `is_archived` only (the message itself is history). */
export async function archiveCommunication(tx: Tx, actor: AuditActor, id: string, isArchived: boolean): Promise<void> {
  const found = await tx.communication.updateMany({ where: { organisationId: actor.organisationId, id }, data: { isArchived } });
  if (!found.count) throw notFound('Communication');
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { is_archived: isArchived } });
}
