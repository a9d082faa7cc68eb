import { pagingSchema } from '../lists';
import { z } from 'zod';
import { GRANTS } from '../../domain/identity/scopes';
import { zEpoch } from '../validation';
import { secret } from '../secret-fields';

export const loginBody = z.strictObject({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
});

export const refreshBody = z.strictObject({ refresh_token: z.string().min(1).max(500) });

export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
});

/** What a credential is given (an API key, a user): `*`, groups or single scopes. */
export const zGrants = z.array(z.enum(GRANTS, { error: 'unknown scope: `*`, a group, or <group>:read / <group>:write' })).min(1);

export const apiKeyCreateBody = z.strictObject({
  name: z.string().min(1).max(200),
  type: z.enum(['SECRET', 'PUBLIC']).default('SECRET'),
  scopes: zGrants
    .optional()
    .meta({ description: 'Default: all (`*`); for a PUBLIC key, communications (spec 4.7), of which it may hold less (`communications:read`), never more (400 naming scopes.N). `*`, a group (read and write) or `<group>:read` / `<group>:write`; at most the scopes of the credential creating the key.' }),
  expires_on: zEpoch.optional(),
  rate_limit_per_second: z.number().int().min(1).max(100000).optional(),
});

export const apiKeyItem = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['SECRET', 'PUBLIC']),
  prefix: z.string().meta({ description: 'First characters of the key, to recognise it.' }),
  scopes: z.array(z.string()),
  created_on: z.number().int(),
  expires_on: z.number().int().nullable(),
  revoked_on: z.number().int().nullable(),
  rate_limit_per_second: z.number().int().nullable(),
});

export const apiKeyCreated = apiKeyItem.extend({
  key: secret('shown_once', z
    .string()
    .nullable()
    .meta({ description: 'The key itself. Shown only in this response (null in an Idempotency-Key replay); store it safely.' })),
});

export const apiKeyList = z.object({ content: z.array(apiKeyItem), paging: pagingSchema });

export const logoutBody = z.strictObject({ refresh_token: z.string().min(1).max(500) });

// Named components, so that a client generator makes one model of each (openapi-python-client
// refused the inline copies of each branch).
const organisationRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'CredentialOrganisation', description: 'The organisation the credential belongs to (the tenant).' });
const grantedScopes = z.array(z.string()).meta({ description: 'What the credential may do: `*`, groups, or `<group>:read` / `<group>:write` (docs/security.md "Scope names"). A user token carries the scopes it was issued with.' });

export const currentUserResponse = z.object({
  credential_type: z.literal('USER'),
  id: z.string(),
  username: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  is_admin: z.boolean(),
  scopes: grantedScopes,
  organisation: organisationRef,
}).meta({ id: 'CurrentUser' });

export const currentApiKeyResponse = z.object({
  credential_type: z.literal('API_KEY'),
  api_key: z.object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['SECRET', 'PUBLIC']),
    prefix: z.string().meta({ description: 'First characters of the key, to recognise it.' }),
    expires_on: z.number().int().nullable(),
  }).meta({ id: 'CurrentApiKeyKey' }),
  scopes: grantedScopes.meta({ description: 'The key\'s scopes; a public key reaches the communication operations only, whatever they say.' }),
  organisation: organisationRef,
}).meta({ id: 'CurrentApiKey' });

export const whoAmIResponse = z.discriminatedUnion('credential_type', [currentUserResponse, currentApiKeyResponse]).meta({
  discriminator: { propertyName: 'credential_type', mapping: { USER: '#/components/schemas/CurrentUser', API_KEY: '#/components/schemas/CurrentApiKey' } },
});
