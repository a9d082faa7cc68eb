// Who may reach the communications reference data: secret keys and users with the
// `communications:read` / `communications:write` scopes, and for integrations (where messages
// go) `integrations:read` / `integrations:write`. The public key reaches only spec 4.7's
// template operations here, never integrations or segments (test/security/privilege.test.ts
// walks the whole document).
import { createId, expectError, keyWith, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;

beforeAll(async () => {
  a = await createTenant('Communications access');
});

const PATHS = ['/integrations', '/segments', '/communication_templates'];
const BODIES: Record<string, object> = {
  '/integrations': { name: 'In app', channel: 'INAPP', provider: 'INAPP' },
  '/segments': { name: 'All', type: 'FILTER', filters: {} },
  '/communication_templates': { name: 'T', contents: [{ language: 'eng', plain_content: 'Hi {{contact.first_name}}' }] },
};

test('a secret key: every operation; the public key: only the templates of spec 4.7', async () => {
  const key = a.secretKey;
  for (const path of PATHS) {
    const id = await createId(key, path, BODIES[path]);
    const templates = path === '/communication_templates';
    const pub = (res: { status: number }) => expect([path, res.status]).toEqual([path, templates ? 200 : 403]);
    pub(await api('GET', `${path}/${id}`, { key: a.publicKey }));
    pub(await api('GET', path, { key: a.publicKey }));
    expect((await api('GET', path, { key })).body.paging.total).toBeGreaterThan(0);
    expectError(await api('PUT', `${path}/${id}`, { key: a.publicKey, body: { name: 'Renamed' } }), 403, 'FORBIDDEN');
    expect((await api('PUT', `${path}/${id}`, { key, body: { name: 'Renamed' } })).status).toBe(200);
    expectError(await api('DELETE', `${path}/${id}`, { key: a.publicKey }), 403, 'FORBIDDEN');
    expect((await api('DELETE', `${path}/${id}`, { key })).status).toBe(200);
  }
  const segment = await createId(key, '/segments', BODIES['/segments']);
  expect((await api('GET', `/segments/${segment}/contacts`, { key })).status).toBe(200);
  expectError(await api('GET', `/segments/${segment}/contacts`, { key: a.publicKey }), 403, 'FORBIDDEN');
});

test('the public key is refused elsewhere (403)', async () => {
  expectError(await api('GET', '/contacts', { key: a.publicKey }), 403, 'FORBIDDEN');
  expectError(await api('GET', '/reward_schemes', { key: a.publicKey }), 403, 'FORBIDDEN');
});

test('no credential, or an unknown one: 401', async () => {
  for (const path of PATHS) {
    expectError(await api('GET', path), 401, 'INVALID_CREDENTIAL');
    expectError(await api('POST', path, { key: 'not-a-key', body: BODIES[path] }), 401, 'INVALID_CREDENTIAL');
  }
});

test('scopes: none → 403; <group>:read reads only; the group writes (integrations: integrations, else communications)', async () => {
  const settingsOnly = await keyWith(a.secretKey, ['settings']);
  for (const path of PATHS) {
    const group = path === '/integrations' ? 'integrations' : 'communications';
    const readOnly = await keyWith(a.secretKey, [`${group}:read`]);
    const full = await keyWith(a.secretKey, [group]);
    expectError(await api('GET', path, { key: settingsOnly }), 403, 'FORBIDDEN');
    expectError(await api('GET', `${path}/${UNKNOWN_ID}`, { key: settingsOnly }), 403, 'FORBIDDEN');
    expectError(await api('POST', path, { key: settingsOnly, body: BODIES[path] }), 403, 'FORBIDDEN');
    expectError(await api('PUT', `${path}/${UNKNOWN_ID}`, { key: settingsOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectError(await api('DELETE', `${path}/${UNKNOWN_ID}`, { key: settingsOnly }), 403, 'FORBIDDEN');
    expect((await api('GET', path, { key: readOnly })).status).toBe(200);
    expectError(await api('POST', path, { key: readOnly, body: BODIES[path] }), 403, 'FORBIDDEN');
    expectError(await api('PUT', `${path}/${UNKNOWN_ID}`, { key: readOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectError(await api('DELETE', `${path}/${UNKNOWN_ID}`, { key: readOnly }), 403, 'FORBIDDEN');
    expect((await createId(full, path, BODIES[path])).length).toBe(36);
  }
  expectError(await api('GET', `/segments/${UNKNOWN_ID}/contacts`, { key: settingsOnly }), 403, 'FORBIDDEN');
});
