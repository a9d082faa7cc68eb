// The Communications adaptor: a message to the event's contact through the communications module,
// or an e-mail to one of the organisation's users through the service's mailer.
import type { Tx } from '../../../db/client';
import type { Mailer } from '../../../mail';
import { composeCommunication, createCommunication, placeholderValues } from '../../communications/communications';
import { renderDirect, renderMessage } from '../../communications/render';
import { conflict, notFound } from '../../errors';
import { recordAttribute } from '../records';
import { defineAction, parameter, reference, userId, type ParameterRule } from './define';
import { contactIdOf, systemActor, type ActionOutcome, type RunContext } from './run-context';

const MESSAGE = [
  reference('template_id', 'TEMPLATE', 'template', false, "The template to send, in the contact's language; or write a subject and content instead."),
  parameter('subject', 'SUBJECT', 'STRING', false, "The subject when no template is chosen; placeholders such as {{contact.first_name}} are filled in for the event's contact.", { max: 500, placeholders: true }),
  parameter('content', 'CONTENT', 'STRING', false, "The plain-text message when no template is chosen; placeholders as in the subject.", { max: 20000, placeholders: true }),
  reference('integration_id', 'INTEGRATION', 'integration', false, "What sends it; empty: the organisation's integration of the channel, else for e-mail the service's own mailer."),
];
const MESSAGE_RULE: ParameterRule = { oneOf: [['template_id'], ['subject', 'content']], message: 'Choose a template, or write both a subject and content (template_id, or subject and content)' };

export const communicateCustomer = defineAction({
  code: 'COMMUNICATE_CUSTOMER',
  name: 'Communicate Customer',
  description: "Sends the event's contact a message: e-mail, SMS or in-app.",
  adaptors: ['COMMUNICATIONS'],
  parameters: [
    ...MESSAGE,
    parameter('channel', 'CHANNEL', 'ENUM', false, 'The channel.', { values: ['EMAIL', 'SMS', 'INAPP'], defaultValue: 'EMAIL' }),
  ],
  rules: [MESSAGE_RULE],
  performer: {
    kind: 'transaction',
    perform: (tx, _deps, ctx) => sendToContact(tx, ctx),
    async preview(tx, ctx) {
      const m = await composeCommunication(tx, ctx.organisationId, communicationOf(ctx));
      return { kind: 'COMMUNICATION', channel: m.channel, recipient: m.recipient, subject: m.subject, content: m.content, rich_content: m.richContent, language: m.language, integration_id: m.integration?.id ?? null };
    },
  },
});

export const communicateUser = defineAction({
  code: 'COMMUNICATE_USER',
  name: 'Communicate User',
  description: "E-mails one of your organisation's users (a colleague), not the customer.",
  adaptors: ['COMMUNICATIONS'],
  parameters: [userId(), ...MESSAGE],
  rules: [MESSAGE_RULE],
  performer: {
    kind: 'transaction',
    perform: (tx, deps, ctx) => mailUser(tx, deps.mail, ctx),
    async preview(tx, ctx) {
      const { message } = await userMail(tx, ctx);
      return { kind: 'EMAIL', recipient: message.to, subject: message.subject, content: message.text };
    },
  },
});

/** The communication the action asks for. */
function communicationOf(ctx: RunContext): Parameters<typeof createCommunication>[2] {
  const p = ctx.step.parameters;
  return {
    name: ctx.automation.name,
    contact_id: contactIdOf(ctx),
    channel: (p.channel ?? 'EMAIL') as 'EMAIL' | 'SMS' | 'INAPP',
    template_id: p.template_id,
    integration_id: p.integration_id,
    subject: p.subject,
    content: p.content,
  } as Parameters<typeof createCommunication>[2];
}

/** A communication to the event's contact, whose send is the intent createCommunication writes. */
async function sendToContact(tx: Tx, ctx: RunContext): Promise<ActionOutcome> {
  const input = communicationOf(ctx);
  const { id } = await createCommunication(tx, systemActor(ctx), input, {
    // Found with its run by the run's automation and entity.
    search: { automationId: ctx.automation.id, entityType: ctx.entity.type, entityId: ctx.entity.id },
  });
  return {
    status: 'COMPLETED',
    attributes: [recordAttribute('communication_id', 'Communication', 'STRING', id), recordAttribute('channel', 'Channel', 'STRING', input.channel)],
  };
}

/**
 * An e-mail to a user of the organisation (staff), through the service's mailer. Its Message-ID
 * comes from the record's key: a retried step sends the same message again, not a second one.
 */
async function mailUser(tx: Tx, mail: Mailer, ctx: RunContext): Promise<ActionOutcome> {
  const { user, message } = await userMail(tx, ctx);
  await mail.send(message);
  return {
    status: 'COMPLETED',
    attributes: [recordAttribute('user_id', 'User', 'STRING', user.id), recordAttribute('message_id', 'Message-ID', 'STRING', message.messageId)],
  };
}

/** The user's e-mail (read-only). Placeholders name the event's contact (empty when the event has none). */
async function userMail(tx: Tx, ctx: RunContext) {
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
  return { user, message: { to: user.email, subject: subject ?? ctx.automation.name, text: text ?? '', messageId } };
}
