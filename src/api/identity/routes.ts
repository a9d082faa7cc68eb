import { z } from 'zod';
import { checkGrant, createApiKey, listApiKeys, revokeApiKey } from '../../domain/identity/api-keys';
import { login, logout, refresh } from '../../domain/users/users';
import { currentApiKey, currentUser } from '../../domain/identity/whoami';
import { invalidCredential } from '../../domain/errors';
import type { AppDeps } from '../deps';
import { route, type RequestContext } from '../route';
import { epoch } from '../present';
import { contentPage, listArgs } from '../lists';
import { idParams, idResponse, pagingQuery } from '../validation';
import { apiKeyCreateBody, apiKeyCreated, apiKeyItem, apiKeyList, loginBody, logoutBody, refreshBody, tokenResponse, whoAmIResponse } from './schemas';

type KeyRow = Awaited<ReturnType<typeof createApiKey>>['row'];

function presentKey(row: KeyRow): z.input<typeof apiKeyItem> {
  return {
    id: row.id,
    name: row.name,
    type: row.kind as 'SECRET' | 'PUBLIC',
    prefix: row.keyPrefix,
    scopes: row.scopes,
    created_on: epoch(row.createdAt),
    expires_on: row.expiresAt ? epoch(row.expiresAt) : null,
    revoked_on: row.revokedAt ? epoch(row.revokedAt) : null,
    rate_limit_per_second: row.rateLimitPerSecond,
  };
}

export function identityRoutes(deps: AppDeps & { onKeyRevoked: () => void }) {
  const tokens = () => ({
    secret: deps.jwtSecret,
    accessTtlSeconds: deps.config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtlSeconds: deps.config.REFRESH_TOKEN_TTL_SECONDS,
  });
  const client = (ctx: RequestContext) => ({
    address: ctx.clientAddress,
    limits: { perUsername: deps.config.LOGIN_FAILURES_PER_USERNAME, perAddress: deps.config.LOGIN_FAILURES_PER_ADDRESS, perRefreshAddress: deps.config.REFRESH_FAILURES_PER_ADDRESS },
  });
  return [
    route({
      method: 'post', path: '/users/login', operationId: 'login', tag: 'Authentication', auth: 'none',
      summary: 'Log in a back-office user',
      description: 'Usernames are unique per organisation: the password decides which holder of the username signs in (two holders with that same password: 401). ' +
        'Exchanges a username and password for a short-lived access token (JWT, for `Authorization: Bearer`) and a single-use refresh token. After a few failed attempts for a username, or many from one address, attempts are refused for a time that doubles with each further failure (429 with `Retry-After`), whether the password is right or not.',
      body: loginBody, response: tokenResponse, errors: [401, 429],
      example: { username: 'admin', password: 'correct horse battery' },
      handler: ({ ctx, body }) => login(deps.database.prisma, body.username, body.password, tokens(), client(ctx)),
    }),
    route({
      method: 'post', path: '/users/refresh', operationId: 'refreshToken', tag: 'Authentication', auth: 'none',
      summary: 'Exchange a refresh token for a new token pair',
      description: 'Refresh tokens are single-use; presenting one twice invalidates all of the user\'s refresh tokens. Invalid refresh tokens from one address are throttled like failed logins, after fewer of them (REFRESH_FAILURES_PER_ADDRESS, default 10; 429 with `Retry-After`); a refresh lock does not hold logins.',
      body: refreshBody, response: tokenResponse, errors: [401, 429],
      example: { refresh_token: 'rt_0123456789abcdef' },
      handler: ({ ctx, body }) => refresh(deps.database.prisma, body.refresh_token, tokens(), client(ctx)),
    }),
    route({
      method: 'post', path: '/users/logout', operationId: 'logout', tag: 'Authentication', auth: 'none',
      summary: 'Log out: revoke a refresh token',
      description:
        'The refresh token can no longer be exchanged (POST /users/refresh answers 401); the user\'s other sessions are untouched. ' +
        'A token that is unknown, already used or expired changes nothing and gets the same answer, 204 with no body, so the call is safe to repeat. ' +
        'The access token is not revoked: it is self-contained and expires by itself within ACCESS_TOKEN_TTL_SECONDS (15 min by default); the client forgets it. ' +
        'No credential is needed besides the refresh token itself, so a client whose access token has expired can still log out.',
      body: logoutBody, response: z.null().meta({ description: 'No content.' }), status: 204,
      example: { refresh_token: 'rt_0123456789abcdef' },
      handler: async ({ body }) => {
        await logout(deps.database.prisma, body.refresh_token);
        return null;
      },
    }),
    route({
      method: 'get', path: '/users/me', operationId: 'getCurrentUser', tag: 'Authentication', auth: 'none', optionalCredential: true,
      summary: 'Who is asking: the user or API key behind the credential',
      description:
        'Any valid credential may ask, whatever its scopes (a public key too): it learns only about itself. ' +
        'A user token (`credential_type` USER) answers the user (id, username, names, e-mail), whether they are an admin and the scopes of the token; ' +
        'an API key (`credential_type` API_KEY) answers the key (id, name, type, prefix, expiry) and its scopes. Both name the organisation (id and name). ' +
        'Without a credential: 401.',
      response: whoAmIResponse, errors: [401],
      handler: async ({ ctx }) => {
        // optionalCredential: the pipeline checked a credential that was sent; none at all is ours to refuse.
        if (!ctx.organisationId) throw invalidCredential('Authentication required: send an api_key header or Authorization: Bearer <token>');
        const { actor } = ctx;
        if (actor.type === 'user') {
          const user = await currentUser(deps.database.prisma, ctx.organisationId, actor.id);
          return {
            credential_type: 'USER' as const, id: user.id, username: user.username, first_name: user.firstName, last_name: user.lastName, email: user.email,
            is_admin: actor.isAdmin, scopes: actor.scopes, organisation: user.organisation,
          };
        }
        const key = await currentApiKey(deps.database.prisma, ctx.organisationId, actor.id);
        return {
          credential_type: 'API_KEY' as const,
          api_key: { id: key.id, name: key.name, type: actor.kind, prefix: key.keyPrefix, expires_on: key.expiresAt ? epoch(key.expiresAt) : null },
          scopes: actor.scopes, organisation: key.organisation,
        };
      },
    }),
    route({
      method: 'post', path: '/api_keys', operationId: 'createApiKey', tag: 'API keys',
      auth: { scope: 'api_keys:write', adminOnly: true },
      summary: 'Create an API key',
      description:
        'The key is returned once, in this response; only its hash is stored. A key gets at most the scopes of the credential that creates it ' +
        '(admin users may grant any): a scope it lacks is 403 naming scopes.N; scopes left out mean all (`*`), 403 naming scopes unless it holds `*`. ' +
        'A public key needs the communications scope (403 naming type).',
      body: apiKeyCreateBody, response: apiKeyCreated,
      example: { name: 'Shop integration', type: 'SECRET', scopes: ['contacts:read'], expires_on: 4102444800, rate_limit_per_second: 50 },
      handler: async ({ ctx, body }) => {
        checkGrant(ctx.actor, body.type, body.scopes);
        const { row, secret } = await createApiKey(ctx.db, {
          organisationId: ctx.organisationId,
          kind: body.type,
          name: body.name,
          scopes: body.scopes,
          expiresAt: body.expires_on === undefined ? null : new Date(body.expires_on * 1000),
          rateLimitPerSecond: body.rate_limit_per_second,
          createdBy: `${ctx.actor.type}:${ctx.actor.id}`,
        });
        return { ...presentKey(row), key: secret };
      },
    }),
    route({
      method: 'get', path: '/api_keys', operationId: 'listApiKeys', tag: 'API keys',
      auth: { scope: 'api_keys:read', adminOnly: true }, summary: 'List API keys (without their secrets)',
      query: pagingQuery(['created_on']), response: apiKeyList,
      handler: async ({ ctx, query }) => {
        const { rows, total } = await listApiKeys(ctx.db, ctx.organisationId, listArgs(query, { created_on: 'createdAt' }));
        return contentPage(query, rows.map(presentKey), total);
      },
    }),
    route({
      method: 'delete', path: '/api_keys/{id}', operationId: 'revokeApiKey', tag: 'API keys',
      auth: { scope: 'api_keys:write', adminOnly: true }, summary: 'Revoke an API key',
      description:
        'Takes effect at once on this replica and within AUTH_CACHE_SECONDS on others. Only a credential holding at least the key\'s scopes revokes it ' +
        '(admin users: any; a `*` key only a `*` holder; a public key a holder of the communications scope): 403 otherwise.',
      params: idParams, response: idResponse, errors: [404],
      // The update is one statement, committed before this replica forgets the key, so no request re-caches it meanwhile.
      transaction: false,
      handler: async ({ ctx, params }) => {
        await revokeApiKey(ctx.db, ctx.organisationId, ctx.actor, params.id);
        deps.onKeyRevoked();
        return { id: params.id };
      },
    }),
  ];
}
