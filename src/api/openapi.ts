import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ROOT } from '../paths';
import { bodyRequired, type RouteDef } from './route';
import { MAX_MEMBERS, MAX_NESTING } from './middleware/nesting';
import { COMMON_AREA, ERROR_CODES, codesOf } from '../domain/error-codes';
import { SCOPES } from '../domain/identity/scopes';
import { DOCUMENTED_INPUT } from './validation';

/**
 * The OpenAPI 3.1 document, generated from the same route list and zod schemas that the app
 * validates with (DEVELOPING.md "A resource group"): a route that exists is documented.
 * OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits directly.
 */

type Json = Record<string, unknown>;
/** Read, not imported: an import of ../../package.json would miss from dist/src/api (src/paths.ts). */
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
type Io = 'input' | 'output';

export interface OpenApiOptions {
  /** Base URL of the operations; relative URLs resolve against where the document was fetched. */
  serverUrl?: string;
}

const BASE = '/backoffice/v1';
const cache = new WeakMap<RouteDef[], Map<string, Json>>();

/** Built once per route list and server URL: the document never changes while the process runs. */
export function buildOpenApi(routes: RouteDef[], opts: OpenApiOptions = {}): Json {
  const serverUrl = opts.serverUrl ?? BASE;
  let byUrl = cache.get(routes);
  if (!byUrl) cache.set(routes, (byUrl = new Map()));
  let doc = byUrl.get(serverUrl);
  if (!doc) byUrl.set(serverUrl, (doc = build(routes, serverUrl)));
  return doc;
}

function build(routes: RouteDef[], serverUrl: string): Json {
  const schemas = new SchemaNames();
  const paths: Record<string, Record<string, Json>> = {};
  for (const def of routes) {
    (paths[def.path] ??= {})[def.method] = operation(def, schemas);
  }
  linkCreates(routes, paths, schemas.components);
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: tagDescription(name) }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Back-office API',
      version: pkg.version,
      description: INFO_DESCRIPTION,
      // Whoever runs the service answers for it and sets its terms; the document says so.
      contact: { name: 'The operator of this service' },
      license: { name: 'Proprietary: terms set by the operator of this service', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, ...schemas.components },
      responses: errorResponses(paths),
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

const INFO_DESCRIPTION = [
  'Back-office administration of customer and loyalty data. HTTPS only; JSON bodies only.',
  '',
  '- Authenticate with an `api_key` header (secret key, or public key where an operation says so) or `Authorization: Bearer <JWT>` from `POST /users/login`.',
  '- Dates are epoch seconds (UTC); ids are GUIDs. Lists take `page` (1-based), `size` (max 100), `sort` and `order` (`ASC`/`DESC`).',
  '- Every error has the body `{code, message, attribute?, request_id}`; every response carries `X-Request-Id`.',
  `- Request bodies: at most 1 MiB (413), nested at most ${MAX_NESTING} levels deep (the top-level value is level 1) and at most ${MAX_MEMBERS} members per object (400 naming where). Responses are \`Cache-Control: no-store\`.`,
  '- Any POST accepts an `Idempotency-Key` header: the same key and body within 24 h replays the first response.',
  '',
  codeTable(COMMON_AREA),
].join('\n');

/** The error codes of an area as a Markdown table (src/domain/error-codes.ts). */
function codeTable(area: string): string {
  const rows = codesOf(area).map(([code, kind]) => `| \`${code}\` | ${kind.status} | ${kind.meaning} |`);
  const title = area === COMMON_AREA ? 'Error codes any operation may answer:' : 'Error codes of this area, besides the common ones:';
  return [title, '', '| code | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** What each group of operations is for: the first line a reader of the reference sees. */
const TAG_SUMMARIES: Record<string, string> = {
  Operations: 'The service itself: health, and this document.',
  Authentication: 'Signing in as a back-office user: access and refresh tokens.',
  'API keys': 'Secret and public API keys of the organisation, with their scopes.',
  'Reference data': 'Catalogues the records name: contact categories, account classifications, industries, countries and more.',
  Contacts: 'Customers, persons or companies, with their addresses, consents, custom fields and activity.',
  Analysis: "Contacts' order and rewards analysis.",
  Settings: "The organisation's money settings: currency, limits, credit limits and time zone.",
  'Business network': 'The merchants and their outlets where contacts buy and spend.',
  Products: 'Products and their families, which purchases and spend conditions name.',
  'Spend conditions': 'Rules that restrict where funds of a wallet may be spent.',
  'Accounting periods': 'Periods the ledger closes, after which their journals are fixed.',
  Accounts: 'Accounts of a contact: their wallets, credit limit, life cycle and termination.',
  Wallets: 'Wallets, their balances and journals: money moves only through ledger entries.',
  Loyalty: 'Loyalty reference data: reward tiers, offers and voucher types.',
  Rewards: 'Reward schemes and what an account was awarded.',
  Vouchers: 'Vouchers issued to contacts, and their use.',
  Purchases: 'Purchases, their returns and cancellations, and the awards and spends they cause.',
  Communications: 'Templates, communication plans, segments, integrations and the communications sent.',
  'Assignment reference data': 'Organisation units, departments, roles and post-code coverage that assignment rules use.',
  Users: 'Back-office users, their scopes and sessions.',
  'Custom fields': 'Fields an organisation adds to contacts, accounts and other records.',
  Webhooks: 'Outgoing HTTP requests to integrators, signed, retried and logged.',
  Automations: 'Rules that turn a business event into actions: webhooks, communications, approvals.',
  Activities: 'Activities of contacts: what happened, when and where.',
  Reports: 'Reports previewed, run and mailed as CSV or PDF.',
  Analytics: 'Time series of purchases, visits, awards and more, by hour, day or month.',
};

/** What a reader of a tag needs before its operations (Markdown), beside its error codes. */
const TAG_NOTES: Record<string, string> = {
  Webhooks: [
    'Each request is a JSON `{id, type, created_on, call_id?, data}` signed as [Standard Webhooks](https://www.standardwebhooks.com/) do:',
    'the headers `webhook-id`, `webhook-timestamp` (epoch seconds, fresh on every attempt) and `webhook-signature`, a space-separated list of',
    '`v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the webhook\'s `secret_key` after `whsec_`.',
    'To verify: recompute the HMAC over the raw bytes received (not re-serialised JSON), compare it in constant time with each `v1` signature,',
    'and refuse a timestamp more than 5 minutes away from now. `webhook-id` is the same on every attempt of a request: de-duplicate on it.',
    'A 2xx within 15 s is success; anything else is retried on the schedule immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.',
  ].join(' '),
};

function tagDescription(tag: string): string {
  const summary = TAG_SUMMARIES[tag];
  if (!summary) throw new Error(`tag ${tag} has no summary in TAG_SUMMARIES (src/api/openapi.ts)`);
  return [summary, TAG_NOTES[tag], codesOf(tag).length ? codeTable(tag) : undefined].filter((p) => p !== undefined).join('\n\n');
}

const ERROR_SCHEMA: Json = {
  type: 'object',
  description: 'The one error body of the API.',
  properties: {
    code: {
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: 'Machine-readable code. The common codes are listed in the API description, the codes of an area in the description of its tag.',
    },
    message: { type: 'string', description: 'Human-readable explanation.' },
    attribute: { type: 'string', description: 'Path of the field that caused the error, e.g. `addresses.0.country_code`.' },
    request_id: { type: 'string', description: 'Same as the `X-Request-Id` response header.' },
  },
  required: ['code', 'message', 'request_id'],
};

/**
 * The scope names an operation's security requirement lists (OpenAPI 3.1 allows role names for
 * any scheme type), declared on the schemes that carry them so linters and readers can check them.
 */
const SCOPE_NOTE = [
  'Scopes: an operation lists the one it requires. A credential holding `*` has all of them, one holding a group name (`contacts`) has its `:read` and `:write`.',
  `Scope names: ${SCOPES.map((s) => `\`${s}\``).join(', ')}.`,
].join(' ');

const SECURITY_SCHEMES: Json = {
  secretKey: {
    type: 'apiKey', in: 'header', name: 'api_key',
    description: `Secret API key: accepted by every operation its scopes allow. ${SCOPE_NOTE}`,
    'x-scopes': SCOPES,
  },
  publicKey: {
    type: 'apiKey', in: 'header', name: 'api_key',
    description: 'Public API key (same header as the secret key): carries no scopes and is accepted only by operations that list this scheme (spec 4.7: communication plans, templates, communications).',
  },
  bearer: {
    type: 'http', scheme: 'bearer', bearerFormat: 'JWT',
    description: `Access token of a back-office user, from \`POST /users/login\`. The raw token in a lower-case \`authorization\` header is accepted too. ${SCOPE_NOTE}`,
    'x-scopes': SCOPES,
  },
};

const HEADERS: Json = {
  'X-Request-Id': { description: 'Echo of the caller\'s `X-Request-Id`, or a new id.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 },
  description: 'Retrying with the same key and body within 24 h returns the first response without a second effect; the same key with another body answers 409 `IDEMPOTENCY_CONFLICT`.',
};

/** Shared error responses, referenced by status from each operation. */
const ERRORS: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Invalid request (`INVALID_REQUEST`); `attribute` names the first offending field.' },
  401: { name: 'Unauthorized', description: 'No credential, or an unknown, revoked or expired one (`INVALID_CREDENTIAL`).' },
  403: { name: 'Forbidden', description: 'The credential is valid but not allowed here (`FORBIDDEN`).' },
  404: { name: 'NotFound', description: 'No such record in the caller\'s organisation (`NOT_FOUND`).' },
  409: { name: 'Conflict', description: 'Conflict with the current state, e.g. `ALREADY_EXISTS` or `IDEMPOTENCY_CONFLICT`.' },
  413: { name: 'PayloadTooLarge', description: 'The body exceeds 1 MiB.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not `application/json`.' },
  429: { name: 'RateLimited', description: 'Too many requests for this credential (`RATE_LIMITED`); see `Retry-After`.' },
  500: { name: 'InternalError', description: 'Unexpected error (`INTERNAL_ERROR`); never carries details.' },
  502: { name: 'BadUpstreamResponse', description: 'An upstream service answered badly (`BAD_UPSTREAM_RESPONSE`).' },
  503: { name: 'Unavailable', description: 'A dependency is unavailable or the service is overloaded (`UNAVAILABLE`).' },
  504: { name: 'UpstreamTimeout', description: 'An upstream service did not answer in time (`UPSTREAM_TIMEOUT`).' },
};

/** The shared error responses some operation refers to (502 and 504 are named by none today). */
function errorResponses(paths: Json): Json {
  const out: Json = {};
  const text = JSON.stringify(paths);
  for (const [status, e] of Object.entries(ERRORS)) {
    if (!text.includes(`"#/components/responses/${e.name}"`)) continue;
    const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
    if (status === '429') headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    out[e.name] = {
      description: e.description,
      headers,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

function operation(def: RouteDef, schemas: SchemaNames): Json {
  const authed = def.auth !== 'none';
  // A GET with a body schema (the report preview, spec 4.9) documents its body too.
  const hasBody = def.body !== undefined;
  const parameters = [...pathParameters(def), ...queryParameters(def)];
  if (authed && def.method === 'post') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

  const op: Json = {
    operationId: def.operationId,
    summary: def.summary,
    description: describe(def),
    tags: [def.tag],
    security: security(def),
  };
  if (parameters.length) op.parameters = parameters;
  if (hasBody) {
    op.requestBody = {
      required: bodyRequired(def),
      content: {
        'application/json': {
          schema: schemas.ref(def.body!, 'input', `${pascal(def.operationId)}Request`),
          ...(def.example !== undefined ? { example: def.example } : {}),
        },
      },
    };
  }
  op.responses = responses(def, schemas, hasBody);
  return op;
}

/**
 * Links (OpenAPI "Link Object") from a create to the operations on what it made: a POST whose
 * answer carries `id` links to each operation under `<its path>/{<name>}`, that id as the
 * parameter and the create's own path parameters passed on, so a client or a stateful tester can
 * chain the calls.
 */
function linkCreates(routes: RouteDef[], paths: Record<string, Record<string, Json>>, components: Record<string, Json>): void {
  for (const def of routes) {
    if (def.method !== 'post') continue;
    const answer = (paths[def.path][def.method].responses as Json)[String(def.status ?? 200)] as Json;
    const ref = (answer.content as Json | undefined)?.['application/json'] as { schema?: { $ref?: string } } | undefined;
    const schema = components[ref?.schema?.$ref?.replace('#/components/schemas/', '') ?? ''] as { properties?: Json } | undefined;
    if (!schema?.properties?.id) continue;
    const under = new RegExp(`^${def.path.replace(/[{}]/g, '\\$&')}/\\{(\\w+)\\}(/|$)`);
    const passedOn = Object.fromEntries([...def.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, `$request.path.${name}`]));
    const links: Json = {};
    for (const target of routes) {
      const made = under.exec(target.path)?.[1];
      // Only a target whose every path parameter the link can fill (not /industries/{id}/sectors/{sector_id} from POST /industries).
      if (!made || target.path.match(/\{\w+\}/g)!.length !== Object.keys(passedOn).length + 1) continue;
      links[target.operationId] = {
        operationId: target.operationId,
        parameters: { ...passedOn, [made]: '$response.body#/id' },
        description: `${target.summary}, with the \`id\` this call answered as \`${made}\`.`,
      };
    }
    if (Object.keys(links).length) answer.links = links;
  }
}

function describe(def: RouteDef): string | undefined {
  if (def.auth === 'none') return def.description;
  const admin = def.auth.adminOnly ? ' Users must be admins.' : '';
  const publicKey = def.auth.public ? ' A public API key is accepted too.' : '';
  const needs = `Requires a secret API key or a user token with the scope \`${def.auth.scope}\`.${admin}${publicKey}`;
  return def.description ? `${def.description}\n\n${needs}` : needs;
}

/** Secret keys and user tokens everywhere; public keys only where the route admits them. */
function security(def: RouteDef): Json[] {
  // `{}`: no credential is one of the alternatives.
  if (def.auth === 'none') return def.optionalCredential ? [{}, { secretKey: [] }, { bearer: [] }] : [];
  const roles = [def.auth.scope];
  const alternatives: Json[] = [{ secretKey: roles }, { bearer: roles }];
  if (def.auth.public) alternatives.push({ publicKey: [] });
  return alternatives;
}

function responses(def: RouteDef, schemas: SchemaNames, hasBody: boolean): Json {
  const status = def.status ?? 200;
  const out: Json = {
    // 204 carries no body (RFC 9110), so it documents none.
    [String(status)]: status === 204
      ? { description: 'No content', headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } } }
      : {
          description: status === 201 ? 'Created' : 'Success',
          headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
          content: { 'application/json': { schema: schemas.ref(def.response, 'output', `${pascal(def.operationId)}Response`) } },
        },
  };
  if (def.also) {
    out[String(def.also.status)] = {
      description: def.also.description,
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
      content: { 'application/json': { schema: schemas.ref(def.also.response, 'output', `${pascal(def.operationId)}Response${def.also.status}`) } },
    };
  }
  const codes = new Set<number>(def.errors ?? []);
  if (def.params || def.query || def.body) codes.add(400);
  if (def.params) codes.add(404);
  if (hasBody) (codes.add(413), codes.add(415));
  if (def.auth !== 'none') {
    [401, 403, 429].forEach((c) => codes.add(c));
    if (def.method === 'post') codes.add(409); // Idempotency-Key reused with another body
  }
  codes.add(500);
  for (const code of [...codes].sort((a, b) => a - b)) {
    const known = ERRORS[code];
    out[String(code)] = known
      ? { $ref: `#/components/responses/${known.name}` }
      : { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return out;
}

function pathParameters(def: RouteDef): Json[] {
  const names = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!names.length) return [];
  const object = def.params ? objectSchema(def.params, 'input') : { properties: {}, required: [] };
  return names.map((name) => parameter(name, 'path', object.properties[name] ?? { type: 'string' }, true));
}

function queryParameters(def: RouteDef): Json[] {
  if (!def.query) return [];
  const object = objectSchema(def.query, 'input');
  return Object.entries(object.properties).map(([name, schema]) => parameter(name, 'query', schema, object.required.includes(name)));
}

/** Descriptions and examples move from the schema to the parameter, where UIs show them. */
function parameter(name: string, location: 'path' | 'query', schema: Json, required: boolean): Json {
  const { description, example, ...rest } = schema;
  const p: Json = { name, in: location, required, schema: rest };
  if (typeof description === 'string') p.description = description;
  if (example !== undefined) p.example = example;
  return p;
}

/** Properties of an object schema (also through `allOf`, as intersections produce). */
function objectSchema(schema: z.ZodType, io: Io): { properties: Record<string, Json>; required: string[] } {
  const { schema: top, defs } = toJson(schema, io);
  const named = typeof top.$ref === 'string' ? defs[top.$ref.replace('#/components/schemas/', '')] : undefined;
  const json = named ?? top;
  const parts = [json, ...((json.allOf as Json[] | undefined) ?? [])];
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const part of parts) {
    Object.assign(properties, (part.properties as Record<string, Json> | undefined) ?? {});
    required.push(...((part.required as string[] | undefined) ?? []));
  }
  return { properties, required };
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** zod → JSON Schema 2020-12, with `$defs` (schemas carrying a meta `id`) returned separately. */
function toJson(schema: z.ZodType, io: Io): { schema: Json; defs: Record<string, Json> } {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (io === 'input') return writeDocumented(zodSchema as unknown as z.ZodType, jsonSchema as Json);
      // zod's integer() bounds are the safe-integer range: noise for readers of an answer (a
      // request's bound stays: a larger number is refused).
      if (jsonSchema.minimum === -SAFE) delete jsonSchema.minimum;
      if (jsonSchema.maximum === SAFE) delete jsonSchema.maximum;
      // Responses may gain fields over time: only strict (request) objects forbid extra ones.
      const def = zodSchema._zod.def as { type: string; catchall?: unknown };
      if (io === 'output' && def.type === 'object' && def.catchall === undefined) delete jsonSchema.additionalProperties;
    },
  }) as Json;
  if (io === 'input') refuseNul(json);
  const { $schema: _ignored, $defs, ...rest } = json;
  const defs = ($defs as Record<string, Json> | undefined) ?? {};
  return { schema: relocateRefs(rest) as Json, defs: relocateRefs(defs) as Record<string, Json> };
}

/** Any text but NUL, which every request refuses (src/api/middleware/strict-input.ts). */
const STORABLE_TEXT = '^[^\\u0000]*$';

/** A schema with a documented input (DOCUMENTED_INPUT) is written as documented, or gains the rule. */
function writeDocumented(zodSchema: z.ZodType, json: Json): void {
  const documented = documentedInput(zodSchema);
  if (documented?.add) Object.assign(json, structuredClone(documented.add));
  if (!documented?.replace) return;
  const own = json.description;
  for (const key of Object.keys(json)) delete json[key];
  Object.assign(json, structuredClone(documented.replace), own === undefined ? {} : { description: own });
}

/** Text with no pattern, format or list of values gains the NUL refusal every request makes. */
function refuseNul(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(refuseNul);
  if (!value || typeof value !== 'object') return;
  const json = value as Json;
  if (json.type === 'string' && json.pattern === undefined && json.format === undefined && json.enum === undefined && json.const === undefined) {
    json.pattern = STORABLE_TEXT;
  }
  Object.values(json).forEach(refuseNul);
}

/** The documented input of a schema or of the one it was derived from by `.meta()` or `.describe()`. */
function documentedInput(schema: z.ZodType): { replace?: Json; add?: Json } | undefined {
  for (let at: z.ZodType | undefined = schema; at; at = (at._zod as { parent?: z.ZodType }).parent) {
    const json = DOCUMENTED_INPUT.get(at);
    if (json) return json;
  }
  return undefined;
}

function renameRef(value: unknown, from: string, to: string): unknown {
  return JSON.parse(JSON.stringify(value).split(`"#/components/schemas/${from}"`).join(`"#/components/schemas/${to}"`));
}

/** `#/$defs/X` → `#/components/schemas/X`. */
function relocateRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relocateRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : relocateRefs(v)]),
    );
  }
  return value;
}

/**
 * Request and response schemas become named components; a schema object shared by several
 * operations (same zod instance, same side) is emitted once, under the first operation's name.
 */
class SchemaNames {
  readonly components: Record<string, Json> = {};
  private readonly seen = new Map<z.ZodType, Partial<Record<Io, string>>>();

  ref(schema: z.ZodType, io: Io, fallbackName: string): Json {
    const known = this.seen.get(schema)?.[io];
    if (known) return { $ref: `#/components/schemas/${known}` };
    let { schema: json, defs } = toJson(schema, io);
    // The same named schema can read differently as input and output (defaults, transforms):
    // the second reading gets a suffixed name, and every reference in this schema follows.
    for (const id of Object.keys(defs)) {
      if (!(id in this.components) || JSON.stringify(this.components[id]) === JSON.stringify(defs[id])) continue;
      const preferred = `${id}${io === 'input' ? 'Input' : 'Output'}`;
      const reuse = JSON.stringify(this.components[preferred]) === JSON.stringify(defs[id]);
      const renamed = reuse ? preferred : this.unique(preferred);
      json = renameRef(json, id, renamed) as Json;
      defs = renameRef(defs, id, renamed) as Record<string, Json>;
      defs[renamed] = defs[id];
      delete defs[id];
    }
    Object.assign(this.components, defs);
    if (json.$ref) return json; // the schema itself has a meta id: already a component
    const name = this.unique(fallbackName);
    this.components[name] = json;
    this.seen.set(schema, { ...this.seen.get(schema), [io]: name });
    return { $ref: `#/components/schemas/${name}` };
  }

  private unique(name: string): string {
    let candidate = name;
    for (let i = 2; candidate in this.components; i++) candidate = `${name}${i}`;
    return candidate;
  }
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
