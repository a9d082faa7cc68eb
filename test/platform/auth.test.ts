import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

async function newKey(tenant: Tenant, body: Record<string, unknown> = {}) {
  const res = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'test key', ...body } });
  expect(res.status).toBe(200);
  return res.body as { id: string; key: string };
}

describe('API keys', () => {
  it('refuses a request without a credential, or with an unknown one', async () => {
    expect((await api('GET', '/api_keys')).status).toBe(401);
    const wrong = await api('GET', '/api_keys', { key: 'sk_not-a-real-key' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIAL');
  });

  it('shows a key once, lists it without its secret, and refuses it after revocation', async () => {
    const created = await newKey(a);
    expect(created.key).toMatch(/^sk_/);
    const list = await api('GET', '/api_keys?size=100', { key: created.key });
    expect(list.status).toBe(200);
    const item = list.body.content.find((k: { id: string }) => k.id === created.id);
    expect(item).toMatchObject({ type: 'SECRET', prefix: created.key.slice(0, 10), revoked_on: null });
    expect(JSON.stringify(list.body)).not.toContain(created.key);

    expect((await api('DELETE', `/api_keys/${created.id}`, { key: a.secretKey })).status).toBe(200);
    const refused = await api('GET', '/api_keys', { key: created.key });
    expect(refused.status).toBe(401);
  });

  it('refuses an expired key', async () => {
    // Epoch seconds: +2 leaves at least one whole second of validity.
    const created = await newKey(a, { expires_on: Math.floor(Date.now() / 1000) + 2 });
    expect((await api('GET', '/api_keys', { key: created.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3100));
    expect((await api('GET', '/api_keys', { key: created.key })).status).toBe(401);
  });

  it('answers 403 when the key lacks the scope, and accepts 32-hex ids', async () => {
    const limited = await newKey(a, { scopes: ['contacts'] });
    const res = await api('GET', '/api_keys', { key: limited.key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    const readOnly = await newKey(a, { scopes: ['api_keys:read'] });
    expect((await api('GET', '/api_keys', { key: readOnly.key })).status).toBe(200);
    expect((await api('DELETE', `/api_keys/${limited.id.replace(/-/g, '').toUpperCase()}`, { key: readOnly.key })).status).toBe(403);
    expect((await api('DELETE', `/api_keys/${limited.id.replace(/-/g, '').toUpperCase()}`, { key: a.secretKey })).status).toBe(200);
  });

  it('refuses public keys outside the communication operations', async () => {
    const res = await api('GET', '/api_keys', { key: a.publicKey });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/public/i);
  });

  it('keeps organisations apart: another organisation\'s key id is not found', async () => {
    const created = await newKey(a);
    const res = await api('DELETE', `/api_keys/${created.id}`, { key: b.secretKey });
    expect(res.status).toBe(404);
    const listB = await api('GET', '/api_keys?size=100', { key: b.secretKey });
    expect(listB.body.content.map((k: { id: string }) => k.id)).not.toContain(created.id);
    expect((await api('GET', '/api_keys', { key: created.key })).status).toBe(200);
  });
});

describe('users and tokens', () => {
  async function login(username: string, password: string) {
    return api('POST', '/users/login', { body: { username, password } });
  }

  it('logs in, accepts the token with and without Bearer, and rejects a tampered one', async () => {
    const res = await login(a.admin.username, a.admin.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: expect.any(Number) });
    const token: string = res.body.access_token;
    expect((await api('GET', '/api_keys', { token })).status).toBe(200);
    expect((await api('GET', '/api_keys', { headers: { authorization: token } })).status).toBe(200);
    // Change the signature's second-to-last character (the last one carries padding bits), always to a different one.
    const at = token.length - 2;
    const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    expect(tampered).not.toBe(token);
    expect((await api('GET', '/api_keys', { token: tampered })).status).toBe(401);
  });

  it('tells a caller who sent a credential in the other header where it goes', async () => {
    for (const key of [a.secretKey, a.publicKey]) {
      for (const authorization of [`Bearer ${key}`, key]) {
        const res = await api('GET', '/api_keys', { headers: { authorization } });
        expect([res.status, res.body.code]).toEqual([401, 'INVALID_CREDENTIAL']);
        expect(res.body.message).toMatch(/API keys go in the api_key header/);
      }
    }
    const token: string = (await login(a.admin.username, a.admin.password)).body.access_token;
    const res = await api('GET', '/api_keys', { key: token });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/Authorization: Bearer/);
    // An unknown value in either header keeps the plain answer.
    expect((await api('GET', '/api_keys', { token: 'not-a-token' })).body.message).toBe('The API key or token is invalid');
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    const wrong = await login(a.admin.username, 'not-the-password');
    const unknown = await login('nobody-here', 'whatever');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect((await api('POST', '/users/login', { body: { username: a.admin.username } })).body.attribute).toBe('password');
  });

  it('rotates refresh tokens and treats reuse as theft', async () => {
    const first = (await login(a.admin.username, a.admin.password)).body;
    const second = await api('POST', '/users/refresh', { body: { refresh_token: first.refresh_token } });
    expect(second.status).toBe(200);
    expect((await api('GET', '/api_keys', { token: second.body.access_token })).status).toBe(200);
    const reused = await api('POST', '/users/refresh', { body: { refresh_token: first.refresh_token } });
    expect(reused.status).toBe(401);
    const afterTheft = await api('POST', '/users/refresh', { body: { refresh_token: second.body.refresh_token } });
    expect(afterTheft.status).toBe(401);
  });

  it('lets only admin users manage keys', async () => {
    const username = `clerk-${Date.now()}`;
    const user = JSON.parse(await adminCli(['create-user', '--organisation', a.organisationId, '--username', username]));
    const token = (await login(username, user.password)).body.access_token;
    const res = await api('GET', '/api_keys', { token });
    expect(res.status).toBe(403);
  });
});
