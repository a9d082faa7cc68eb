// Integrations (issue 9 part 1): the one shape of reference data (API-CONVENTIONS), under their
// own scope: they decide where messages and report mails go and which secrets go with them, so
// `communications` (which uses them) does not reach them. Decisions: docs/communications.md,
// docs/security.md "Rights follow what a change reaches".
import { checkIntegrationTargets, createIntegration, deleteIntegration, getIntegration, listIntegrations, updateIntegration } from '../../../domain/communications/integrations';
import { NAME_CODE_SORT } from '../../lists';
import { resourceRoutes } from '../../resource';
import { groupAuth, type RouteDef } from '../../route';
import { integrationFilter, presentIntegration } from './present';
import * as s from './schemas';

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

export function integrationRoutes(): RouteDef[] {
  return resourceRoutes({
    path: '/integrations', one: 'Integration', many: 'Integrations', label: 'integration', article: 'an', tag: COMMUNICATIONS_TAG,
    auth: groupAuth('integrations'),
    item: s.integrationItem, present: presentIntegration,
    create: {
      description:
        'One channel (EMAIL, SMS, INAPP), a provider of that channel and its settings. A provider that does not suit the channel is 400 naming provider; ' +
        'a bad setting is 400 naming it (settings.url). settings.url (https) and settings.host must be public addresses unless the operator allows them ' +
        '(OUTBOUND_ALLOW_CIDRS, which also allows http to them). password and token are write-only. ' +
        'Scope: integrations:write (communications does not reach integrations: they decide where messages and report mails go).',
      body: s.integrationCreateBody, run: createIntegration,
      check: ({ ctx, body }) => checkIntegrationTargets(ctx.config, body.settings),
      example: {
        name: 'Transactional mail', code: 'MAIL', channel: 'EMAIL', provider: 'SMTP',
        settings: { host: 'smtp.example.com', port: 587, secure: false, username: 'mailer', password: 'secret', from_address: 'news@example.com', from_name: 'Example' },
      },
    },
    list: {
      description: 'Filters: name (contains), code (exact), channel. Sortable by name, code, created_on (default: newest first).',
      query: s.integrationListQuery, response: s.integrationList, sort: NAME_CODE_SORT, filter: integrationFilter, run: listIntegrations,
    },
    get: { description: 'Settings without secrets (password_set, token_set).', run: getIntegration },
    update: {
      description:
        'Partial: only the fields given change; null clears the code. settings given replace the settings, except password and token left out, ' +
        'which keep their stored value (same provider and auth type); null given for one clears it. A change of what a stored secret travels with ' +
        '(SMTP host, port, secure or username; HTTP url, auth username or header_name) needs the secret again: 400 naming settings.password or ' +
        'settings.auth.password / settings.auth.token. Scope: integrations:write.',
      body: s.integrationUpdateBody, run: updateIntegration,
      check: ({ ctx, body }) => checkIntegrationTargets(ctx.config, body.settings),
      example: { name: 'Marketing mail', channel: 'EMAIL', provider: 'SMTP', settings: { host: 'smtp.example.com', port: 465, secure: true, username: 'mailer', password: 'secret', from_address: 'news@example.com' } },
    },
    delete: { description: 'One still named by a communication plan answers 409 IN_USE.', run: deleteIntegration },
  });
}
