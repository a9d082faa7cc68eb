// GET /users/me and POST /users/logout over HTTPS (docs/security.md "Who is asking", "Log out"):
// any valid credential learns who it is, and a logout ends exactly one refresh token.
import { keyWith } from '../money/helpers';
import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Who am I A'), createTenant('Who am I B')]);
});

const login = async (username: string, password: string) => {
  const res = await api('POST', '/users/login', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
};
const refresh = (refresh_token: string) => api('POST', '/users/refresh', { body: { refresh_token } });
const logout = (refresh_token: string) => api('POST', '/users/logout', { body: { refresh_token } });

describe('GET /users/me', () => {
  it('answers a user token with the user, the token\'s scopes and the organisation by name', async () => {
    const username = `me-${Date.now()}`;
    const made = JSON.parse(await adminCli(['create-user', '--organisation', a.organisationId, '--username', username, '--email', 'me@shop.test', '--scopes', 'automations,contacts:read']));
    const { access_token } = await login(username, made.password);
    const res = await api('GET', '/users/me', { token: access_token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      credential_type: 'USER', id: made.id, username, first_name: null, last_name: null, email: 'me@shop.test',
      is_admin: false, scopes: ['automations', 'contacts:read'], organisation: { id: a.organisationId, name: 'Who am I A' },
    });
    // Names set later show at once; the token needs no scope for itself (it has no users scope).
    await api('PUT', `/users/${res.body.id}`, { key: a.secretKey, body: { first_name: 'Ada', last_name: 'Lovelace' } });
    expect((await api('GET', '/users/me', { token: access_token })).body).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });

    const admin = await login(a.admin.username, a.admin.password);
    expect((await api('GET', '/users/me', { token: admin.access_token })).body).toMatchObject({
      credential_type: 'USER', username: a.admin.username, is_admin: true, scopes: ['*'], organisation: { id: a.organisationId },
    });
  });

  it('answers an API key, secret or public, with the key and its scopes', async () => {
    const limited = await api('POST', '/api_keys', { key: a.secretKey, body: { name: 'Shop till', scopes: ['purchases'], expires_on: 4102444800 } });
    const res = await api('GET', '/users/me', { key: limited.body.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      credential_type: 'API_KEY',
      api_key: { id: limited.body.id, name: 'Shop till', type: 'SECRET', prefix: limited.body.prefix, expires_on: 4102444800 },
      scopes: ['purchases'], organisation: { id: a.organisationId, name: 'Who am I A' },
    });
    const pub = await api('GET', '/users/me', { key: a.publicKey });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ credential_type: 'API_KEY', api_key: { type: 'PUBLIC', expires_on: null }, organisation: { id: a.organisationId } });
    expect((await api('GET', '/users/me', { key: b.secretKey })).body.organisation).toEqual({ id: b.organisationId, name: 'Who am I B' });
  });

  it('refuses no credential, an unknown or revoked one, and unknown query parameters', async () => {
    for (const res of [await api('GET', '/users/me'), await api('GET', '/users/me', { key: 'sk_not-a-real-key' }), await api('GET', '/users/me', { token: 'eyJx.eyJ.y' })]) {
      expect([res.status, res.body.code]).toEqual([401, 'INVALID_CREDENTIAL']);
    }
    const key = await keyWith(a.secretKey, ['contacts']);
    const id = (await api('GET', '/users/me', { key })).body.api_key.id;
    expect((await api('DELETE', `/api_keys/${id}`, { key: a.secretKey })).status).toBe(200);
    expect((await api('GET', '/users/me', { key })).status).toBe(401);
    const res = await api('GET', '/users/me?who=me', { key: a.secretKey });
    expect([res.status, res.body.attribute]).toEqual([400, 'who']);
  });
});

describe('POST /users/logout', () => {
  it('revokes that refresh token only: 204, and the other sessions go on', async () => {
    const one = await login(a.admin.username, a.admin.password);
    const two = await login(a.admin.username, a.admin.password);
    const res = await logout(one.refresh_token);
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await refresh(one.refresh_token)).status).toBe(401);
    // Not taken as theft: the other session still refreshes, and the access token still works until it expires.
    expect((await refresh(two.refresh_token)).status).toBe(200);
    expect((await api('GET', '/users/me', { token: one.access_token })).status).toBe(200);
  });

  it('is harmless, and says the same, for a used, unknown or already revoked token', async () => {
    const first = await login(a.admin.username, a.admin.password);
    const next = (await refresh(first.refresh_token)).body;
    for (const token of [first.refresh_token, 'rt_never-issued', next.refresh_token, next.refresh_token]) {
      const res = await logout(token);
      expect([res.status, res.text]).toEqual([204, '']);
    }
    // The used one was not "presented again" at refresh: no theft alarm went off for the user.
    const other = await login(a.admin.username, a.admin.password);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it('needs the token in the body and nothing else', async () => {
    for (const [body, attribute] of [[undefined, 'body'], [{}, 'refresh_token'], [{ refresh_token: '' }, 'refresh_token'], [{ refresh_token: 'x', all: true }, 'all']] as const) {
      const res = await api('POST', '/users/logout', { body });
      expect([res.status, res.body.attribute]).toEqual([400, attribute]);
    }
  });
});
