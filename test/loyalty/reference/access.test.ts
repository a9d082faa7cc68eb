// Purchase classifications (the generic reference list) and who may reach the loyalty
// reference data: `reference_data:read` to read, `reference_data:write` to write.
import { createId, expectError, keyWith, UNKNOWN_ID } from '../../money/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Loyalty access A'), createTenant('Loyalty access B')]);
});

const PATHS = ['/reward_schemes', '/reward_tiers', '/reward_offers', '/voucher_types', '/purchase_classifications'];

describe('/purchase_classifications', () => {
  test('create, get, list, partial update, delete; code unique; 404 across organisations', async () => {
    const key = a.secretKey;
    const id = await createId(key, '/purchase_classifications', { code: 'RETAIL', name: 'Retail', description: 'Shop sales' });
    expect((await api('GET', `/purchase_classifications/${id}`, { key })).body).toEqual({
      id, code: 'RETAIL', name: 'Retail', description: 'Shop sales', created_on: expect.any(Number), updated_on: expect.any(Number),
    });
    expect((await api('PUT', `/purchase_classifications/${id}`, { key, body: { name: 'Retail sales', description: null } })).body).toEqual({ id });
    const page = (await api('GET', '/purchase_classifications?search_value=retail', { key })).body;
    expect(page.content.map((c: { name: string; description: string | null }) => [c.name, c.description])).toEqual([['Retail sales', null]]);
    expectError(await api('POST', '/purchase_classifications', { key, body: { code: 'RETAIL', name: 'Again' } }), 409, 'ALREADY_EXISTS', 'code');
    expectError(await api('POST', '/purchase_classifications', { key, body: { code: 'X' } }), 400, 'INVALID_REQUEST', 'name');
    for (const target of [id, UNKNOWN_ID]) {
      expectError(await api('GET', `/purchase_classifications/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
      expectError(await api('PUT', `/purchase_classifications/${target}`, { key: b.secretKey, body: { name: 'hijack' } }), 404, 'NOT_FOUND');
      expectError(await api('DELETE', `/purchase_classifications/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    }
    expect((await api('DELETE', `/purchase_classifications/${id}`, { key })).body).toEqual({ id });
    expectError(await api('GET', `/purchase_classifications/${id}`, { key }), 404, 'NOT_FOUND');
  });
});

describe('credentials and scopes', () => {
  test('no credential, or an unknown one: 401', async () => {
    for (const path of PATHS) {
      expectError(await api('GET', path), 401, 'INVALID_CREDENTIAL');
      expectError(await api('POST', path, { key: 'not-a-key', body: { name: 'x' } }), 401, 'INVALID_CREDENTIAL');
    }
  });

  test('a key without reference_data: 403 on every operation; reference_data:read reads but does not write', async () => {
    const settingsOnly = await keyWith(a.secretKey, ['settings']);
    const readOnly = await keyWith(a.secretKey, ['reference_data:read']);
    const full = await keyWith(a.secretKey, ['reference_data']);
    for (const path of PATHS) {
      expectError(await api('GET', path, { key: settingsOnly }), 403, 'FORBIDDEN');
      expectError(await api('GET', `${path}/${UNKNOWN_ID}`, { key: settingsOnly }), 403, 'FORBIDDEN');
      expectError(await api('POST', path, { key: settingsOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
      expectError(await api('PUT', `${path}/${UNKNOWN_ID}`, { key: settingsOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
      expectError(await api('DELETE', `${path}/${UNKNOWN_ID}`, { key: settingsOnly }), 403, 'FORBIDDEN');
      expect((await api('GET', path, { key: readOnly })).status).toBe(200);
      expectError(await api('POST', path, { key: readOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
      expectError(await api('PUT', `${path}/${UNKNOWN_ID}`, { key: readOnly, body: { name: 'x' } }), 403, 'FORBIDDEN');
      expectError(await api('DELETE', `${path}/${UNKNOWN_ID}`, { key: readOnly }), 403, 'FORBIDDEN');
      expect((await api('GET', path, { key: full })).status).toBe(200);
    }
    expect((await api('POST', '/reward_schemes', { key: full, body: { name: 'Scoped', sign_up_option: 'OPEN' } })).status).toBe(200);
  });
});
