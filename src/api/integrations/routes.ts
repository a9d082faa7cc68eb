// Integrations (issue 9 part 1): the one shape of reference data (API-CONVENTIONS), under their
// own scope: they decide where messages and report mails go and which secrets go with them, so
// `communications` (which uses them) does not reach them. Decisions: docs/communications.md,
// docs/security.md "Rights follow what a change reaches".
import { actorOf } from '../../domain/audit';
import { checkIntegrationTargets, createIntegration, deleteIntegration, getIntegration, listIntegrations, updateIntegration } from '../../domain/communications/integrations';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { integrationFilter, NAME_CODE_SORT, presentIntegration } from './present';
import { integrationCreateBody, integrationItem, integrationList, integrationListQuery, integrationUpdateBody } from './schemas';

export const COMMUNICATIONS_TAG = 'Communications';
export const communicationsRead = { scope: 'communications:read' } as const;
export const communicationsWrite = { scope: 'communications:write' } as const;
/**
 * Spec 4.7's operations only (plans, templates, communications): public keys sit in client-side
 * code, so they must not reach what those operations name (integrations' settings, segments'
 * contact lists) nor the operations 4.7 does not list (docs/security.md "Credentials and scopes").
 */
export const publicRead = { ...communicationsRead, public: true } as const;
export const publicWrite = { ...communicationsWrite, public: true } as const;
const integrationsRead = { scope: 'integrations:read' } as const;
const integrationsWrite = { scope: 'integrations:write' } as const;

const TAG = COMMUNICATIONS_TAG;

export function integrationRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/integrations', operationId: 'createIntegration', tag: TAG, auth: integrationsWrite,
      summary: 'Create an integration',
      description:
        'One channel (EMAIL, SMS, INAPP), a provider of that channel and its settings. A provider that does not suit the channel is 400 naming provider; ' +
        'a bad setting is 400 naming it (settings.url). settings.url (https) and settings.host must be public addresses unless the operator allows them ' +
        '(OUTBOUND_ALLOW_CIDRS, which also allows http to them). password and token are write-only. ' +
        'Scope: integrations:write (communications does not reach integrations: they decide where messages and report mails go).',
      body: integrationCreateBody, response: idResponse, errors: [409],
      prepare: ({ ctx, body }) => checkIntegrationTargets(ctx.config, body.settings),
      example: {
        name: 'Transactional mail', code: 'MAIL', channel: 'EMAIL', provider: 'SMTP',
        settings: { host: 'smtp.example.com', port: 587, secure: false, username: 'mailer', password: 'secret', from_address: 'news@example.com', from_name: 'Example' },
      },
      handler: ({ ctx, body }) => createIntegration(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/integrations', operationId: 'listIntegrations', tag: TAG, auth: integrationsRead,
      summary: 'List integrations', description: 'Filters: name (contains), code (exact), channel. Sortable by name, code, created_on (default: newest first).',
      query: integrationListQuery, response: integrationList,
      handler: async ({ ctx, query }) => {
        const page = await listIntegrations(ctx.db, ctx.organisationId, listArgs(query, NAME_CODE_SORT), integrationFilter(query));
        return contentPage(query, page.rows.map(presentIntegration), page.total);
      },
    }),
    route({
      method: 'get', path: '/integrations/{id}', operationId: 'getIntegration', tag: TAG, auth: integrationsRead,
      summary: 'Get an integration', description: 'Settings without secrets (password_set, token_set).',
      params: idParams, response: integrationItem, errors: [404],
      handler: async ({ ctx, params }) => presentIntegration(await getIntegration(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/integrations/{id}', operationId: 'updateIntegration', tag: TAG, auth: integrationsWrite,
      summary: 'Update an integration',
      description:
        'Partial: only the fields given change; null clears the code. settings given replace the settings, except password and token left out, ' +
        'which keep their stored value (same provider and auth type); null given for one clears it. A change of what a stored secret travels with ' +
        '(SMTP host, port, secure or username; HTTP url, auth username or header_name) needs the secret again: 400 naming settings.password or ' +
        'settings.auth.password / settings.auth.token. Scope: integrations:write.',
      params: idParams, body: integrationUpdateBody, response: idResponse, errors: [404, 409],
      prepare: ({ ctx, body }) => checkIntegrationTargets(ctx.config, body.settings),
      example: { name: 'Marketing mail', channel: 'EMAIL', provider: 'SMTP', settings: { host: 'smtp.example.com', port: 465, secure: true, username: 'mailer', password: 'secret', from_address: 'news@example.com' } },
      handler: async ({ ctx, params, body }) => {
        await updateIntegration(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/integrations/{id}', operationId: 'deleteIntegration', tag: TAG, auth: integrationsWrite,
      summary: 'Delete an integration', description: 'One still named by a communication plan answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteIntegration(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
