// Communication templates (spec 2.10, 4.7; issue 9 part 2). Spec 4.7 lists create, read and
// list; PUT and DELETE complete the one shape. Decisions: docs/communications.md "Templates".
import { contactName, previewTemplate } from '../../../domain/communications/communications';
import { hasScope } from '../../../domain/identity/scopes';
import { forbidden } from '../../../domain/errors';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '../../../domain/communications/templates';
import { COMMUNICATIONS_TAG as TAG, communicationsRead, communicationsWrite, publicRead, publicWrite } from '../integrations/routes';
import { nameCodeFilter, NAME_CODE_SORT } from '../../lists';
import { resourceRoutes } from '../../resource';
import { route, type RouteDef } from '../../route';
import { idParams } from '../../validation';
import { presentTemplate } from './present';
import * as s from './schemas';

const PLACEHOLDER_NOTE =
  'Contents may use {{contact.<field>}} placeholders (docs/communications.md "Placeholders"); an unknown one is 400 naming the field ' +
  '(contents.0.rich_content). At most one content per language (400 naming contents.N.language).';

const template = {
  path: '/communication_templates', one: 'CommunicationTemplate', many: 'CommunicationTemplates', label: 'communication template', tag: TAG,
  item: s.templateItem, present: presentTemplate,
};

// Spec 4.7's create, read and list take public keys; the render (between them and the update in
// the document), the update and the delete do not.
export function templateRoutes(): RouteDef[] {
  return [
    ...resourceRoutes({
      ...template, auth: { read: publicRead, write: publicWrite },
      create: {
        description: PLACEHOLDER_NOTE, body: s.templateCreateBody, run: createTemplate,
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
      },
      list: {
        description: 'Filters: name (contains), code (exact). Sortable by name, code, created_on (default: newest first).',
        query: s.templateListQuery, response: s.templateList, sort: NAME_CODE_SORT, filter: nameCodeFilter, run: listTemplates,
      },
      get: { run: getTemplate },
    }),
    route({
      method: 'post', path: '/communication_templates/{id}/render', operationId: 'renderCommunicationTemplate', tag: TAG, auth: communicationsRead,
      summary: 'Render a template for a contact, without sending',
      description:
        'What POST /communications with this template_id would carry for the contact (the same choice of language and the same rendering), ' +
        'written nowhere and sent to no one. It shows a contact\'s personal data, so it takes a secret key or a user with contacts:read ' +
        'as well as communications:read (403 naming contact_id); public keys are refused. Unknown contact: 400 naming contact_id.',
      params: idParams, body: s.templateRenderBody, response: s.templateRendered, errors: [403, 404],
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
    ...resourceRoutes({
      ...template, auth: { read: publicRead, write: communicationsWrite },
      update: {
        description: `Partial: only the fields given change; null clears the code; contents given replace the contents. ${PLACEHOLDER_NOTE}`,
        body: s.templateUpdateBody, run: updateTemplate,
        example: { contents: [{ language: 'ell', subject: 'Καλώς ήρθατε', plain_content: 'Γεια σας {{contact.first_name}}' }] },
      },
      delete: { description: 'Its contents go with it.', run: deleteTemplate },
    }),
  ];
}
