// What each adaptor action does inside its run step's transaction (docs/automations.md
// "Adaptors"). Each answers the record it leaves: status and attributes. Work that must follow
// the commit is an intent its domain operation writes (a communication's send). A webhook
// action, the usual one, is a step of one statement of its own (./webhook-step.ts).
import type { Tx } from '../../db/client';
import type { Mailer } from '../../mail';
import { resolveAssignee, type Assignee, type AssignmentAction } from '../assignments/resolve';
import { audit, type AuditActor } from '../audit';
import { createCommunication, placeholderValues } from '../communications/communications';
import { renderDirect, renderMessage } from '../communications/render';
import { conflict, invalid, notFound } from '../errors';
import { newId } from '../ids';
import type { WebhookRequestInput } from '../webhooks/requests';
import { recordAttribute, type RecordAttribute } from './records';

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

const ASSIGNMENT_ADAPTORS = new Set(['ORDER_PROVISION', 'SERVICE_REQUEST_PROVISION']);
const POINT_OF_SALE_ADAPTORS = new Set(['POS_SYSTEM_1', 'POS_SYSTEM_2']);

export async function performAction(tx: Tx, deps: { mail: Mailer }, ctx: RunContext): Promise<ActionOutcome> {
  const { adaptor, adaptorAction } = ctx.step;
  if (adaptorAction === 'COMMUNICATE_CUSTOMER') return communicateCustomer(tx, ctx);
  if (adaptorAction === 'COMMUNICATE_USER') return communicateUser(tx, deps.mail, ctx);
  if (adaptorAction === 'UPDATE_CONTENT') return updateContent(tx, ctx);
  if (ASSIGNMENT_ADAPTORS.has(adaptor)) return assign(tx, ctx);
  throw invalid('adaptor_action', `${adaptor}/${adaptorAction} has no run-time behaviour`);
}

const systemActor = (ctx: RunContext): AuditActor => ({ organisationId: ctx.organisationId, actorType: 'system', actorId: `automation:${ctx.automation.id}` });

/** WEBHOOKS and the point-of-sale adaptors post a webhook: written by ./webhook-step.ts, not performAction. */
export const postsWebhook = (adaptor: string) => adaptor === 'WEBHOOKS' || POINT_OF_SALE_ADAPTORS.has(adaptor);

/** The webhook request a webhook action's step writes: the event's payload, named by the run. */
export function webhookRequestOf(ctx: RunContext): Omit<WebhookRequestInput, 'automation' | 'entity'> {
  return {
    webhookId: ctx.step.parameters.webhook_id,
    type: POINT_OF_SALE_ADAPTORS.has(ctx.step.adaptor) ? 'ORDER_PROVISION' : ctx.event.type,
    data: {
      event: { id: ctx.event.id, type: ctx.event.type },
      entity: { type: ctx.entity.type, id: ctx.entity.id },
      automation: { id: ctx.automation.id, name: ctx.automation.name },
      ...ctx.event.payload,
    },
    callId: typeof ctx.event.payload.call_id === 'string' ? ctx.event.payload.call_id : null,
    causeKey: `${ctx.event.id}:${ctx.automation.id}:${ctx.step.actionId}`,
    createdOn: new Date(ctx.event.createdOn * 1000),
  };
}

/** The event's contact: the entity itself, or the contact the event is about. */
function contactIdOf(ctx: RunContext): string {
  if (ctx.entity.type === 'CONTACTS') return ctx.entity.id;
  const id = ctx.event.payload.contact_id;
  if (typeof id !== 'string') throw invalid('adaptor_action', `${ctx.event.type} events name no contact`);
  return id;
}

async function communicateCustomer(tx: Tx, ctx: RunContext): Promise<ActionOutcome> {
  const p = ctx.step.parameters;
  const channel = (p.channel ?? 'EMAIL') as 'EMAIL' | 'SMS' | 'INAPP';
  const { id } = await createCommunication(tx, systemActor(ctx), {
    name: ctx.automation.name,
    contact_id: contactIdOf(ctx),
    channel,
    template_id: p.template_id,
    integration_id: p.integration_id,
    subject: p.subject,
    content: p.content,
  } as Parameters<typeof createCommunication>[2], {
    // Found with its run by the run's automation and entity.
    search: { automationId: ctx.automation.id, entityType: ctx.entity.type, entityId: ctx.entity.id },
  });
  return {
    status: 'COMPLETED',
    attributes: [recordAttribute('communication_id', 'Communication', 'STRING', id), recordAttribute('channel', 'Channel', 'STRING', channel)],
  };
}

/**
 * An e-mail to a user of the organisation (staff), through the service's mailer. Its Message-ID
 * comes from the record's key: a retried step sends the same message again, not a second one.
 * Placeholders name the event's contact (empty when the event has none).
 */
async function communicateUser(tx: Tx, mail: Mailer, ctx: RunContext): Promise<ActionOutcome> {
  const p = ctx.step.parameters;
  const user = await tx.user.findFirst({ where: { organisationId: ctx.organisationId, id: p.user_id } });
  if (!user) throw notFound('User', 'user_id');
  if (!user.email) throw conflict('NO_ASSIGNEE', `user ${user.username} has no e-mail address`, 'user_id');
  const contactId = typeof ctx.event.payload.contact_id === 'string' ? ctx.event.payload.contact_id : undefined;
  const values = await placeholderValues(tx, ctx.organisationId, ctx.entity.type === 'CONTACTS' ? ctx.entity.id : contactId);
  let subject = renderDirect(p.subject, values, 'subject');
  let text = renderDirect(p.content, values, 'content');
  if (p.template_id) {
    const template = await tx.communicationTemplate.findFirst({ where: { organisationId: ctx.organisationId, id: p.template_id }, include: { contents: { orderBy: { position: 'asc' } } } });
    if (!template) throw notFound('Communication template', 'template_id');
    const contents = template.contents.map((c) => ({ language: c.language, subject: c.subject, rich_content: c.richContent, plain_content: c.plainContent }));
    const message = contents.length ? renderMessage(contents, { channel: 'EMAIL' }, values) : null;
    subject ??= message?.subject ?? template.name;
    text ??= message?.content ?? '';
  }
  const messageId = `<${ctx.event.id}.${ctx.step.actionId}@automations.backoffice>`;
  await mail.send({ to: user.email, subject: subject ?? ctx.automation.name, text: text ?? '', messageId });
  return {
    status: 'COMPLETED',
    attributes: [recordAttribute('user_id', 'User', 'STRING', user.id), recordAttribute('message_id', 'Message-ID', 'STRING', messageId)],
  };
}

/** AUTOMATIC_CONTENT_UPDATES: sets one custom field of the event's contact. */
async function updateContent(tx: Tx, ctx: RunContext): Promise<ActionOutcome> {
  const { custom_field_key: key, custom_field_value: value } = ctx.step.parameters;
  const contactId = contactIdOf(ctx);
  const contact = await tx.contact.findFirst({ where: { organisationId: ctx.organisationId, id: contactId }, select: { isAnonymized: true } });
  if (!contact) throw notFound('Contact', 'contact_id');
  if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', 'the contact is anonymized: nothing is written to it', 'contact_id');
  const before = await tx.contactCustomField.findFirst({ where: { organisationId: ctx.organisationId, contactId, key } });
  await tx.contactCustomField.upsert({
    where: { contactId_key: { contactId, key } },
    create: { id: newId(), organisationId: ctx.organisationId, contactId, key, value },
    update: { value },
  });
  await audit(tx, systemActor(ctx), { action: 'UPDATE', entityType: 'contact', entityId: contactId, changes: { custom_field_keys: [key] } });
  return {
    status: 'COMPLETED',
    attributes: [
      recordAttribute('custom_field_key', 'Custom field', 'STRING', key),
      recordAttribute('custom_field_value', 'New value', 'STRING', value),
      recordAttribute('previous_value', 'Previous value', 'STRING', before?.value ?? ''),
    ],
  };
}

/** Order and Service Request Provision: the resolved assignee, from the reference data. */
async function assign(tx: Tx, ctx: RunContext): Promise<ActionOutcome> {
  const contact = (ctx.event.payload.contact ?? {}) as { postal_code?: string | null; lat?: number | null; lon?: number | null };
  const assignee = await resolveAssignee(tx, ctx.organisationId, ctx.step.adaptorAction as AssignmentAction, ctx.step.parameters, {
    postal_code: contact.postal_code, lat: contact.lat, lon: contact.lon,
  });
  return { status: 'COMPLETED', attributes: assigneeAttributes(assignee) };
}

function assigneeAttributes(a: Assignee): RecordAttribute[] {
  const out: RecordAttribute[] = [];
  const ref = (key: string, label: string, v?: { id: string; name: string }) => {
    if (!v) return;
    out.push(recordAttribute(`${key}_id`, label, 'STRING', v.id), recordAttribute(`${key}_name`, `${label} name`, 'STRING', v.name));
  };
  ref('user', 'User', a.user);
  ref('department', 'Department', a.department);
  ref('user_role', 'User role', a.user_role);
  ref('organisation', 'Organisation', a.organisation);
  if (a.location) {
    ref('location', 'Location', a.location);
    out.push(recordAttribute('distance_km', 'Distance (km)', 'NUMBER', String(a.location.distance_km)));
  }
  if (a.post_code) out.push(recordAttribute('post_code', 'Covered post code', 'STRING', a.post_code));
  return out;
}
