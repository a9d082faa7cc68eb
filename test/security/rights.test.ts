// Rights follow what a change reaches (issue 31 item 3, docs/security.md "Credentials and
// scopes"): each finding of the audit, replayed. Who decides where mail goes holds `integrations`;
// who changes where a user's reports go, or revokes a key, holds that user's or key's rights; and
// a field that decides where or how a stored secret travels needs the secret again.
import { createId, expectError, keyWith } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

type Json = Record<string, any>;

let a: Tenant;

beforeAll(async () => {
  a = await createTenant('Rights A');
});

const SMTP = { host: 'smtp.example.com', port: 465, secure: true, username: 'mailer', password: 'smtp-secret', from_address: 'news@example.com' };
const { password: _password, ...smtpNoPassword } = SMTP;
const smtpIntegration = (name: string, key = a.secretKey) => createId(key, '/integrations', { name, channel: 'EMAIL', provider: 'SMTP', settings: SMTP });

test('communications alone neither creates nor retargets an integration: that is integrations:write', async () => {
  const comms = await keyWith(a.secretKey, ['communications']);
  const commsWrite = await keyWith(a.secretKey, ['communications:write']);
  const relay = { ...SMTP, host: 'smtp.attacker.example.org', password: 'mine' };
  const id = await smtpIntegration('Organisation mail');
  for (const key of [comms, commsWrite]) {
    expectError(await api('POST', '/integrations', { key, body: { name: 'Relay', channel: 'EMAIL', provider: 'SMTP', settings: relay } }), 403, 'FORBIDDEN');
    expectError(await api('PUT', `/integrations/${id}`, { key, body: { settings: relay } }), 403, 'FORBIDDEN');
    expectError(await api('DELETE', `/integrations/${id}`, { key }), 403, 'FORBIDDEN');
  }
  expectError(await api('GET', `/integrations/${id}`, { key: comms }), 403, 'FORBIDDEN');
  expect((await api('GET', `/integrations/${id}`, { key: a.secretKey })).body.settings.host).toBe(SMTP.host);

  const reader = await keyWith(a.secretKey, ['integrations:read']);
  expect((await api('GET', `/integrations/${id}`, { key: reader })).status).toBe(200);
  expectError(await api('PUT', `/integrations/${id}`, { key: reader, body: { name: 'x' } }), 403, 'FORBIDDEN');
  const writer = await keyWith(a.secretKey, ['integrations']);
  expect((await api('PUT', `/integrations/${id}`, { key: writer, body: { settings: relay } })).status).toBe(200);
  expect((await createId(writer, '/integrations', { name: 'In app', channel: 'INAPP', provider: 'INAPP' })).length).toBe(36);
  // The document says which scope the operations need.
  const doc = (await api('GET', '/openapi.json')).body as Json;
  expect(doc.paths['/integrations'].post.security).toContainEqual({ secretKey: ['integrations:write'] });
  expect(doc.paths['/integrations/{id}'].get.security).toContainEqual({ secretKey: ['integrations:read'] });
});

describe("a user's e-mail address is changed only by a credential holding that user's rights", () => {
  const userId = async (username: string) => (await api('GET', `/users?username=${encodeURIComponent(username)}`, { key: a.secretKey })).body.content[0].id as string;
  const emailOf = async (id: string) => (await api('GET', `/users/${id}`, { key: a.secretKey })).body.email;

  test("users:write alone does not redirect an admin's reports", async () => {
    const admin = await userId(a.admin.username);
    const before = await emailOf(admin);
    const userWriter = await keyWith(a.secretKey, ['users:write']);
    expectError(await api('PUT', `/users/${admin}`, { key: userWriter, body: { email: 'attacker@example.org' } }), 403, 'FORBIDDEN', 'email');
    expectError(await api('PUT', `/users/${admin}`, { key: userWriter, body: { email: null } }), 403, 'FORBIDDEN', 'email');
    expect(await emailOf(admin)).toBe(before);
    // Names are not where anything goes.
    expect((await api('PUT', `/users/${admin}`, { key: userWriter, body: { first_name: 'Renamed' } })).status).toBe(200);
  });

  test('a credential holding the user rights changes it', async () => {
    const created = await api('POST', '/users', { key: a.secretKey, body: { username: `reader-${process.pid}`, password: 'correct horse battery', scopes: ['contacts:read'] } });
    expect(created.status).toBe(200);
    const narrow = await keyWith(a.secretKey, ['users:write']);
    expectError(await api('PUT', `/users/${created.body.id}`, { key: narrow, body: { email: 'x@example.org' } }), 403, 'FORBIDDEN', 'email');
    const holder = await keyWith(a.secretKey, ['users:write', 'contacts:read']);
    expect((await api('PUT', `/users/${created.body.id}`, { key: holder, body: { email: 'reader@example.org' } })).status).toBe(200);
    expect(await emailOf(created.body.id)).toBe('reader@example.org');
  });
});

describe("revoking a key needs at least that key's rights", () => {
  const keys = async () => (await api('GET', '/api_keys?size=100', { key: a.secretKey })).body.content as Json[];
  const idOf = async (prefix: string) => (await keys()).find((k) => prefix.startsWith(k.prefix))!.id as string;

  test("api_keys:write alone does not revoke the organisation's * key", async () => {
    const revoker = await keyWith(a.secretKey, ['api_keys:write']);
    const star = await idOf(a.secretKey);
    const refused = await api('DELETE', `/api_keys/${star}`, { key: revoker });
    expectError(refused, 403, 'FORBIDDEN');
    expect(refused.body.message).toMatch(/holds rights this credential does not/);
    expect((await api('GET', '/api_keys', { key: a.secretKey })).status).toBe(200);
    expect((await keys()).find((k) => k.id === star)!.revoked_on).toBeNull();
    const publicKey = await idOf(a.publicKey);
    expectError(await api('DELETE', `/api_keys/${publicKey}`, { key: revoker }), 403, 'FORBIDDEN');
  });

  test('a key within the caller rights is revoked; admins revoke any', async () => {
    const revoker = await keyWith(a.secretKey, ['api_keys:write', 'contacts']);
    const narrow = await keyWith(a.secretKey, ['contacts:read']);
    expect((await api('DELETE', `/api_keys/${await idOf(narrow)}`, { key: revoker })).status).toBe(200);
    expectError(await api('GET', '/contacts', { key: narrow }), 401, 'INVALID_CREDENTIAL');
    const wide = await keyWith(a.secretKey, ['*']);
    expectError(await api('DELETE', `/api_keys/${await idOf(wide)}`, { key: revoker }), 403, 'FORBIDDEN');
    const token = (await api('POST', '/users/login', { body: a.admin })).body.access_token as string;
    expect((await api('DELETE', `/api_keys/${await idOf(wide)}`, { token })).status).toBe(200);
  });
});

describe('a field that decides how a stored secret travels needs the secret again', () => {
  const put = (path: string, body: object) => api('PUT', path, { key: a.secretKey, body });

  test('SMTP: secure true → false (or a new username) needs the password', async () => {
    const id = await smtpIntegration('Secure mail');
    const refused = await put(`/integrations/${id}`, { settings: { ...smtpNoPassword, secure: false } });
    expectError(refused, 400, 'INVALID_REQUEST', 'settings.password');
    expect(refused.body.message).toMatch(/secure/);
    expectError(await put(`/integrations/${id}`, { settings: { ...smtpNoPassword, secure: 'false' } }), 400, 'INVALID_REQUEST', 'settings.password');
    expectError(await put(`/integrations/${id}`, { settings: { ...smtpNoPassword, username: 'other' } }), 400, 'INVALID_REQUEST', 'settings.password');
    expect((await api('GET', `/integrations/${id}`, { key: a.secretKey })).body.settings).toMatchObject({ secure: true, password_set: true });
    expect((await put(`/integrations/${id}`, { settings: { ...smtpNoPassword, secure: 'true', from_name: 'Same' } })).status).toBe(200);
    expect((await put(`/integrations/${id}`, { settings: { ...SMTP, secure: false } })).status).toBe(200);
  });

  test('HTTP SMS: a new auth header_name (or username) needs the token (password)', async () => {
    const SMS = { url: 'https://sms.example.com/send', method: 'POST', body_template: '{"to":"{{to}}","text":"{{message}}"}' };
    const keyed = await createId(a.secretKey, '/integrations', { name: 'SMS key', channel: 'SMS', provider: 'HTTP', settings: { ...SMS, auth: { type: 'API_KEY', header_name: 'X-Api-Key', token: 'sms-token' } } });
    const refused = await put(`/integrations/${keyed}`, { settings: { ...SMS, auth: { type: 'API_KEY', header_name: 'X-Logged-Everywhere' } } });
    expectError(refused, 400, 'INVALID_REQUEST', 'settings.auth.token');
    expect(refused.body.message).toMatch(/header_name/);
    expect((await api('GET', `/integrations/${keyed}`, { key: a.secretKey })).body.settings.auth.header_name).toBe('X-Api-Key');
    expect((await put(`/integrations/${keyed}`, { settings: { ...SMS, method: 'PUT', auth: { type: 'API_KEY', header_name: 'X-Api-Key' } } })).status).toBe(200);
    expect((await put(`/integrations/${keyed}`, { settings: { ...SMS, auth: { type: 'API_KEY', header_name: 'X-Other', token: 'again' } } })).status).toBe(200);

    const basic = await createId(a.secretKey, '/integrations', { name: 'SMS basic', channel: 'SMS', provider: 'HTTP', settings: { ...SMS, auth: { type: 'BASIC', username: 'u', password: 'sms-pass' } } });
    expectError(await put(`/integrations/${basic}`, { settings: { ...SMS, auth: { type: 'BASIC', username: 'someone-else' } } }), 400, 'INVALID_REQUEST', 'settings.auth.password');
  });

  test('webhooks: a new username needs the password', async () => {
    const id = await createId(a.secretKey, '/webhooks', { name: 'Hook', method: 'POST', url_endpoint: 'https://hooks.example.com/in', url_auth: 'USERNAME_PASSWORD', username: 'u', password: 'hook-pass' });
    const refused = await put(`/webhooks/${id}`, { username: 'someone-else' });
    expectError(refused, 400, 'INVALID_REQUEST', 'password');
    expect(refused.body.message).toMatch(/username/);
    expect((await put(`/webhooks/${id}`, { username: 'u', name: 'Same user' })).status).toBe(200);
    expect((await put(`/webhooks/${id}`, { username: 'someone-else', password: 'again' })).status).toBe(200);
  });
});
