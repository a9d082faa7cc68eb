// Communication templates (spec 2.10, 4.7; issue 9 part 2). Spec 4.7 lists create, read and
// list; PUT and DELETE complete the one shape. Decisions: docs/communications.md "Templates".
import { actorOf } from '../../domain/audit';
import { contactName, previewTemplate } from '../../domain/communications/communications';
import { hasScope } from '../../domain/identity/scopes';
import { forbidden } from '../../domain/errors';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '../../domain/communications/templates';
import { COMMUNICATIONS_TAG as TAG, communicationsRead, communicationsWrite, publicRead, publicWrite } from '../integrations/routes';
import { contentPage, listArgs, NAME_CODE_SORT } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentTemplate, templateFilter } from './present';
import { templateCreateBody, templateItem, templateList, templateListQuery, templateRenderBody, templateRendered, templateUpdateBody } from './schemas';

const PLACEHOLDER_NOTE =
  'Contents may use {{contact.<field>}} placeholders (docs/communications.md "Placeholders"); an unknown one is 400 naming the field ' +
  '(contents.0.rich_content). At most one content per language (400 naming contents.N.language).';

export function templateRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/communication_templates', operationId: 'createCommunicationTemplate', tag: TAG, auth: publicWrite,
      summary: 'Create a communication template', description: PLACEHOLDER_NOTE,
      body: templateCreateBody, response: idResponse, errors: [409],
      example: {
        name: 'Welcome',
        contents: [
          {
            language: 'eng',
            subject: 'Welcome, {{contact.first_name}}',
            rich_content: '<p>Dear {{contact.first_name}} {{contact.last_name}}, your card is {{contact.loyalty_identifier}}.</p>',
            plain_content: 'Dear {{contact.first_name}}, welcome.',
          },
        ],
      },
      handler: ({ ctx, body }) => createTemplate(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/communication_templates', operationId: 'listCommunicationTemplates', tag: TAG, auth: publicRead,
      summary: 'List communication templates', description: 'Filters: name (contains), code (exact). Sortable by name, code, created_on (default: newest first).',
      query: templateListQuery, response: templateList,
      handler: async ({ ctx, query }) => {
        const page = await listTemplates(ctx.db, ctx.organisationId, listArgs(query, NAME_CODE_SORT), templateFilter(query));
        return contentPage(query, page.rows.map(presentTemplate), page.total);
      },
    }),
    route({
      method: 'get', path: '/communication_templates/{id}', operationId: 'getCommunicationTemplate', tag: TAG, auth: publicRead,
      summary: 'Get a communication template', params: idParams, response: templateItem, errors: [404],
      handler: async ({ ctx, params }) => presentTemplate(await getTemplate(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'post', path: '/communication_templates/{id}/render', operationId: 'renderCommunicationTemplate', tag: TAG, auth: communicationsRead,
      summary: 'Render a template for a contact, without sending',
      description:
        'What POST /communications with this template_id would carry for the contact (the same choice of language and the same rendering), ' +
        'written nowhere and sent to no one. It shows a contact\'s personal data, so it takes a secret key or a user with contacts:read ' +
        'as well as communications:read (403 naming contact_id); public keys are refused. Unknown contact: 404 naming contact_id.',
      params: idParams, body: templateRenderBody, response: templateRendered, errors: [403, 404],
      example: { contact_id: 'C-1001', language: 'eng', channel: 'EMAIL' },
      // Writes nothing.
      transaction: false,
      handler: async ({ ctx, params, body }) => {
        if (ctx.actor.kind === 'SECRET' && !hasScope(ctx.actor.scopes, 'contacts:read')) throw forbidden('This credential lacks the scope contacts:read', 'contact_id');
        const { contact, message } = await previewTemplate(ctx.db, ctx.organisationId, params.id, body);
        return {
          template_id: params.id,
          contact: { id: contact.id, name: contactName(contact), code: contact.code },
          channel: body.channel,
          language: message.language,
          subject: message.subject,
          content: message.content,
          rich_content: message.richContent,
        };
      },
    }),
    route({
      method: 'put', path: '/communication_templates/{id}', operationId: 'updateCommunicationTemplate', tag: TAG, auth: communicationsWrite,
      summary: 'Update a communication template',
      description: `Partial: only the fields given change; null clears the code; contents given replace the contents. ${PLACEHOLDER_NOTE}`,
      params: idParams, body: templateUpdateBody, response: idResponse, errors: [404, 409],
      example: { contents: [{ language: 'ell', subject: 'Καλώς ήρθατε', plain_content: 'Γεια σας {{contact.first_name}}' }] },
      handler: async ({ ctx, params, body }) => {
        await updateTemplate(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/communication_templates/{id}', operationId: 'deleteCommunicationTemplate', tag: TAG, auth: communicationsWrite,
      summary: 'Delete a communication template', description: 'Its contents go with it.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteTemplate(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
