// Managing users through the API (docs/security.md "A credential grants at most what it holds",
// "A session ends when the user's access does"): create, grants capped at the granter's own, admin
// rights, disable and enable, passwords, sessions, lock-out rules, tenancy.
import { randomInt } from 'node:crypto';
import { expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api, refusedWithin, type ApiResponse } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
const tag = `${process.pid}-${Date.now().toString(36)}`;
let n = 0;
const unique = (what: string) => `${what}-${tag}-${++n}`;
const PASSWORD = 'a long enough secret';
// Refused sign-ins come from an address of their own in 127/8, so the per-address count of
// 127.0.0.1, which every test file shares, is never touched (as test/security/credentials.test.ts).
const loopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(2, 255)}`;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('User admin A'), createTenant('User admin B')]);
});

const login = (username: string, password: string, from = loopback()) => api('POST', '/users/login', { body: { username, password }, localAddress: from });
async function tokens(username: string, password = PASSWORD): Promise<{ access_token: string; refresh_token: string }> {
  const res = await login(username, password);
  expect(res.status).toBe(200);
  return res.body;
}
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

async function createUser(body: object, auth: { key?: string; token?: string } = { key: a.secretKey }): Promise<ApiResponse> {
  return api('POST', '/users', { ...auth, body: { password: PASSWORD, ...body } });
}
async function newUser(body: object = {}, t = a): Promise<{ id: string; username: string }> {
  const username = unique('user');
  const res = await createUser({ username, ...body }, { key: t.secretKey });
  expect([res.status, res.body]).toEqual([200, { id: expect.any(String) }]);
  return { id: res.body.id, username };
}
const put = (id: string, body: object, auth: { key?: string; token?: string } = { key: a.secretKey }) => api('PUT', `/users/${id}`, { ...auth, body });
const getUser = async (id: string, t = a) => (await api('GET', `/users/${id}`, { key: t.secretKey })).body;

test('an admin creates a user who signs in with the scopes given; the password is kept nowhere', async () => {
  const admin = await tokens(a.admin.username, a.admin.password);
  const username = unique('reader');
  const made = await createUser(
    { username, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@shop.test', scopes: ['contacts:read', 'reference_data:read'] },
    { token: admin.access_token },
  );
  expect(made.status).toBe(200);
  expect(made.body).toEqual({ id: expect.any(String) });
  expect(made.text).not.toContain(PASSWORD);

  const user = await getUser(made.body.id);
  expect(user).toMatchObject({
    id: made.body.id, username, name: 'Ada Lovelace', email: 'ada@shop.test',
    is_admin: false, scopes: ['contacts:read', 'reference_data:read'], is_disabled: false, disabled_on: null, created_on: expect.any(Number),
  });
  expect(JSON.stringify(user)).not.toMatch(/password|hash/i);

  const own = await tokens(username);
  expect(claims(own.access_token)).toMatchObject({ sub: made.body.id, scopes: ['contacts:read', 'reference_data:read'], adm: false });
  expect((await api('GET', '/contacts', { token: own.access_token })).status).toBe(200);
  expectError(await api('GET', '/webhooks', { token: own.access_token }), 403, 'FORBIDDEN');
  expectError(await api('POST', '/contacts', { token: own.access_token, body: { contact_type: 'PERSON', first_name: 'No', last_name: 'Write' } }), 403, 'FORBIDDEN');
  const listed = (await api('GET', `/users?username=${username}`, { token: own.access_token })).body.content;
  expect(listed).toEqual([expect.objectContaining({ id: made.body.id, is_admin: false })]);

  // The audit row says who made whom, with what rights, and never the password.
  const db = openDatabase();
  try {
    const rows = await db.auditEntry.findMany({ where: { organisationId: a.organisationId, entityId: made.body.id } });
    expect(rows.map((r) => [r.action, r.actorType, r.actorId])).toEqual([['CREATE', 'user', claims(admin.access_token).sub]]);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    const stored = await db.user.findUniqueOrThrow({ where: { id: made.body.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  } finally {
    await db.$disconnect();
  }
});

test('is_admin and scopes default to a plain user with every scope; an admin user may make admins', async () => {
  const plain = await newUser();
  expect(await getUser(plain.id)).toMatchObject({ is_admin: false, scopes: ['*'] });
  const admin = await tokens(a.admin.username, a.admin.password);
  const res = await createUser({ username: unique('admin'), is_admin: true, scopes: ['users', 'reference_data:read'] }, { token: admin.access_token });
  expect(res.status).toBe(200);
  expect(await getUser(res.body.id)).toMatchObject({ is_admin: true, scopes: ['users', 'reference_data:read'] });
});

test('users who are not admins manage no users, whatever their scopes', async () => {
  const user = await newUser({ scopes: ['users', 'reference_data:read'] });
  const { access_token } = await tokens(user.username);
  expectError(await createUser({ username: unique('nope') }, { token: access_token }), 403, 'FORBIDDEN');
  expectError(await put(user.id, { scopes: ['*'] }, { token: access_token }), 403, 'FORBIDDEN');
  expectError(await api('POST', `/users/${user.id}/revoke_sessions`, { token: access_token }), 403, 'FORBIDDEN');
  const reader = await keyWith(a.secretKey, ['reference_data']);
  expectError(await createUser({ username: unique('nope') }, { key: reader }), 403, 'FORBIDDEN');
});

test('a key without * grants only what it holds, makes no admin, and manages no one who holds more', async () => {
  const key = await keyWith(a.secretKey, ['users:write', 'contacts:read', 'reference_data:read']);
  const before = (await api('GET', '/users?size=100', { key: a.secretKey })).body.paging.total;
  expectError(await createUser({ username: unique('x'), scopes: ['contacts:read'], is_admin: true }, { key }), 403, 'FORBIDDEN', 'is_admin');
  expectError(await createUser({ username: unique('x'), scopes: ['contacts:read', 'contacts'] }, { key }), 403, 'FORBIDDEN', 'scopes.1');
  expectError(await createUser({ username: unique('x'), scopes: ['*'] }, { key }), 403, 'FORBIDDEN', 'scopes.0');
  expectError(await createUser({ username: unique('x') }, { key }), 403, 'FORBIDDEN', 'scopes');
  expect((await api('GET', '/users?size=100', { key: a.secretKey })).body.paging.total).toBe(before);

  const made = await createUser({ username: unique('narrow'), scopes: ['contacts:read'] }, { key });
  expect(made.status).toBe(200);
  expect((await put(made.body.id, { scopes: ['contacts:read', 'reference_data:read'] }, { key })).status).toBe(200);
  expectError(await put(made.body.id, { scopes: ['users'] }, { key }), 403, 'FORBIDDEN', 'scopes.0');
  expectError(await put(made.body.id, { is_admin: true }, { key }), 403, 'FORBIDDEN', 'is_admin');

  // Taking over a wider user would be escalation: their password, rights, state and sessions are not this key's.
  const wide = await newUser();
  expectError(await api('POST', `/users/${wide.id}/reset_password`, { key, body: { password: 'my own choice here' } }), 403, 'FORBIDDEN');
  expectError(await put(wide.id, { scopes: ['contacts:read'] }, { key }), 403, 'FORBIDDEN', 'scopes');
  expectError(await put(wide.id, { is_disabled: true }, { key }), 403, 'FORBIDDEN', 'is_disabled');
  expectError(await api('POST', `/users/${wide.id}/revoke_sessions`, { key }), 403, 'FORBIDDEN');
  expect((await login(wide.username, PASSWORD)).status).toBe(200);
  expect(await getUser(wide.id)).toMatchObject({ scopes: ['*'], is_disabled: false });
  // A key holding * may make admins.
  expect((await createUser({ username: unique('by-star'), is_admin: true })).status).toBe(200);
});

test('a taken username is 409 naming username in its organisation; another organisation may have it (docs/security.md "Usernames")', async () => {
  const user = await newUser();
  expectError(await createUser({ username: user.username }), 409, 'ALREADY_EXISTS', 'username');
  expect((await createUser({ username: user.username, password: 'another password of B' }, { key: b.secretKey })).status).toBe(200);
});

test('a short password is 400 naming password, on create and on reset', async () => {
  expectError(await createUser({ username: unique('weak'), password: 'short' }), 400, 'INVALID_REQUEST', 'password');
  expectError(await createUser({ username: unique('weak'), password: 'x'.repeat(257) }), 400, 'INVALID_REQUEST', 'password');
  expectError(await createUser({ username: 'has space', password: PASSWORD }), 400, 'INVALID_REQUEST', 'username');
  const user = await newUser();
  const res = await api('POST', `/users/${user.id}/reset_password`, { key: a.secretKey, body: { password: 'eleven char' } });
  expectError(res, 400, 'INVALID_REQUEST', 'password');
  expect(res.text).not.toContain('eleven char');
  expect((await login(user.username, PASSWORD)).status).toBe(200);
});

test('disabled: no sign-in, tokens and refresh tokens refused; enabled: signs in again', async () => {
  const user = await newUser();
  const pair = await tokens(user.username);
  expect((await put(user.id, { is_disabled: true })).status).toBe(200);
  expect(await getUser(user.id)).toMatchObject({ is_disabled: true, disabled_on: expect.any(Number) });
  expect(await refusedWithin(pair.access_token)).toBe(401);
  expect((await api('POST', '/users/refresh', { body: { refresh_token: pair.refresh_token } })).status).toBe(401);
  const from = loopback();
  const refused = await login(user.username, PASSWORD, from);
  expect([refused.status, refused.body.message]).toEqual([401, (await login(user.username, 'not the password', from)).body.message]);

  expect((await put(user.id, { is_disabled: false })).status).toBe(200);
  expect(await getUser(user.id)).toMatchObject({ is_disabled: false, disabled_on: null });
  expect((await login(user.username, PASSWORD)).status).toBe(200);
  // Ended sessions stay ended.
  expect((await api('GET', '/users?size=1', { token: pair.access_token })).status).toBe(401);
});

test('reset_password: the old password and its sessions stop working, the new one works', async () => {
  const user = await newUser();
  const pair = await tokens(user.username);
  const res = await api('POST', `/users/${user.id}/reset_password`, { key: a.secretKey, body: { password: 'a brand new passphrase' } });
  expect([res.status, res.body]).toEqual([200, { id: user.id }]);
  expect((await login(user.username, PASSWORD)).status).toBe(401);
  expect((await login(user.username, 'a brand new passphrase')).status).toBe(200);
  expect(await refusedWithin(pair.access_token)).toBe(401);
  expect((await api('POST', '/users/refresh', { body: { refresh_token: pair.refresh_token } })).status).toBe(401);
});

test('revoke_sessions ends every session; the user signs in again', async () => {
  const user = await newUser();
  const [first, second] = [await tokens(user.username), await tokens(user.username)];
  const res = await api('POST', `/users/${user.id}/revoke_sessions`, { key: a.secretKey });
  expect([res.status, res.body]).toEqual([200, { id: user.id }]);
  expect(await refusedWithin(first.access_token)).toBe(401);
  expect(await refusedWithin(second.access_token)).toBe(401);
  expect((await api('POST', '/users/refresh', { body: { refresh_token: second.refresh_token } })).status).toBe(401);
  expect((await api('GET', '/users?size=1', { token: (await tokens(user.username)).access_token })).status).toBe(200);
});

test('a change of scopes or admin rights ends the sessions that carry the old ones', async () => {
  const user = await newUser({ scopes: ['contacts', 'reference_data:read'] });
  const old = await tokens(user.username);
  // The same scopes again change nothing: the session goes on.
  expect((await put(user.id, { scopes: ['reference_data:read', 'contacts'] })).status).toBe(200);
  expect((await api('GET', '/users?size=1', { token: old.access_token })).status).toBe(200);

  expect((await put(user.id, { scopes: ['reference_data:read'] })).status).toBe(200);
  expect(await refusedWithin(old.access_token)).toBe(401);
  expect((await api('POST', '/users/refresh', { body: { refresh_token: old.refresh_token } })).status).toBe(401);
  const fresh = await tokens(user.username);
  expect(claims(fresh.access_token).scopes).toEqual(['reference_data:read']);
  expectError(await api('GET', '/contacts', { token: fresh.access_token }), 403, 'FORBIDDEN');

  expect((await put(user.id, { is_admin: true })).status).toBe(200);
  expect(await refusedWithin(fresh.access_token)).toBe(401);
  expect(claims((await tokens(user.username)).access_token).adm).toBe(true);
});

test('no one locks themselves out, and the organisation keeps an enabled admin', async () => {
  const c = await createTenant('User admin C');
  const [only] = (await api('GET', '/users', { key: c.secretKey })).body.content;
  const me = await tokens(c.admin.username, c.admin.password);
  const auth = { token: me.access_token };
  expectError(await put(only.id, { is_admin: false }, auth), 409, 'SELF_LOCKOUT', 'is_admin');
  expectError(await put(only.id, { is_disabled: true }, auth), 409, 'SELF_LOCKOUT', 'is_disabled');
  expectError(await put(only.id, { scopes: ['contacts'] }, auth), 409, 'SELF_LOCKOUT', 'scopes');
  // A key is nobody's self, but the last enabled admin stays.
  expectError(await put(only.id, { is_admin: false }, { key: c.secretKey }), 409, 'LAST_ADMIN', 'is_admin');
  expectError(await put(only.id, { is_disabled: true }, { key: c.secretKey }), 409, 'LAST_ADMIN', 'is_disabled');
  expect(await getUser(only.id, c)).toMatchObject({ is_admin: true, is_disabled: false });
  // The refusals changed nothing: the admin's session goes on.
  expect((await api('GET', '/users?size=1', auth)).status).toBe(200);

  // With a second admin, either may be demoted; a disabled admin does not count.
  const second = await newUser({ is_admin: true }, c);
  expect((await put(second.id, { is_disabled: true }, { key: c.secretKey })).status).toBe(200);
  expectError(await put(only.id, { is_admin: false }, { key: c.secretKey }), 409, 'LAST_ADMIN', 'is_admin');
  expect((await put(second.id, { is_disabled: false }, auth)).status).toBe(200);
  const theirs = await tokens(second.username);
  expect((await put(only.id, { is_admin: false }, { token: theirs.access_token })).status).toBe(200);
  expect(await getUser(only.id, c)).toMatchObject({ is_admin: false });
  expectError(await put(second.id, { is_admin: false }, { key: c.secretKey }), 409, 'LAST_ADMIN', 'is_admin');
});

test("another organisation's user is 404 everywhere, and stays as it was", async () => {
  const theirs = await newUser({}, b);
  const admin = await tokens(a.admin.username, a.admin.password);
  for (const auth of [{ key: a.secretKey }, { token: admin.access_token }]) {
    expectError(await api('GET', `/users/${theirs.id}`, auth), 404, 'NOT_FOUND');
    expectError(await put(theirs.id, { is_disabled: true }, auth), 404, 'NOT_FOUND');
    expectError(await put(theirs.id, { scopes: ['contacts'] }, auth), 404, 'NOT_FOUND');
    expectError(await api('POST', `/users/${theirs.id}/reset_password`, { ...auth, body: { password: 'taken over by a' } }), 404, 'NOT_FOUND');
    expectError(await api('POST', `/users/${theirs.id}/revoke_sessions`, auth), 404, 'NOT_FOUND');
    expectError(await api('POST', `/users/${UNKNOWN_ID}/revoke_sessions`, auth), 404, 'NOT_FOUND');
  }
  expect(await getUser(theirs.id, b)).toMatchObject({ scopes: ['*'], is_disabled: false });
  expect((await login(theirs.username, PASSWORD)).status).toBe(200);
});
