import { loadConfig } from '../src/config';
import { buildOpenApi } from '../src/api/openapi';
import type { RouteDef } from '../src/api/route';
import { allRoutes } from '../src/api/routes';
import { COMMON_AREA, ERROR_CODES } from '../src/domain/error-codes';
import { zAmount, zNonNegativeAmount, zPositiveAmount } from '../src/api/validation';
import { api } from './support/api';
import { createTenant } from './support/tenants';

type Json = Record<string, any>;

/** The route list as the app builds it; route factories only close over their dependencies. */
function routes(): RouteDef[] {
  const deps = {
    config: loadConfig({}),
    db: {},
    log: {},
    jwtSecret: 'x'.repeat(32),
    health: async () => ({}),
    onKeyRevoked: () => undefined,
  };
  return allRoutes(deps as unknown as Parameters<typeof allRoutes>[0]);
}

/** The first request schema the document states as the amount of the given sign. */
function findAmount(doc: Json, sign: string): Json {
  let found: Json | undefined;
  JSON.stringify(doc, (_k, v) => {
    if (!found && v && typeof v === 'object' && Array.isArray(v.anyOf) && v.description === `Amount: a JSON number (or numeric string), at most 15 integer digits and 4 decimal places${sign}.`) found = v;
    return v;
  });
  if (!found) throw new Error(`no amount${sign} in the document`);
  return found;
}

/** Follows one local `$ref` (`#/components/...`). */
function resolve(doc: Json, node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Json | undefined, key: string) => at?.[key], doc);
  if (!target) throw new Error(`unresolved ${node.$ref}`);
  return resolve(doc, target);
}

function allRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => allRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else allRefs(v, out);
    }
  }
  return out;
}

/** The 85 operations spec.md part 4 names (method and path, parameters as written there). */
const SPEC_OPERATIONS = [
  'DELETE /accounts/{id}/members/{member_id}',
  'DELETE /accounts/{id}/merchants/{merchant_id}',
  'DELETE /accounts/{id}/reward_schemes/{reward_scheme_id}',
  'DELETE /activities/{id}',
  'DELETE /automations/{id}',
  'DELETE /communication_plans/{id}',
  'DELETE /contacts/{id}/payment_methods/{payment_method_id}',
  'DELETE /webhooks/{id}',
  'GET /accounts/{id}/financials',
  'GET /accounts/{id}/members',
  'GET /accounts/{id}/rewards',
  'GET /activities/{id}',
  'GET /activities',
  'GET /adaptors/{id}/actions/{action_id}/records/{record_id}',
  'GET /adaptors/{id}/actions/{action_id}/records',
  'GET /automations/{id}/actions',
  'GET /automations/{id}',
  'GET /automations',
  'GET /communication_plans/{id}',
  'GET /communication_plans',
  'GET /communication_templates/{id}',
  'GET /communication_templates',
  'GET /communications/{id}',
  'GET /communications',
  'GET /contact_order_analysis',
  'GET /contact_rewards_analysis',
  'GET /contacts/{id}/accounts',
  'GET /contacts/{id}/activity_feed',
  'GET /contacts/{id}/analytics',
  'GET /contacts/{id}/payment_methods',
  'GET /contacts/{id}/wallet_transactions',
  'GET /contacts/{id}/wallets',
  'GET /contacts/{id}',
  'GET /contacts',
  'GET /custom_fields',
  'GET /merchants',
  'GET /organisations/{id}/analytics',
  'GET /purchases',
  'GET /reports/{id}/preview',
  'GET /vouchers',
  'GET /wallets/{id}/balances',
  'GET /webhook_requests',
  'GET /webhooks/{id}',
  'GET /webhooks',
  'POST /accounts/{id}/life_cycle_state',
  'POST /accounts/{id}/members',
  'POST /accounts/{id}/merchants',
  'POST /accounts/{id}/reward_schemes',
  'POST /accounts/{id}/wallets',
  'POST /activities',
  'POST /adaptors/{id}/actions/{action_id}/records/{record_id}',
  'POST /automations/{id}/actions',
  'POST /automations',
  'POST /communication_plans',
  'POST /communication_templates',
  'POST /communications',
  'POST /contact_profiles',
  'POST /contacts/{id}/accounts',
  'POST /contacts/{id}/anonymize',
  'POST /contacts/{id}/credentials',
  'POST /contacts/{id}/payment_methods',
  'POST /contacts/{id}/wallet_transactions/{transaction_id}',
  'POST /contacts',
  'POST /events',
  'POST /journals',
  'POST /purchases/ad_hoc_return',
  'POST /purchases/{id}/cancel',
  'POST /purchases',
  'POST /reports/{id}',
  'POST /vouchers/{id}',
  'POST /wallets/{id}/actions',
  'POST /wallets/{id}/cancel',
  'POST /webhooks',
  'PUT /accounts/{id}/members/{member_id}',
  'PUT /accounts/{id}/rewards',
  'PUT /accounts/{id}',
  'PUT /activities/{id}/life_cycle_state',
  'PUT /activities/{id}',
  'PUT /automations/{id}',
  'PUT /communication_plans/{id}',
  'PUT /contacts/{id}/consents',
  'PUT /contacts/{id}',
  'PUT /contacts',
  'PUT /wallets/{id}',
  'PUT /webhooks/{id}',
];

describe('OpenAPI document', () => {
  let doc: Json;
  const defs = routes();

  beforeAll(async () => {
    const res = await api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body;
  });

  it('states the GUID rule as a pattern wherever a parameter takes a GUID, the very one input applies', async () => {
    const guids = Object.values(doc.paths as Json).flatMap((ops: Json) =>
      Object.values(ops).flatMap((op: Json) => (op.parameters ?? []).filter((p: Json) => /^GUID\b/.test(p.description ?? ''))),
    );
    expect(guids.length).toBeGreaterThan(100);
    const patterns = new Set(guids.map((p: Json) => p.schema.pattern));
    expect([...patterns]).toEqual([expect.any(String)]);
    // What a generator reading the pattern sends, the service takes; what it refuses, the service refuses.
    const pattern = new RegExp([...patterns][0] as string);
    const someId = '0190F0E47B3A7C1E9A556F2D4C1B2A10';
    expect(pattern.test(someId) && pattern.test('0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10')).toBe(true);
    expect(pattern.test('0190f0e4-7b3a7c1e-9a55-6f2d4c1b2a10') || pattern.test('g190f0e47b3a7c1e9a556f2d4c1b2a10')).toBe(false);
    const key = (await createTenant('GUID pattern')).secretKey;
    expect((await api('GET', `/reward_tiers/${someId}`, { key })).status).toBe(404);
    const refused = await api('GET', '/reward_tiers/0190f0e4-7b3a7c1e-9a55-6f2d4c1b2a10', { key });
    expect([refused.status, refused.body.attribute]).toEqual([400, 'id']);
  });

  it('links each create to the operations on what it made, and following a link reaches the record', async () => {
    const operations = new Map<string, { path: string; op: Json }>();
    for (const [path, ops] of Object.entries(doc.paths as Json)) for (const op of Object.values(ops as Json)) operations.set((op as Json).operationId, { path, op });
    const links = [...operations.values()].flatMap(({ path, op }) =>
      Object.values(op.responses as Json).flatMap((r: Json) => Object.values((r.links ?? {}) as Json).map((link: Json) => ({ from: path, link }))));
    expect(links.length).toBeGreaterThan(100);
    for (const { from, link } of links) {
      const target = operations.get(link.operationId);
      expect(target).toBeDefined();
      // A link fills exactly the target's path parameters: the made id, and the create's own.
      expect(Object.keys(link.parameters).sort()).toEqual([...target!.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
      expect(target!.path.startsWith(`${from}/{`)).toBe(true);
    }
    const key = (await createTenant('Links')).secretKey;
    const created = await api('POST', '/contact_categories', { key, body: { name: 'Followed' } });
    const link = doc.paths['/contact_categories'].post.responses[String(created.status)].links.getContactCategory;
    expect(link.parameters).toEqual({ id: '$response.body#/id' });
    const followed = await api('GET', `/contact_categories/${created.body.id}`, { key });
    expect([followed.status, followed.body.name]).toEqual([200, 'Followed']);
  });

  it('lists the values of a case-free enum, which the service takes in any case', async () => {
    const order = (doc.paths['/contacts'].get.parameters as Json[]).find((p) => p.name === 'order')!;
    expect(order.schema).toMatchObject({ type: 'string', enum: ['ASC', 'DESC'], 'x-any-case': true });
    const key = (await createTenant('Any case')).secretKey;
    expect((await api('GET', '/contacts?order=asc', { key })).status).toBe(200);
    expect((await api('GET', '/contacts?order=Desc', { key })).status).toBe(200);
    const refused = await api('GET', '/contacts?order=sideways', { key });
    expect([refused.status, refused.body.attribute]).toEqual([400, 'order']);
  });

  it('states the amounts it takes: what the documented text allows, the service takes', () => {
    const texts = ['0', '0.0000', '0.0001', '1', '12.5', '-3.25', '999999999999999.9999', '1000000000000000', '1.23456', '00.10', '-0.5'];
    for (const [schema, sign] of [[zAmount, ''], [zPositiveAmount, ', greater than 0'], [zNonNegativeAmount, ', not negative']] as const) {
      const stated = new RegExp(findAmount(doc, sign).anyOf[1].pattern);
      const allowed = texts.filter((t) => stated.test(t));
      expect(allowed.length).toBeGreaterThan(2);
      for (const t of allowed) expect([t, schema.safeParse(t).success]).toEqual([t, true]);
      const number = findAmount(doc, sign).anyOf[0];
      expect(number.type).toBe('number');
      expect(schema.safeParse(number.maximum).success).toBe(true);
    }
    expect(new RegExp(findAmount(doc, ', greater than 0').anyOf[1].pattern).test('0.0000')).toBe(false);
  });

  it('says on every free text of a request that NUL is refused, as the service does', async () => {
    const params = Object.values(doc.paths as Json).flatMap((ops: Json) => Object.values(ops).flatMap((op: Json) => (op.parameters ?? []) as Json[]));
    const free = params.filter((p) => p.schema?.type === 'string' && !p.schema.enum && !p.schema.format);
    expect(free.length).toBeGreaterThan(100);
    for (const p of free) expect(p.schema.pattern).toEqual(expect.any(String));
    const search = (doc.paths['/contacts'].get.parameters as Json[]).find((p) => p.name === 'search_value')!;
    expect(new RegExp(search.schema.pattern).test('a\u0000b')).toBe(false);
    const key = (await createTenant('NUL')).secretKey;
    const refused = await api('GET', '/contacts?search_value=a%00b', { key });
    expect([refused.status, refused.body.attribute]).toEqual([400, 'search_value']);
  });

  it('is OpenAPI 3.1 with info, server and security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({ title: 'Back-office API', version: expect.any(String) });
    expect(doc.servers).toEqual([{ url: '/backoffice/v1' }]);
    expect(doc.components.securitySchemes.secretKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'api_key' });
    expect(doc.components.securitySchemes.publicKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'api_key' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.schemas.Error.required).toEqual(['code', 'message', 'request_id']);
  });

  it('is the document the route list builds, and needs no credential', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi(defs))));
  });

  it('documents every route with its method, path and operationId, and nothing else', () => {
    const documented = Object.entries(doc.paths as Json).flatMap(([p, ops]) =>
      Object.entries(ops as Json).map(([m, op]) => `${m.toUpperCase()} ${p} ${(op as Json).operationId}`),
    );
    const expected = defs.map((r) => `${r.method.toUpperCase()} ${r.path} ${r.operationId}`);
    expect(documented.sort()).toEqual(expected.sort());
    expect(new Set(defs.map((r) => r.operationId)).size).toBe(defs.length);
  });

  it('documents all 85 operations of spec.md', () => {
    const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
    const documented = new Set(Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${shape(path)}`)));
    expect(SPEC_OPERATIONS).toHaveLength(85);
    expect(SPEC_OPERATIONS.map((op) => op.replace(/ (.*)/, (_, path: string) => ` ${shape(path)}`)).filter((op) => !documented.has(op))).toEqual([]);
  });

  it('lists every error code: the common ones in the description, each area\'s in its tag', () => {
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    const tags = new Map<string, string | undefined>(doc.tags.map((t: Json) => [t.name, t.description]));
    for (const [code, kind] of Object.entries(ERROR_CODES)) {
      // An area that is not a tag would document its codes nowhere.
      const where = kind.area === COMMON_AREA ? doc.info.description : tags.get(kind.area);
      expect([code, where]).toEqual([code, expect.stringContaining(`| \`${code}\` | ${kind.status} |`)]);
    }
  });

  it('resolves every $ref', () => {
    for (const ref of allRefs(doc)) expect(() => resolve(doc, { $ref: ref })).not.toThrow();
  });

  describe.each(defs.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', (_name, def) => {
    const op = () => doc.paths[def.path][def.method] as Json;

    it('has summary, tag, security and a success response with a schema', () => {
      expect(op().summary).toBe(def.summary);
      expect(op().tags).toEqual([def.tag]);
      // `{}`: the credential is optional (GET /health answers its details to one).
      if (def.auth === 'none') expect(op().security).toEqual(def.optionalCredential ? [{}, { secretKey: [] }, { bearer: [] }] : []);
      else {
        const schemes = (op().security as Json[]).flatMap((s) => Object.keys(s));
        expect(schemes).toEqual(expect.arrayContaining(['secretKey', 'bearer']));
        expect(schemes.includes('publicKey')).toBe(Boolean(def.auth.public));
      }
      const success = resolve(doc, op().responses[String(def.status ?? 200)]);
      // 204 has no body to describe; every other success names its schema.
      if (def.status === 204) expect(success.content).toBeUndefined();
      else expect(resolve(doc, success.content['application/json'].schema)).toEqual(expect.any(Object));
    });

    it('documents its error responses with the Error schema', () => {
      const statuses = Object.keys(op().responses).map(Number);
      const expected = [...(def.errors ?? [])];
      if (def.auth !== 'none') expected.push(401, 403, 429);
      if (def.params) expected.push(400, 404);
      if (def.body && (def.method === 'post' || def.method === 'put')) expected.push(400, 413, 415);
      expect(statuses).toEqual(expect.arrayContaining(expected));
      for (const status of statuses.filter((s) => s >= 400)) {
        const response = resolve(doc, op().responses[String(status)]);
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    });

    it('documents its path parameters, query parameters and request body', () => {
      const params = ((op().parameters ?? []) as Json[]).map((p) => resolve(doc, p));
      for (const [, name] of def.path.matchAll(/\{(\w+)\}/g)) {
        expect(params).toContainEqual(expect.objectContaining({ name, in: 'path', required: true, schema: expect.any(Object) }));
      }
      const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name);
      const shape = (def.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
      if (shape) expect(queryNames.sort()).toEqual(Object.keys(shape).sort());
      // Any method with a body schema documents it (a GET too: the report preview).
      if (def.body) {
        const schema = resolve(doc, op().requestBody.content['application/json'].schema);
        expect(schema).toEqual(expect.any(Object));
        // Required exactly when the body schema refuses `{}` (the pipeline's rule: src/api/route.ts).
        expect(op().requestBody.required).toBe(!def.body.safeParse({}).success);
      } else {
        expect(op().requestBody).toBeUndefined();
      }
    });
  });
});

describe('API reference page', () => {
  it('serves HTML with a self-only Content-Security-Policy', async () => {
    const res = await api('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('loads every asset the page names from this service', async () => {
    const html = (await api('GET', '/docs')).text;
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['docs/swagger-ui.css', 'docs/swagger-ui-bundle.js', 'docs/swagger-initializer.js']));
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const res = await api('GET', `/${asset}`);
      expect([asset, res.status]).toEqual([asset, 200]);
    }
  });

  it('points Swagger UI at our document, not the petstore demo', async () => {
    const res = await api('GET', '/docs/swagger-initializer.js');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.text).toContain("'../openapi.json'");
    expect(res.text).not.toContain('petstore');
  });

  it('redirects /docs/ to /docs so relative asset URLs resolve', async () => {
    const res = await api('GET', '/docs/');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('../docs');
  });
});
