// Webhooks and their request log (spec 2.9, 4.6; docs/webhooks.md).
import { z } from 'zod';
import { contentList } from '../lists';
import { pagingQuery, zEpoch, zEpochQuery, zId, zRefName } from '../validation';
import { secret } from '../secret-fields';

export const WEBHOOK_METHODS = ['POST', 'PUT'] as const;
export const URL_AUTHS = ['NO_AUTH', 'USERNAME_PASSWORD', 'API_KEY'] as const;
export const REQUEST_STATES = ['PENDING', 'SUCCESS', 'FAILED'] as const;

// The pattern (scheme, "//", a host without user:password@, no NUL; the document states it) refuses what
// the outbound check, which resolves the host, would refuse later for its shape; http passes it
// because an operator's OUTBOUND_ALLOW_CIDRS may allow it. Leading spaces are trimmed first.
const urlEndpoint = z.string().trim().min(1).max(2000).regex(/^\s*[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#@]+(?:[\s/?#][^\u0000]*)?$/, 'must be an absolute URL: https://host/...').meta({
  description: 'Absolute https URL, without user:password@; its host must not be or resolve to a private, loopback, link-local or other non-public address unless the operator allows it (OUTBOUND_ALLOW_CIDRS, which also allows http to it).',
});
const username = z.string().min(1).max(200).nullish().meta({ description: 'USERNAME_PASSWORD only (required there).' });
const password = z.string().min(1).max(500).nullish().meta({ description: 'USERNAME_PASSWORD only (required there). Write-only: never answered.' });
const apiKey = z.string().min(1).max(1000).nullish().meta({ description: 'API_KEY only (required there); sent as the `api_key` header. Write-only: never answered.' });
const secretUntil = zEpoch.nullish().meta({ description: 'Epoch seconds, in the future: after it the signing secret no longer signs (attempts fail until the secret is rotated). Null: no end.' });

export const webhookCreateBody = z.strictObject({
  name: zRefName,
  method: z.enum(WEBHOOK_METHODS),
  url_endpoint: urlEndpoint,
  url_auth: z.enum(URL_AUTHS).default('NO_AUTH'),
  username,
  password,
  api_key: apiKey,
  secret_key_active_until: secretUntil,
});

/** Partial, as create without method; credentials of another url_auth than the result's are refused. */
export const webhookUpdateBody = z.strictObject({
  name: zRefName.optional(),
  url_endpoint: urlEndpoint.optional(),
  url_auth: z.enum(URL_AUTHS).optional(),
  username,
  password,
  api_key: apiKey,
  secret_key_active_until: secretUntil,
});

export const rotateSecretBody = z.strictObject({
  previous_secret_active_until: zEpoch.optional().meta({
    description: 'Until when the old secret keeps signing alongside the new one: epoch seconds in the future, at most 30 days ahead. Default: 24 hours from now.',
  }),
});

export const webhookSecretResponse = z.object({
  id: z.string(),
  secret_key: secret('sealed', z.string().meta({
    description: 'The signing secret (whsec_...): also answered by GET /webhooks/{id} to a credential with webhooks:write. ' +
      'An Idempotency-Key replay answers it again (kept sealed in the record).',
  })),
});

export const webhookListQuery = pagingQuery(['name', 'url_endpoint', 'created_on']).extend({
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the name or the url_endpoint.' }),
  name: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the name.' }),
  url_endpoint: z.string().min(1).max(2000).optional().meta({ description: 'Case-insensitive text within the url_endpoint.' }),
});

export const webhookListItem = z.object({
  id: z.string(),
  name: z.string(),
  method: z.enum(WEBHOOK_METHODS),
  url_endpoint: z.string(),
  url_auth: z.enum(URL_AUTHS),
  username: z.string().nullable(),
  has_password: z.boolean().meta({ description: 'A password is stored (the password itself is never answered).' }),
  has_api_key: z.boolean().meta({ description: 'An api_key is stored (the key itself is never answered).' }),
  pending_requests: z.number().int(),
  successful_requests: z.number().int(),
  failed_requests: z.number().int(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const webhookItem = webhookListItem.extend({
  secret_key: z.string().optional().meta({
    description: 'Signing secret, Standard Webhooks format (whsec_ + base64). Answered only to a credential with webhooks:write: ' +
      'whoever holds it can sign requests the receiver will trust, which is what writing the webhook (a rotation) already gives.',
  }),
  secret_key_active_until: z.number().int().nullable().meta({ description: 'Until when the secret signs (epoch seconds); null: no end.' }),
  previous_secret_key_active_until: z.number().int().nullable().meta({ description: 'After a rotation: until when the previous secret also signs.' }),
});

export const webhookList = contentList(webhookItem.omit({ secret_key: true, secret_key_active_until: true, previous_secret_key_active_until: true }));
export const webhookRead = z.object({ content: z.array(webhookItem) });

export const webhookRequestListQuery = pagingQuery(['created_on', 'state', 'retries']).extend({
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the webhook name or the url_endpoint.' }),
  webhook_id: zId.optional(),
  url_endpoint: z.string().min(1).max(2000).optional().meta({ description: 'Case-insensitive text within the url_endpoint.' }),
  state: z.enum(REQUEST_STATES).optional(),
  call_id: zId.optional().meta({ description: 'The call id of a bulk contact update (PUT /contacts).' }),
  automation_id: zId.optional(),
  entity_id: zId.optional(),
  created_on_from: zEpochQuery.optional(),
  created_on_to: zEpochQuery.optional(),
});

const ref = z.object({ id: z.string(), name: z.string() });

export const webhookRequestItem = z.object({
  id: z.string(),
  state: z.enum(REQUEST_STATES),
  method: z.enum(WEBHOOK_METHODS),
  url_endpoint: z.string(),
  url_auth: z.enum(URL_AUTHS),
  type: z.string().meta({ description: "The body's type: the event type, WEBHOOK_TEST, or ORDER_PROVISION (point-of-sale adaptors)." }),
  body: z.record(z.string(), z.unknown()).meta({ description: 'The JSON sent on every attempt: {id, type, created_on, call_id?, data}.' }),
  response: z.string().nullable().meta({ description: 'Body of the last answer (at most 4 KiB).' }),
  response_status: z.number().int().nullable(),
  retries: z.number().int().meta({ description: 'Attempts after the first.' }),
  failure_reason: z.string().nullable().meta({ description: 'Why a FAILED request stopped when no answer says it, e.g. "terminated by an operator" (docs/temporal-ui.md); else null.' }),
  webhook: z.object({ id: z.string().nullable().meta({ description: 'Null once the webhook is deleted.' }), name: z.string() }),
  automation: ref.nullable(),
  entity: z.object({ type: z.string(), id: z.string().nullable(), reference: z.string().nullable() }).nullable(),
  call_id: z.string().nullable(),
  created_on: z.number().int(),
  completed_on: z.number().int().nullable(),
});

export const webhookAttemptItem = z.object({
  attempt: z.number().int(),
  started_on: z.number().int(),
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable(),
  response: z.string().nullable(),
  error: z.string().nullable().meta({ description: 'Why no 2xx arrived: timeout, refused address, connection error, non-2xx status.' }),
});

export const webhookRequestList = contentList(webhookRequestItem);
export const webhookRequestRead = webhookRequestItem.extend({ attempts: z.array(webhookAttemptItem) });
