// Least privilege (issue 20, docs/security.md "Credentials and scopes"): a credential grants at
// most what it holds, public keys reach spec 4.7 only, and a stored secret never follows a new
// target of its integration or webhook.
import { createId, expectError, keyWith, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

type Json = Record<string, any>;

let a: Tenant;

beforeAll(async () => {
  a = await createTenant('Privilege A');
});

const newKey = (key: string, body: object) => api('POST', '/api_keys', { key, body: { name: 'minted', ...body } });
const keyNames = async () => (await api('GET', '/api_keys?size=100', { key: a.secretKey })).body.content.map((k: Json) => k.name).sort();

describe('a credential grants at most its own scopes', () => {
  test('api_keys:write alone mints no wider key, nor a public key; a refusal creates nothing', async () => {
    const minter = await keyWith(a.secretKey, ['api_keys:write']);
    const before = await keyNames();
    expectError(await newKey(minter, { scopes: ['*'] }), 403, 'FORBIDDEN', 'scopes.0');
    expectError(await newKey(minter, {}), 403, 'FORBIDDEN', 'scopes');
    expectError(await newKey(minter, { scopes: ['api_keys:write', 'contacts:read'] }), 403, 'FORBIDDEN', 'scopes.1');
    expectError(await newKey(minter, { scopes: ['api_keys'] }), 403, 'FORBIDDEN', 'scopes.0');
    expectError(await newKey(minter, { type: 'PUBLIC' }), 403, 'FORBIDDEN', 'type');
    expect(await keyNames()).toEqual(before);
    const same = await newKey(minter, { scopes: ['api_keys:write'] });
    expect([same.status, same.body.scopes]).toEqual([200, ['api_keys:write']]);
  });

  test('a group grants its halves; one half does not grant the group', async () => {
    const group = await keyWith(a.secretKey, ['contacts', 'api_keys:write']);
    for (const scopes of [['contacts:read'], ['contacts:write'], ['contacts']]) expect((await newKey(group, { scopes })).status).toBe(200);
    const half = await keyWith(a.secretKey, ['contacts:read', 'api_keys:write']);
    expectError(await newKey(half, { scopes: ['contacts'] }), 403, 'FORBIDDEN', 'scopes.0');
    expectError(await newKey(half, { scopes: ['contacts:write'] }), 403, 'FORBIDDEN', 'scopes.0');
    expect((await newKey(half, { scopes: ['contacts:read'] })).status).toBe(200);
    const halves = await keyWith(a.secretKey, ['contacts:read', 'contacts:write', 'api_keys:write']);
    expect((await newKey(halves, { scopes: ['contacts'] })).status).toBe(200);
    const comms = await keyWith(a.secretKey, ['communications', 'api_keys:write']);
    expect((await newKey(comms, { type: 'PUBLIC' })).status).toBe(200);
  });

  test('users: admins grant anything, others create no key; only keys and users take scopes', async () => {
    const login = async (username: string, password: string) => (await api('POST', '/users/login', { body: { username, password } })).body.access_token as string;
    const admin = await login(a.admin.username, a.admin.password);
    expect((await api('POST', '/api_keys', { token: admin, body: { name: 'by admin', scopes: ['*'] } })).status).toBe(200);
    const username = `plain-${process.pid}`;
    const user = JSON.parse(await adminCli(['create-user', '--organisation', a.organisationId, '--username', username, '--scopes', 'api_keys:write,users:write']));
    const token = await login(username, user.password);
    expectError(await api('POST', '/api_keys', { token, body: { name: 'by user', scopes: ['api_keys:write'] } }), 403, 'FORBIDDEN');
    // A key with users:write gives users no more than it holds (test/assignments/user-admin.test.ts).
    const userWriter = await keyWith(a.secretKey, ['users:write']);
    expectError(await api('PUT', `/users/${user.id}`, { key: userWriter, body: { scopes: ['*'] } }), 403, 'FORBIDDEN', 'scopes.0');
    expectError(await api('PUT', `/users/${user.id}`, { key: userWriter, body: { is_admin: true } }), 403, 'FORBIDDEN', 'is_admin');
    // Every request body of the document: only the key and user operations name scopes or admin rights.
    const doc = (await api('GET', '/openapi.json')).body as Json;
    const text = (op: Json) => JSON.stringify(resolve(doc, op.requestBody?.content['application/json'].schema ?? {}));
    const setters = operations(doc).filter(({ op }) => /"(scopes|is_admin)"/.test(text(op))).map(({ op }) => op.operationId);
    expect(setters.sort()).toEqual(['createApiKey', 'createUser', 'updateUser']);
  });

  test('the admin command line is the operator: any scopes', async () => {
    const out = JSON.parse(await adminCli(['create-api-key', '--organisation', a.organisationId, '--scopes', '*']));
    expect(out.scopes).toEqual(['*']);
  });
});

/** Spec 4.7, and nothing else, is open to public keys. */
const PUBLIC_OPERATIONS = [
  'POST /communication_plans', 'GET /communication_plans', 'GET /communication_plans/{id}', 'PUT /communication_plans/{id}', 'DELETE /communication_plans/{id}',
  'POST /communication_templates', 'GET /communication_templates', 'GET /communication_templates/{id}',
  'POST /communications', 'GET /communications', 'GET /communications/{id}',
].sort();

function operations(doc: Json): Array<{ name: string; method: string; path: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
    Object.entries(ops as Json).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op: op as Json })),
  );
}

/** Inlines `$ref`s (a recursive schema is inlined once). */
function resolve(doc: Json, value: unknown, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(doc, v, seen));
  if (!value || typeof value !== 'object') return value;
  const ref = (value as Json).$ref;
  if (typeof ref === 'string') {
    return seen.includes(ref) ? {} : resolve(doc, ref.slice(2).split('/').reduce((o: Json, k) => o[k], doc), [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(doc, v, seen)]));
}

describe('public keys reach spec 4.7 only', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = (await api('GET', '/openapi.json')).body;
  });

  test('the document says so: publicKey on exactly the 4.7 operations, scopes declared', () => {
    const withPublic = operations(doc).filter(({ op }) => op.security?.some((s: Json) => 'publicKey' in s));
    expect(withPublic.map((o) => o.name).sort()).toEqual(PUBLIC_OPERATIONS);
    for (const { op } of withPublic) expect(op.security).toContainEqual({ publicKey: [] });
    const schemes = doc.components.securitySchemes;
    const declared: string[] = schemes.secretKey['x-scopes'];
    expect(schemes.bearer['x-scopes']).toEqual(declared);
    for (const { name, op } of operations(doc)) {
      for (const requirement of op.security ?? []) {
        for (const [scheme, roles] of Object.entries(requirement as Record<string, string[]>)) {
          expect(schemes[scheme]).toBeDefined();
          for (const role of roles) expect([name, declared.includes(role), schemes[scheme].description.includes(`\`${role}\``)]).toEqual([name, true, true]);
        }
      }
    }
  });

  test('every other operation of the document answers a public key 403', async () => {
    // Operations open without a credential (`{}` among the alternatives) are not the public key's to be refused.
    const needsCredential = (op: Json) => op.security?.length && !op.security.some((s: Json) => Object.keys(s).length === 0);
    const others = operations(doc).filter(({ name, op }) => needsCredential(op) && !PUBLIC_OPERATIONS.includes(name));
    expect(others.length).toBeGreaterThan(100);
    for (const { name, method, path } of others) {
      const res = await api(method, path.replace(/\{\w+\}/g, UNKNOWN_ID), { key: a.publicKey, body: method === 'GET' ? undefined : {} });
      expect([name, res.status, res.body?.code]).toEqual([name, 403, 'FORBIDDEN']);
    }
  });

  test('the 4.7 operations work with the public key', async () => {
    const key = a.publicKey;
    const contact = await createId(a.secretKey, '/contacts', { contact_type: 'PERSON', first_name: 'Pub', last_name: 'Key' });
    const segment = await createId(a.secretKey, '/segments', { name: 'Pub segment', type: 'STATIC', contact_ids: [contact] });
    const contents = [{ language: 'eng', subject: 'Hello', plain_content: 'Hi' }];
    const plan = await createId(key, '/communication_plans', { name: 'Pub plan', start_date: Math.floor(Date.now() / 1000) - 60, preferred_channel: 'EMAIL', frequency: '0 9 * * 1', segments: [segment], contents });
    const template = await createId(key, '/communication_templates', { name: 'Pub template', contents });
    const message = await createId(key, '/communications', { name: 'Pub message', contact_id: contact, channel: 'INAPP', content: 'hello' });
    const calls: Array<[string, string, object?]> = [
      ['GET', '/communication_plans'], ['GET', `/communication_plans/${plan}`], ['PUT', `/communication_plans/${plan}`, { name: 'Pub plan 2' }],
      ['GET', '/communication_templates'], ['GET', `/communication_templates/${template}`],
      ['GET', '/communications'], ['GET', `/communications/${message}`], ['DELETE', `/communication_plans/${plan}`],
    ];
    for (const [method, path, body] of calls) expect([method, path, (await api(method, path, { key, body })).status]).toEqual([method, path, 200]);
  });
});

describe('a stored secret never follows a new target', () => {
  const SMTP = { host: 'smtp.example.com', port: 587, secure: false, username: 'mailer', password: 'smtp-secret', from_address: 'news@example.com' };
  const { password: _smtpPassword, ...smtpNoPassword } = SMTP;
  const SMS = { url: 'https://sms.example.com/send', method: 'POST', body_template: '{"to":"{{to}}","text":"{{message}}"}' };
  const putIntegration = (id: string, settings: object) => api('PUT', `/integrations/${id}`, { key: a.secretKey, body: { settings } });
  const settingsOf = async (id: string) => (await api('GET', `/integrations/${id}`, { key: a.secretKey })).body.settings;

  test('SMTP: a new host or port needs the password again', async () => {
    const id = await createId(a.secretKey, '/integrations', { name: 'Retarget SMTP', channel: 'EMAIL', provider: 'SMTP', settings: SMTP });
    const refused = await putIntegration(id, { ...smtpNoPassword, host: 'smtp.attacker.example.org' });
    expectError(refused, 400, 'INVALID_REQUEST', 'settings.password');
    expect(refused.body.message).toMatch(/never sent to another target/);
    expectError(await putIntegration(id, { ...smtpNoPassword, port: 2525 }), 400, 'INVALID_REQUEST', 'settings.password');
    expect(await settingsOf(id)).toMatchObject({ host: 'smtp.example.com', port: 587, password_set: true });
    expect((await putIntegration(id, { ...smtpNoPassword, host: 'SMTP.example.com', from_name: 'Same host' })).status).toBe(200);
    expect((await putIntegration(id, { ...SMTP, host: 'smtp2.example.com', password: 'new-secret' })).status).toBe(200);
    expect((await putIntegration(id, { ...smtpNoPassword, password: null })).status).toBe(200);
    expect((await putIntegration(id, { ...smtpNoPassword, host: 'smtp3.example.com' })).status).toBe(200);
    expect(await settingsOf(id)).toMatchObject({ host: 'smtp3.example.com', password_set: false });
  });

  test('HTTP SMS: a new url needs the token or password again', async () => {
    for (const [auth, secret] of [[{ type: 'BEARER', token: 'sms-token' }, 'token'], [{ type: 'BASIC', username: 'u', password: 'sms-pass' }, 'password']] as const) {
      const id = await createId(a.secretKey, '/integrations', { name: `Retarget SMS ${secret}`, channel: 'SMS', provider: 'HTTP', settings: { ...SMS, auth } });
      const { [secret]: _kept, ...authNoSecret } = auth as Json;
      expectError(await putIntegration(id, { ...SMS, url: 'https://sms.attacker.example.org/x', auth: authNoSecret }), 400, 'INVALID_REQUEST', `settings.auth.${secret}`);
      expect((await settingsOf(id)).url).toBe(SMS.url);
      expect((await putIntegration(id, { ...SMS, method: 'PUT', auth: authNoSecret })).status).toBe(200);
      expect((await putIntegration(id, { ...SMS, url: 'https://sms2.example.com/send', auth })).status).toBe(200);
    }
  });

  test('webhooks: a new url_endpoint needs the password or api_key again', async () => {
    const put = (id: string, body: object) => api('PUT', `/webhooks/${id}`, { key: a.secretKey, body });
    const url = 'https://hooks.example.com/in';
    const other = 'https://hooks.attacker.example.org/in';
    for (const [auth, secret] of [[{ url_auth: 'USERNAME_PASSWORD', username: 'u', password: 'hook-pass' }, 'password'], [{ url_auth: 'API_KEY', api_key: 'hook-key' }, 'api_key']] as const) {
      const id = await createId(a.secretKey, '/webhooks', { name: `Retarget ${secret}`, method: 'POST', url_endpoint: url, ...auth });
      expectError(await put(id, { url_endpoint: other }), 400, 'INVALID_REQUEST', secret);
      expect((await api('GET', `/webhooks/${id}`, { key: a.secretKey })).body.content[0].url_endpoint).toBe(url);
      expect((await put(id, { url_endpoint: url, name: 'Same target' })).status).toBe(200);
      expect((await put(id, { url_endpoint: other, [secret]: 'again' })).status).toBe(200);
    }
    const open = await createId(a.secretKey, '/webhooks', { name: 'No auth', method: 'POST', url_endpoint: url });
    expect((await put(open, { url_endpoint: other })).status).toBe(200);
  });
});
