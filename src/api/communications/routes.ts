// Communications (spec 2.10, 4.7; issue 9 part 3). Decisions: docs/communications.md "Communications".
import { actorOf } from '../../domain/audit';
import { archiveCommunication, createCommunication, getCommunication, listCommunications } from '../../domain/communications/communications';
import type { AppDeps } from '../deps';
import { COMMUNICATIONS_TAG as TAG, communicationsWrite, publicRead, publicWrite } from './integrations/routes';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { COMMUNICATION_SORT, presentCommunication, presentCommunicationListItem, publicKeyOf } from './present';
import { communicationCreateBody, communicationItem, communicationList, communicationListQuery, communicationUpdateBody } from './schemas';

const PUBLIC_READ_NOTE =
  'To a public key, recipient, sender, subject, content, rich_content, failure_reason and the contact\'s name are null, except the subject, content, sender and failure_reason ' +
  'of a message that same key sent whose text holds no value of the contact (no placeholder rendered): a public key never reads what a secret key, a user, a plan or an automation sent.';

export function communicationRoutes(deps: AppDeps): RouteDef[] {
  return [
    route({
      method: 'post', path: '/communications', operationId: 'createCommunication', tag: TAG, auth: publicWrite,
      summary: 'Send a communication',
      description:
        'Writes the communication PENDING, then starts its send workflow (id communication:<id>), which marks it SENT or FAILED. ' +
        'Integration: the one given (of the channel, else 400 naming integration_id), else the organisation\'s oldest of the channel, else for EMAIL the SYSTEM mailer ' +
        '(SMS without one: 400 naming integration_id). Recipient: given, else the contact\'s primary e-mail (EMAIL) or phone (SMS), else 400 naming recipient. ' +
        'A contact who opted out of the channel: 409 CONTACT_OPTED_OUT unless ignore_preferences is true; an anonymized contact: 409 CONTACT_ANONYMIZED. ' +
        'A public key sends only to the contact\'s stored address and always honours opt-outs: recipient or ignore_preferences: true from one is 403 naming the field. ' +
        'Every send counts against the organisation\'s hourly quota of the channel (public keys\' sends also against their smaller share; GET /communication_limits): ' +
        'past it, 429 QUOTA_EXCEEDED with Retry-After and nothing written. ' +
        'template_id: its content in language, else the contact\'s preferred language, else its first content, rendered for the contact; otherwise content is required.',
      body: communicationCreateBody, response: idResponse, errors: [403, 409, 429, 503],
      example: { name: 'Welcome', contact_id: 'C-1001', channel: 'EMAIL', recipient: 'alice@example.com', subject: 'Welcome', content: 'Dear Alice, welcome.' },
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      // The send workflow's intent is written with the row (createCommunication).
      handler: ({ ctx, body }) => createCommunication(ctx.db, actorOf(ctx), body, { publicKeyId: publicKeyOf(ctx) }),
    }),
    route({
      method: 'get', path: '/communications', operationId: 'listCommunications', tag: TAG, auth: publicRead,
      summary: 'List communications',
      description: 'Filters: contact_id, life_cycle_state, channel, is_archived. Sortable by created_on (default, newest first), name, life_cycle_state, channel. ' + PUBLIC_READ_NOTE,
      query: communicationListQuery, response: communicationList,
      handler: async ({ ctx, query }) => {
        const page = await listCommunications(ctx.db, ctx.organisationId, listArgs(query, COMMUNICATION_SORT), {
          contactId: query.contact_id, lifeCycleState: query.life_cycle_state, channel: query.channel, isArchived: query.is_archived,
        });
        const viewer = publicKeyOf(ctx);
        return contentPage(query, page.rows.map((c) => presentCommunicationListItem(c, viewer)), page.total);
      },
    }),
    route({
      method: 'get', path: '/communications/{id}', operationId: 'getCommunication', tag: TAG, auth: publicRead,
      summary: 'Get a communication', description: PUBLIC_READ_NOTE, params: idParams, response: communicationItem, errors: [404],
      handler: async ({ ctx, params }) => presentCommunication(await getCommunication(ctx.db, ctx.organisationId, params.id), publicKeyOf(ctx)),
    }),
    route({
      method: 'put', path: '/communications/{id}', operationId: 'updateCommunication', tag: TAG, auth: communicationsWrite,
      summary: 'Archive or unarchive a communication', description: 'is_archived only; the message itself is history.',
      params: idParams, body: communicationUpdateBody, response: idResponse, errors: [404],
      example: { is_archived: true },
      handler: async ({ ctx, params, body }) => {
        await archiveCommunication(ctx.db, actorOf(ctx), params.id, body.is_archived);
        return { id: params.id };
      },
    }),
  ];
}
