// A user's e-mail and names through the API (PUT /users/{id}) and the admin command line: where
// reports are mailed (docs/reports.md "Recipient").
import { expectError, keyWith, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
const tag = `${process.pid}-${Date.now().toString(36)}`;

async function cliUser(t: Tenant, username: string, ...extra: string[]): Promise<{ id: string; email: string | null; password: string }> {
  return JSON.parse(await adminCli(['create-user', '--organisation', t.organisationId, '--username', username, ...extra]));
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Users A'), createTenant('Users B')]);
});

test('the admin command line sets an e-mail address at creation, and refuses a malformed one', async () => {
  const made = await cliUser(a, `mailed-${tag}`, '--email', 'mailed@shop.test');
  expect(made.email).toBe('mailed@shop.test');
  expect((await api('GET', `/users/${made.id}`, { key: a.secretKey })).body).toMatchObject({ email: 'mailed@shop.test' });
  await expect(cliUser(a, `bad-${tag}`, '--email', 'not an address')).rejects.toThrow(/--email must be an e-mail address/);
});

test('PUT /users/{id}: partial, null clears, audited fields only; bad input names the field; other tenants get 404', async () => {
  const user = await cliUser(a, `ops-${tag}`);
  const put = (body: object, key = a.secretKey, id = user.id) => api('PUT', `/users/${id}`, { key, body });
  expect((await put({ email: 'ops@shop.test', first_name: 'Grace' })).body).toEqual({ id: user.id });
  expect((await api('GET', `/users/${user.id}`, { key: a.secretKey })).body).toMatchObject({ email: 'ops@shop.test', first_name: 'Grace', last_name: null });
  expect((await put({ last_name: 'Hopper' })).status).toBe(200);
  expect((await api('GET', `/users/${user.id}`, { key: a.secretKey })).body).toMatchObject({ email: 'ops@shop.test', name: 'Grace Hopper' });
  expect((await put({ email: null })).status).toBe(200);
  expect((await api('GET', `/users/${user.id}`, { key: a.secretKey })).body).toMatchObject({ email: null, first_name: 'Grace' });

  expectError(await put({ email: 'nope' }), 400, 'INVALID_REQUEST', 'email');
  expectError(await put({ password: 'x'.repeat(20) }), 400, 'INVALID_REQUEST', 'password');
  expectError(await put({ email: 'x@shop.test' }, a.secretKey, UNKNOWN_ID), 404, 'NOT_FOUND');
  expectError(await put({ email: 'x@shop.test' }, b.secretKey), 404, 'NOT_FOUND');
  expect((await api('GET', `/users/${user.id}`, { key: a.secretKey })).body.email).toBeNull();
});

test('scopes: users:write for keys, and admin users only', async () => {
  const user = await cliUser(a, `plain-${tag}`, '--scopes', 'contacts:read');
  const reader = await keyWith(a.secretKey, ['reference_data']);
  expectError(await api('PUT', `/users/${user.id}`, { key: reader, body: { email: 'x@shop.test' } }), 403, 'FORBIDDEN');
  // The e-mail address takes the user's rights too (test/security/rights.test.ts).
  const writer = await keyWith(a.secretKey, ['users:write', 'contacts:read']);
  expect((await api('PUT', `/users/${user.id}`, { key: writer, body: { email: 'w@shop.test' } })).status).toBe(200);

  // A user who is not an admin may not edit users, even their own profile.
  const login = await api('POST', '/users/login', { body: { username: `plain-${tag}`, password: user.password } });
  expect(login.status).toBe(200);
  expectError(await api('PUT', `/users/${user.id}`, { token: login.body.access_token, body: { email: 'me@shop.test' } }), 403, 'FORBIDDEN');
  expect((await api('GET', `/users/${user.id}`, { key: a.secretKey })).body.email).toBe('w@shop.test');
});
