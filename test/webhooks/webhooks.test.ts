// Webhooks over HTTPS (docs/webhooks.md): CRUD and its refusals, write-only credentials, endpoint
// safety (the test service allows 127.0.0.1/32 with OUTBOUND_ALLOW_CIDRS; the other channels and
// the send-time check: test/security/outbound.test.ts), secret rotation, request counts, the
// request log and its filters, createWebhookRequest's contract, tenancy and scopes.
import type { Db, Tx } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { createWebhookRequest, type WebhookRequestInput } from '../../src/domain/webhooks/requests';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
// A name DNS does not answer for passes the write (docs/webhooks.md "Endpoint safety"); nothing here is delivered.
const PUBLIC_URL = 'https://hooks.example.com/hooks/a';
const nowS = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Webhooks A'), createTenant('Webhooks B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

const post = (body: object, key = a.secretKey) => api('POST', '/webhooks', { key, body });
const get = async (id: string, key = a.secretKey) => {
  const res = await api('GET', `/webhooks/${id}`, { key });
  expect(res.status).toBe(200);
  return res.body.content[0];
};
const tx = (t: Tenant) => scopedClient(root, t.organisationId) as unknown as Tx;
const request = (t: Tenant, input: Partial<WebhookRequestInput> & { webhookId: string }) =>
  createWebhookRequest(tx(t), t.organisationId, { type: 'REGISTER_CONTACT', data: { contact: { id: 'x' } }, causeKey: `k:${newId()}`, ...input });

describe('CRUD', () => {
  test('create, read, update, delete; password and api_key are never answered', async () => {
    const created = await post({ name: 'Orders', method: 'POST', url_endpoint: PUBLIC_URL, url_auth: 'USERNAME_PASSWORD', username: 'bo', password: 'pw-secret-1' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), secret_key: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    const { id } = created.body;
    const read = await api('GET', `/webhooks/${id}`, { key: a.secretKey });
    expect(read.body).toEqual({
      content: [{
        id, name: 'Orders', method: 'POST', url_endpoint: PUBLIC_URL, url_auth: 'USERNAME_PASSWORD', username: 'bo', has_password: true, has_api_key: false,
        pending_requests: 0, successful_requests: 0, failed_requests: 0,
        secret_key: created.body.secret_key, secret_key_active_until: null, previous_secret_key_active_until: null,
        created_on: expect.any(Number), updated_on: expect.any(Number),
      }],
    });
    expect(read.text).not.toContain('pw-secret-1');

    // Partial: the name only; then a switch to API_KEY drops the username and password.
    expect((await api('PUT', `/webhooks/${id}`, { key: a.secretKey, body: { name: 'Orders v2' } })).status).toBe(200);
    expect(await get(id)).toMatchObject({ name: 'Orders v2', url_auth: 'USERNAME_PASSWORD', username: 'bo', has_password: true });
    expect((await api('PUT', `/webhooks/${id}`, { key: a.secretKey, body: { url_auth: 'API_KEY', api_key: 'key-secret-2' } })).status).toBe(200);
    const switched = await api('GET', `/webhooks/${id}`, { key: a.secretKey });
    expect(switched.body.content[0]).toMatchObject({ url_auth: 'API_KEY', username: null, has_password: false, has_api_key: true });
    expect(switched.text).not.toContain('key-secret-2');
    const list = await api('GET', `/webhooks?name=orders%20v2`, { key: a.secretKey });
    expect(list.body.content.map((w: { id: string }) => w.id)).toEqual([id]);
    expect(list.body.content[0]).not.toHaveProperty('secret_key');
    expect(list.text).not.toContain('key-secret-2');
    // Back to NO_AUTH: nothing stored.
    await api('PUT', `/webhooks/${id}`, { key: a.secretKey, body: { url_auth: 'NO_AUTH' } });
    expect(await get(id)).toMatchObject({ url_auth: 'NO_AUTH', username: null, has_password: false, has_api_key: false });
    const row = await scopedClient(root, a.organisationId).webhook.findFirst({ where: { id } });
    expect([row!.username, row!.password, row!.apiKey]).toEqual([null, null, null]);

    // secret_key_active_until: set, then cleared.
    const until = nowS() + 3600;
    await api('PUT', `/webhooks/${id}`, { key: a.secretKey, body: { secret_key_active_until: until } });
    expect((await get(id)).secret_key_active_until).toBe(until);
    await api('PUT', `/webhooks/${id}`, { key: a.secretKey, body: { secret_key_active_until: null } });
    expect((await get(id)).secret_key_active_until).toBeNull();

    expect((await api('DELETE', `/webhooks/${id}`, { key: a.secretKey })).body).toEqual({ id });
    expectError(await api('GET', `/webhooks/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
    const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
    expect(audits.map((x) => x.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE', 'DELETE']);
    expect(JSON.stringify(audits)).not.toMatch(/pw-secret-1|key-secret-2|whsec_/);
  });

  test('each rule answers 400 naming its field', async () => {
    const base = { name: 'Bad', method: 'POST', url_endpoint: PUBLIC_URL };
    const cases: Array<[object, string]> = [
      [{ ...base, url_auth: 'USERNAME_PASSWORD', username: 'u' }, 'password'],
      [{ ...base, url_auth: 'USERNAME_PASSWORD', password: 'p' }, 'username'],
      [{ ...base, url_auth: 'API_KEY' }, 'api_key'],
      [{ ...base, url_auth: 'NO_AUTH', username: 'u' }, 'username'],
      [{ ...base, url_auth: 'API_KEY', api_key: 'k', password: 'p' }, 'password'],
      [{ ...base, url_auth: 'USERNAME_PASSWORD', username: 'u', password: 'p', api_key: 'k' }, 'api_key'],
      [{ ...base, method: 'GET' }, 'method'],
      [{ ...base, url_auth: 'BEARER' }, 'url_auth'],
      [{ method: 'POST', url_endpoint: PUBLIC_URL }, 'name'],
      [{ name: 'x', method: 'POST' }, 'url_endpoint'],
      [{ ...base, secret_key_active_until: nowS() - 10 }, 'secret_key_active_until'],
      [{ ...base, password_typo: 'x' }, 'password_typo'],
    ];
    for (const [body, attribute] of cases) {
      const res = await post(body);
      expect([attribute, res.status, res.body.attribute]).toEqual([attribute, 400, attribute]);
    }
    const id = await createId(a.secretKey, '/webhooks', { ...base, url_auth: 'API_KEY', api_key: 'k' });
    const put = (body: object) => api('PUT', `/webhooks/${id}`, { key: a.secretKey, body });
    expectError(await put({ url_auth: 'USERNAME_PASSWORD', username: 'u' }), 400, 'INVALID_REQUEST', 'password');
    expectError(await put({ username: 'u' }), 400, 'INVALID_REQUEST', 'username');
    expectError(await put({ method: 'PUT' }), 400, 'INVALID_REQUEST', 'method');
    expectError(await put({ url_endpoint: 'http://hooks.example.com/' }), 400, 'INVALID_REQUEST', 'url_endpoint');
    expectError(await put({ secret_key_active_until: nowS() }), 400, 'INVALID_REQUEST', 'secret_key_active_until');
    // Nothing changed by the refusals.
    expect(await get(id)).toMatchObject({ url_auth: 'API_KEY', has_api_key: true, url_endpoint: PUBLIC_URL, secret_key_active_until: null });
    expect((await put({ api_key: 'k2' })).status).toBe(200);
  });

  test('url_endpoint: https to a public address only, unless the operator allows the address (OUTBOUND_ALLOW_CIDRS)', async () => {
    const refused = [
      'http://hooks.example.com/hook', // http to an address the operator does not allow
      'http://8.8.8.8/hook',
      'https://127.0.0.2/hook', // loopback, outside the allowed 127.0.0.1/32
      'https://10.1.2.3/hook',
      'https://172.16.5.4/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://192.0.2.10/hook', // documentation
      'https://[fd12::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:8.8.8.8]/hook', // IPv4-mapped, whatever it maps
      'https://user:pw@hooks.example.com/hook',
      'ftp://hooks.example.com/hook',
      'not a url',
      'https:/hooks.example.com/hook', // WHATWG URL would read it as https://hooks.example.com/: the document's pattern does not
      'https://user@hooks.example.com/hook',
    ];
    for (const url of refused) {
      const res = await post({ name: 'U', method: 'POST', url_endpoint: url });
      expect([url, res.status, res.body.attribute]).toEqual([url, 400, 'url_endpoint']);
    }
    expect((await post({ name: 'U', method: 'POST', url_endpoint: 'https://10.1.2.3/hook' })).body.message).toBe(
      'url_endpoint: must be an https URL to a public address; 10.1.2.3 is private (an operator can allow addresses with OUTBOUND_ALLOW_CIDRS)',
    );
    for (const url of ['https://hooks.example.com/hook', 'https://8.8.8.8/hook', 'https://[2001:4860:4860::8888]/hook']) {
      expect([url, (await post({ name: 'U', method: 'PUT', url_endpoint: url })).status]).toEqual([url, 200]);
    }
    // Allowed by the operator: http and https alike (but never another scheme).
    for (const url of ['http://127.0.0.1:9/hook', 'https://127.0.0.1/hook', 'http://[::1]:9/hook']) {
      expect([url, (await post({ name: 'U', method: 'POST', url_endpoint: url })).status]).toEqual([url, 200]);
    }
    expectError(await post({ name: 'U', method: 'POST', url_endpoint: 'ftp://127.0.0.1/' }), 400, 'INVALID_REQUEST', 'url_endpoint');
  });

  test('rotate_secret: a new secret, the old one signing until the given date (24 h by default, at most 30 days)', async () => {
    const created = (await post({ name: 'Rotating', method: 'POST', url_endpoint: PUBLIC_URL })).body;
    const before = nowS();
    const rotated = await api('POST', `/webhooks/${created.id}/rotate_secret`, { key: a.secretKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ id: created.id, secret_key: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret_key).not.toBe(created.secret_key);
    const read = await get(created.id);
    expect(read.secret_key).toBe(rotated.body.secret_key);
    expect(read.previous_secret_key_active_until).toBeGreaterThanOrEqual(before + 86400);
    expect(read.previous_secret_key_active_until).toBeLessThanOrEqual(nowS() + 86400);
    const rotate = (body: object) => api('POST', `/webhooks/${created.id}/rotate_secret`, { key: a.secretKey, body });
    expectError(await rotate({ previous_secret_active_until: nowS() - 1 }), 400, 'INVALID_REQUEST', 'previous_secret_active_until');
    expectError(await rotate({ previous_secret_active_until: nowS() + 31 * 86400 }), 400, 'INVALID_REQUEST', 'previous_secret_active_until');
    const until = nowS() + 600;
    expect((await rotate({ previous_secret_active_until: until })).status).toBe(200);
    expect((await get(created.id)).previous_secret_key_active_until).toBe(until);
    expectError(await api('POST', `/webhooks/${UNKNOWN_ID}/rotate_secret`, { key: a.secretKey }), 404, 'NOT_FOUND');
  });
});

describe('requests', () => {
  test('createWebhookRequest: snapshot and body, one request per cause key, 400 naming webhook_id', async () => {
    const id = await createId(a.secretKey, '/webhooks', { name: 'Snap', method: 'PUT', url_endpoint: PUBLIC_URL, url_auth: 'API_KEY', api_key: 'k' });
    const callId = newId();
    const automation = { id: newId(), name: 'Welcome flow' };
    const entity = { type: 'CONTACT', id: newId(), reference: 'C-1' };
    const createdOn = new Date('2026-01-02T03:04:05Z');
    const first = await request(a, { webhookId: id, causeKey: 'cause-1', callId, automation, entity, createdOn, data: { contact: { id: entity.id } } });
    expect(first.created).toBe(true);
    expect(await request(a, { webhookId: id, causeKey: 'cause-1' })).toEqual({ id: first.id, created: false });
    await expect(request(a, { webhookId: UNKNOWN_ID })).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST', attribute: 'webhook_id' });
    await expect(request(b, { webhookId: id })).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST', attribute: 'webhook_id' });
    const noCall = await request(a, { webhookId: id, type: 'AWARD_CUSTOMER' });

    // The snapshot stays when the webhook changes.
    await api('PUT', `/webhooks/${id}`, { key: a.secretKey, body: { name: 'Snap renamed', url_endpoint: 'https://other.example.com/other', api_key: 'k' } });
    const read = await api('GET', `/webhook_requests/${first.id}`, { key: a.secretKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: first.id, state: 'PENDING', method: 'PUT', url_endpoint: PUBLIC_URL, url_auth: 'API_KEY', type: 'REGISTER_CONTACT',
      body: { id: first.id, type: 'REGISTER_CONTACT', created_on: Math.floor(createdOn.getTime() / 1000), call_id: callId, data: { contact: { id: entity.id } } },
      response: null, response_status: null, retries: 0, failure_reason: null,
      webhook: { id, name: 'Snap' }, automation, entity, call_id: callId,
      created_on: Math.floor(createdOn.getTime() / 1000), completed_on: null, attempts: [],
    });
    expect(Object.keys(read.body.body)).toEqual(['id', 'type', 'created_on', 'call_id', 'data']);
    const second = (await api('GET', `/webhook_requests/${noCall.id}`, { key: a.secretKey })).body;
    expect(second.body).not.toHaveProperty('call_id');
    expect([second.automation, second.entity, second.call_id]).toEqual([null, null, null]);

    // Filters.
    const ids = async (query: string) => {
      const res = await api('GET', `/webhook_requests?${query}`, { key: a.secretKey });
      expect([query, res.status]).toEqual([query, 200]);
      return res.body.content.map((r: { id: string }) => r.id);
    };
    expect(await ids(`webhook_id=${id}&sort=created_on&order=asc`)).toEqual([first.id, noCall.id]);
    expect(await ids(`call_id=${callId}`)).toEqual([first.id]);
    expect(await ids(`automation_id=${automation.id}`)).toEqual([first.id]);
    expect(await ids(`entity_id=${entity.id}`)).toEqual([first.id]);
    expect(await ids(`webhook_id=${id}&created_on_to=${Math.floor(createdOn.getTime() / 1000)}`)).toEqual([first.id]);
    expect(await ids(`webhook_id=${id}&created_on_from=${nowS() - 60}`)).toEqual([noCall.id]);
    expect(await ids(`search_value=SNAP&webhook_id=${id}&state=PENDING&sort=retries`)).toHaveLength(2);
    expect(await ids(`webhook_id=${id}&state=SUCCESS`)).toEqual([]);
    expect(await ids(`url_endpoint=hooks.example.com/hooks&webhook_id=${id}`)).toHaveLength(2);
    expectError(await api('GET', '/webhook_requests?state=DONE', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'state');
    expectError(await api('GET', '/webhook_requests?sort=url', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sort');
    expectError(await api('GET', `/webhook_requests/${UNKNOWN_ID}`, { key: a.secretKey }), 404, 'NOT_FOUND');

    // Deleting the webhook keeps its requests, with its name.
    await api('DELETE', `/webhooks/${id}`, { key: a.secretKey });
    expect((await api('GET', `/webhook_requests/${first.id}`, { key: a.secretKey })).body.webhook).toEqual({ id: null, name: 'Snap' });
  });

  test('the list counts requests by state; filters and sort', async () => {
    const x = await createId(a.secretKey, '/webhooks', { name: 'Count X', method: 'POST', url_endpoint: 'https://x.example.com/x' });
    const y = await createId(a.secretKey, '/webhooks', { name: 'Count Y', method: 'POST', url_endpoint: 'https://y.example.com/y' });
    const made = await Promise.all([x, x, x, x, x, y].map((webhookId) => request(a, { webhookId })));
    const db = scopedClient(root, a.organisationId);
    await db.webhookRequest.updateMany({ where: { id: { in: [made[0].id, made[1].id] } }, data: { state: 'SUCCESS' } });
    await db.webhookRequest.updateMany({ where: { id: made[2].id }, data: { state: 'FAILED' } });
    const list = await api('GET', '/webhooks?search_value=count%20&sort=name&order=asc', { key: a.secretKey });
    expect(list.body.paging).toEqual({ page: 1, size: 20, total: 2 });
    expect(list.body.content.map((w: Record<string, unknown>) => [w.id, w.pending_requests, w.successful_requests, w.failed_requests])).toEqual([
      [x, 2, 2, 1],
      [y, 1, 0, 0],
    ]);
    expect((await get(x))).toMatchObject({ pending_requests: 2, successful_requests: 2, failed_requests: 1 });
    const ids = async (query: string) => (await api('GET', `/webhooks?${query}`, { key: a.secretKey })).body.content.map((w: { id: string }) => w.id);
    expect(await ids('search_value=y.example.com')).toEqual([y]);
    expect(await ids('url_endpoint=X.Example.com/X')).toEqual([x]);
    expect(await ids('name=count&sort=url_endpoint&order=desc')).toEqual([y, x]);
    expect(await ids('name=count&page=2&size=1&sort=name')).toEqual([x]);
    expectError(await api('GET', '/webhooks?sort=secret', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sort');
  });
});

describe('access', () => {
  test("another organisation's webhooks and requests are not found", async () => {
    const id = await createId(a.secretKey, '/webhooks', { name: 'Mine', method: 'POST', url_endpoint: PUBLIC_URL });
    const { id: requestId } = await request(a, { webhookId: id });
    const k = b.secretKey;
    expectError(await api('GET', `/webhooks/${id}`, { key: k }), 404, 'NOT_FOUND');
    expectError(await api('PUT', `/webhooks/${id}`, { key: k, body: { name: 'Theirs' } }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/webhooks/${id}`, { key: k }), 404, 'NOT_FOUND');
    expectError(await api('POST', `/webhooks/${id}/rotate_secret`, { key: k }), 404, 'NOT_FOUND');
    expectError(await api('POST', `/webhooks/${id}/test`, { key: k }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/webhook_requests/${requestId}`, { key: k }), 404, 'NOT_FOUND');
    expect((await api('GET', `/webhook_requests?webhook_id=${id}`, { key: k })).body.content).toEqual([]);
    expect((await api('GET', '/webhooks?name=Mine', { key: k })).body.content).toEqual([]);
    expect((await get(id)).name).toBe('Mine');
  });

  test('webhooks:read reads, webhooks:write writes; other scopes and the public key are refused', async () => {
    const id = await createId(a.secretKey, '/webhooks', { name: 'Scoped', method: 'POST', url_endpoint: PUBLIC_URL });
    const readOnly = await keyWith(a.secretKey, ['webhooks:read']);
    const other = await keyWith(a.secretKey, ['contacts']);
    expect((await api('GET', `/webhooks/${id}`, { key: readOnly })).status).toBe(200);
    expect((await api('GET', '/webhook_requests', { key: readOnly })).status).toBe(200);
    expectError(await post({ name: 'No', method: 'POST', url_endpoint: PUBLIC_URL }, readOnly), 403, 'FORBIDDEN');
    expectError(await api('POST', `/webhooks/${id}/rotate_secret`, { key: readOnly }), 403, 'FORBIDDEN');
    expectError(await api('POST', `/webhooks/${id}/test`, { key: readOnly }), 403, 'FORBIDDEN');
    expectError(await api('DELETE', `/webhooks/${id}`, { key: readOnly }), 403, 'FORBIDDEN');
    for (const key of [other, a.publicKey]) {
      expectError(await api('GET', '/webhooks', { key }), 403, 'FORBIDDEN');
      expectError(await api('GET', `/webhook_requests`, { key }), 403, 'FORBIDDEN');
    }
    expectError(await api('GET', '/webhooks'), 401, 'INVALID_CREDENTIAL');
  });

  test('the signing secret is read only by a credential that may write the webhook: with it, a reader could forge requests', async () => {
    const created = (await post({ name: 'Secret keeper', method: 'POST', url_endpoint: PUBLIC_URL })).body;
    const [reader, writer] = await Promise.all([keyWith(a.secretKey, ['webhooks:read']), keyWith(a.secretKey, ['webhooks:read', 'webhooks:write'])]);
    const asReader = await get(created.id, reader);
    expect(asReader).not.toHaveProperty('secret_key');
    expect(asReader).toMatchObject({ id: created.id, secret_key_active_until: null, previous_secret_key_active_until: null });
    expect(JSON.stringify(asReader)).not.toContain(created.secret_key);
    expect((await get(created.id, writer)).secret_key).toBe(created.secret_key);
  });
});
