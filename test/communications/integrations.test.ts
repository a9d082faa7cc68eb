// Integrations over HTTPS (docs/communications.md "Integrations"): settings per channel and
// provider, write-only secrets, the one shape of reference data, the public key admitted.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Integrations A'), createTenant('Integrations B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

const SMTP = { host: 'smtp.example.com', port: 587, secure: false, username: 'mailer', password: 's3cret', from_address: 'news@example.com', from_name: 'News' };
const HTTP = {
  url: 'https://sms.example.com/send',
  method: 'POST',
  auth: { type: 'BEARER', token: 'tok-123' },
  body_template: '{"to":"{{to}}","text":"{{message}}","from":"{{from}}"}',
  from: 'SHOP',
};

const post = (body: object, key = a.secretKey) => api('POST', '/integrations', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/integrations/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/integrations/${id}`, { key, body });

test('EMAIL/SMTP: create, read without the password, list, partial update keeps the secret, delete; audited', async () => {
  const id = await createId(a.secretKey, '/integrations', { name: 'Mail', code: 'MAIL', channel: 'EMAIL', provider: 'SMTP', settings: SMTP });
  const got = await get(id);
  expect(got.status).toBe(200);
  expect(got.body).toEqual({
    id, code: 'MAIL', name: 'Mail', channel: 'EMAIL', provider: 'SMTP',
    settings: { host: 'smtp.example.com', port: 587, secure: false, username: 'mailer', password_set: true, from_address: 'news@example.com', from_name: 'News' },
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  expect(got.text).not.toContain('s3cret');
  for (const query of ['code=MAIL', 'name=mai', 'channel=EMAIL']) {
    const page = (await api('GET', `/integrations?${query}`, { key: a.secretKey })).body;
    expect([query, page.content.map((i: { id: string }) => i.id)]).toEqual([query, [id]]);
    expect(JSON.stringify(page)).not.toContain('s3cret');
  }
  expect((await api('GET', '/integrations?channel=SMS', { key: a.secretKey })).body.paging.total).toBe(0);

  // Settings without the password keep it (unless what it travels with changes: test/security/rights.test.ts); null clears it.
  const { password: _omit, ...withoutPassword } = SMTP;
  expect((await put(id, { name: 'Mail 2', settings: { ...withoutPassword, from_name: 'News 2' } })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({ name: 'Mail 2', settings: { port: 587, secure: false, from_name: 'News 2', password_set: true } });
  expect((await put(id, { settings: { ...withoutPassword, password: null } })).status).toBe(200);
  expect((await get(id)).body.settings.password_set).toBe(false);

  // To SYSTEM: no settings.
  expect((await put(id, { provider: 'SYSTEM', settings: null })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ provider: 'SYSTEM', settings: null });

  expect((await api('DELETE', `/integrations/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => [e.entityType, e.action])).toEqual([
    ['integration', 'CREATE'], ['integration', 'UPDATE'], ['integration', 'UPDATE'], ['integration', 'UPDATE'], ['integration', 'DELETE'],
  ]);
  expect(JSON.stringify(audits)).not.toContain('s3cret');
});

test('SMS/HTTP: auth secrets write-only and kept for the same auth type; INAPP and SYSTEM without settings', async () => {
  const id = await createId(a.secretKey, '/integrations', { name: 'SMS', code: 'SMS', channel: 'SMS', provider: 'HTTP', settings: HTTP });
  const got = await get(id);
  expect(got.body.settings).toEqual({
    url: HTTP.url, method: 'POST', body_template: HTTP.body_template, content_type: 'application/json', from: 'SHOP',
    auth: { type: 'BEARER', username: null, header_name: null, password_set: false, token_set: true },
  });
  expect(got.text).not.toContain('tok-123');
  expect((await put(id, { settings: { ...HTTP, method: 'PUT', auth: { type: 'BEARER' } } })).status).toBe(200);
  expect((await get(id)).body.settings).toMatchObject({ method: 'PUT', auth: { type: 'BEARER', token_set: true } });
  // Another auth type needs its own secrets.
  expectError(await put(id, { settings: { ...HTTP, auth: { type: 'API_KEY', header_name: 'X-Api-Key' } } }), 400, 'INVALID_REQUEST', 'settings.auth.token');
  // http only to an address the operator allows (the test service: 127.0.0.1; docs/security.md).
  expectError(await put(id, { settings: { ...HTTP, url: 'http://10.0.0.5:8080/sms', auth: { type: 'BASIC', username: 'u', password: 'p' } } }), 400, 'INVALID_REQUEST', 'settings.url');
  expect((await put(id, { settings: { ...HTTP, url: 'http://127.0.0.1:8080/sms', auth: { type: 'BASIC', username: 'u', password: 'p' } } })).status).toBe(200);
  expect((await get(id)).body.settings.auth).toEqual({ type: 'BASIC', username: 'u', header_name: null, password_set: true, token_set: false });

  const inapp = await createId(a.secretKey, '/integrations', { name: 'In app', channel: 'INAPP', provider: 'INAPP' });
  expect((await get(inapp)).body).toMatchObject({ channel: 'INAPP', provider: 'INAPP', code: null, settings: null });
  const system = await createId(a.secretKey, '/integrations', { name: 'System mail', channel: 'EMAIL', provider: 'SYSTEM', settings: {} });
  expect((await get(system)).body).toMatchObject({ provider: 'SYSTEM', settings: null });
});

test('each rule: 400 naming its attribute', async () => {
  const cases: Array<[object, string]> = [
    [{ channel: 'EMAIL', provider: 'SMTP', settings: SMTP }, 'name'],
    [{ name: 'x', channel: 'FAX', provider: 'SMTP' }, 'channel'],
    [{ name: 'x', channel: 'EMAIL', provider: 'HTTP', settings: HTTP }, 'provider'],
    [{ name: 'x', channel: 'SMS', provider: 'SMTP', settings: SMTP }, 'provider'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SMTP' }, 'settings'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SMTP', settings: { ...SMTP, host: '' } }, 'settings.host'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SMTP', settings: { ...SMTP, port: 70000 } }, 'settings.port'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SMTP', settings: { ...SMTP, secure: 'yes' } }, 'settings.secure'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SMTP', settings: { ...SMTP, from_address: 'not-mail' } }, 'settings.from_address'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SMTP', settings: { ...SMTP, extra: 1 } }, 'settings.extra'],
    [{ name: 'x', channel: 'EMAIL', provider: 'SYSTEM', settings: { host: 'a' } }, 'settings'],
    [{ name: 'x', channel: 'SMS', provider: 'HTTP', settings: { ...HTTP, url: 'ftp://sms.example.com' } }, 'settings.url'],
    [{ name: 'x', channel: 'SMS', provider: 'HTTP', settings: { ...HTTP, url: 'not a url' } }, 'settings.url'],
    [{ name: 'x', channel: 'SMS', provider: 'HTTP', settings: { ...HTTP, method: 'GET' } }, 'settings.method'],
    [{ name: 'x', channel: 'SMS', provider: 'HTTP', settings: { ...HTTP, auth: { type: 'BASIC', username: 'u' } } }, 'settings.auth.password'],
    [{ name: 'x', channel: 'SMS', provider: 'HTTP', settings: { ...HTTP, auth: { type: 'API_KEY', token: 't', header_name: 'bad header' } } }, 'settings.auth.header_name'],
    [{ name: 'x', channel: 'SMS', provider: 'HTTP', settings: { ...HTTP, body_template: '{{to}} {{contact.code}}' } }, 'settings.body_template'],
    [{ name: 'x', channel: 'INAPP', provider: 'INAPP', settings: { a: 1 } }, 'settings'],
  ];
  for (const [body, attribute] of cases) {
    const res = await post(body);
    expect([attribute, res.status, res.body.attribute]).toEqual([attribute, 400, attribute]);
  }
  expect((await api('GET', '/integrations?name=x', { key: a.secretKey })).body.paging.total).toBe(0);
  // A body naming its provider is checked before the record is looked up.
  expectError(await put(UNKNOWN_ID, { provider: 'SMTP', settings: { ...SMTP, port: 'x' } }), 400, 'INVALID_REQUEST', 'settings.port');
  // Without the provider, on the merged record.
  const id = await createId(a.secretKey, '/integrations', { name: 'Merged', channel: 'SMS', provider: 'HTTP', settings: HTTP });
  expectError(await put(id, { settings: { ...HTTP, url: 'mailto:x@example.com' } }), 400, 'INVALID_REQUEST', 'settings.url');
  expectError(await put(id, { channel: 'EMAIL' }), 400, 'INVALID_REQUEST', 'provider');
  expectError(await put(id, { channel: 'EMAIL', provider: 'SMTP' }), 400, 'INVALID_REQUEST', 'settings');
  expect((await get(id)).body).toMatchObject({ channel: 'SMS', provider: 'HTTP', settings: { url: HTTP.url } });
});

test('409 ALREADY_EXISTS on a duplicate code; 404 for another organisation', async () => {
  const id = await createId(a.secretKey, '/integrations', { name: 'Dup', code: 'DUP', channel: 'INAPP', provider: 'INAPP' });
  expectError(await post({ name: 'Dup 2', code: 'DUP', channel: 'INAPP', provider: 'INAPP' }), 409, 'ALREADY_EXISTS', 'code');
  const other = await createId(a.secretKey, '/integrations', { name: 'Other', code: 'OTHER', channel: 'INAPP', provider: 'INAPP' });
  expectError(await put(other, { code: 'DUP' }), 409, 'ALREADY_EXISTS', 'code');
  // The same code in another organisation is fine.
  expect((await post({ name: 'Dup', code: 'DUP', channel: 'INAPP', provider: 'INAPP' }, b.secretKey)).status).toBe(200);
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/integrations/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await get(id)).body.name).toBe('Dup');
});
