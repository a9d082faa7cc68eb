// Webhooks and their request log (spec 2.9, 4.6, part 6). Decisions: docs/webhooks.md.
import { actorOf } from '../../domain/audit';
import { endOfSecond } from '../../domain/clock';
import { hasScope } from '../../domain/identity/scopes';
import { getWebhookRequest, listWebhookRequests, sendTestRequest } from '../../domain/webhooks/requests';
import { checkWebhookEndpoint, createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateWebhookSecret, updateWebhook } from '../../domain/webhooks/webhooks';
import type { AppDeps } from '../deps';
import { contentPage, listArgs } from '../lists';
import { groupAuth, route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentWebhook, presentWebhookListItem, presentWebhookRequest, presentWebhookRequestRead, WEBHOOK_REQUEST_SORT, WEBHOOK_SORT } from './present';
import {
  rotateSecretBody,
  webhookCreateBody,
  webhookList,
  webhookListQuery,
  webhookRead,
  webhookRequestList,
  webhookRequestListQuery,
  webhookRequestRead,
  webhookSecretResponse,
  webhookUpdateBody,
} from './schemas';

const TAG = 'Webhooks';
const { read, write } = groupAuth('webhooks');
const EXAMPLE_URL = 'https://hooks.example.com/backoffice';

export function webhookRoutes(deps: AppDeps): RouteDef[] {
  return [
    route({
      method: 'post', path: '/webhooks', operationId: 'createWebhook', tag: TAG, auth: write,
      summary: 'Create a webhook',
      description:
        'url_auth USERNAME_PASSWORD needs username and password, API_KEY needs api_key; a credential of another url_auth is 400 naming it. ' +
        'url_endpoint: absolute https to a public address (not resolving to a loopback, private, link-local or otherwise special address); ' +
        'only the operator can allow other addresses, and http to them (OUTBOUND_ALLOW_CIDRS). ' +
        'Answers the new signing secret too (readable later with GET /webhooks/{id} by a credential with webhooks:write).',
      body: webhookCreateBody, response: webhookSecretResponse,
      example: { name: 'Order feed', method: 'POST', url_endpoint: EXAMPLE_URL, url_auth: 'API_KEY', api_key: 'k-123456' },
      // DNS before the transaction opens.
      prepare: ({ ctx, body }) => checkWebhookEndpoint(ctx.config, body.url_endpoint),
      handler: async ({ ctx, body }) => {
        const { id, secret } = await createWebhook(ctx.db, actorOf(ctx), body);
        return { id, secret_key: secret };
      },
    }),
    route({
      method: 'get', path: '/webhooks', operationId: 'listWebhooks', tag: TAG, auth: read,
      summary: 'List webhooks',
      description: 'Filters: search_value (name or url_endpoint), name, url_endpoint (case-insensitive text within). Sortable by name, url_endpoint, created_on (default, newest first). Each item counts its requests by state.',
      query: webhookListQuery, response: webhookList,
      handler: async ({ ctx, query }) => {
        const page = await listWebhooks(ctx.db, ctx.organisationId, listArgs(query, WEBHOOK_SORT), { searchValue: query.search_value, name: query.name, urlEndpoint: query.url_endpoint });
        return contentPage(query, page.rows.map(presentWebhookListItem), page.total);
      },
    }),
    route({
      method: 'get', path: '/webhooks/{id}', operationId: 'getWebhook', tag: TAG, auth: read,
      summary: 'Get a webhook',
      description:
        '{content: [webhook]} (spec 4.6), with until when the signing secret (and a rotated-out one) signs. The secret itself only to a credential ' +
        'with webhooks:write (a webhooks:read key cannot forge requests to the receiver). password and api_key are never answered.',
      params: idParams, response: webhookRead, errors: [404],
      handler: async ({ ctx, params }) => {
        const webhook = await getWebhook(ctx.db, ctx.organisationId, params.id);
        return { content: [presentWebhook(webhook, hasScope(ctx.actor.scopes, 'webhooks:write'))] };
      },
    }),
    route({
      method: 'put', path: '/webhooks/{id}', operationId: 'updateWebhook', tag: TAG, auth: write,
      summary: 'Update a webhook',
      description:
        'Partial, as create without method. Changing url_auth drops the credentials of the old kind; the new kind\'s must be given. ' +
        'A new url_endpoint, or a new username, needs the stored password or api_key given again (400 naming it). Requests already made keep the url they were made with.',
      params: idParams, body: webhookUpdateBody, response: idResponse, errors: [404],
      example: { name: 'Order feed (v2)', url_endpoint: EXAMPLE_URL, url_auth: 'USERNAME_PASSWORD', username: 'backoffice', password: 's3cret-pass' },
      prepare: async ({ ctx, body }) => (body.url_endpoint === undefined ? undefined : checkWebhookEndpoint(ctx.config, body.url_endpoint)),
      handler: async ({ ctx, params, body }) => {
        await updateWebhook(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/webhooks/{id}', operationId: 'deleteWebhook', tag: TAG, auth: write,
      summary: 'Delete a webhook', description: 'Its requests stay in the log with webhook {id: null, name}; a PENDING one fails at its next attempt.',
      params: idParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await deleteWebhook(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
    route({
      method: 'post', path: '/webhooks/{id}/rotate_secret', operationId: 'rotateWebhookSecret', tag: TAG, auth: write,
      summary: "Rotate a webhook's signing secret",
      description: 'A new secret signs from now on; the old one keeps signing alongside it (two signatures in webhook-signature) until previous_secret_active_until (default 24 h, at most 30 days).',
      params: idParams, body: rotateSecretBody, response: webhookSecretResponse, errors: [404],
      // No fixed time can stay within 30 days of now: the example takes the default.
      example: {},
      handler: async ({ ctx, params, body }) => {
        const { id, secret } = await rotateWebhookSecret(ctx.db, actorOf(ctx), params.id, body);
        return { id, secret_key: secret };
      },
    }),
    route({
      method: 'post', path: '/webhooks/{id}/test', operationId: 'testWebhook', tag: TAG, auth: write,
      summary: 'Send a test request',
      description: 'Makes a webhook request of type WEBHOOK_TEST with data {webhook_id} and delivers it like any other (signature, auth, retry schedule). Answers the request id: follow it with GET /webhook_requests/{id}.',
      params: idParams, response: idResponse, errors: [404],
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      handler: async ({ ctx, params }) => {
        return sendTestRequest(ctx.db, ctx.config, ctx.organisationId, params.id);
      },
    }),
    route({
      method: 'get', path: '/webhook_requests', operationId: 'listWebhookRequests', tag: TAG, auth: read,
      summary: 'List webhook requests',
      description:
        'Filters: search_value (webhook name or url_endpoint), webhook_id, url_endpoint (text within), state, call_id, automation_id, entity_id, created_on_from/_to. ' +
        'Sortable by created_on (default, newest first), state, retries.',
      query: webhookRequestListQuery, response: webhookRequestList,
      handler: async ({ ctx, query }) => {
        const page = await listWebhookRequests(ctx.db, ctx.organisationId, listArgs(query, WEBHOOK_REQUEST_SORT), {
          searchValue: query.search_value,
          webhookId: query.webhook_id,
          urlEndpoint: query.url_endpoint,
          state: query.state,
          callId: query.call_id,
          automationId: query.automation_id,
          entityId: query.entity_id,
          createdFrom: query.created_on_from === undefined ? undefined : new Date(query.created_on_from * 1000),
          createdBefore: query.created_on_to === undefined ? undefined : endOfSecond(query.created_on_to),
        });
        return contentPage(query, page.rows.map(presentWebhookRequest), page.total);
      },
    }),
    route({
      method: 'get', path: '/webhook_requests/{id}', operationId: 'getWebhookRequest', tag: TAG, auth: read,
      summary: 'Get a webhook request', description: 'The request with its attempts[] (each: when, how long, status, response, error).',
      params: idParams, response: webhookRequestRead, errors: [404],
      handler: async ({ ctx, params }) => presentWebhookRequestRead(await getWebhookRequest(ctx.db, ctx.organisationId, params.id)),
    }),
  ];
}
