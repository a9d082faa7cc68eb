// Custom field definitions over HTTPS (docs/custom-fields.md): create, read, list by entity,
// partial update, delete, their 4xx, tenancy and scopes.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Custom fields A'), createTenant('Custom fields B')]);
  root = openDatabase();
});
afterAll(async () => root?.$disconnect());

const get = (path: string, key = a.secretKey) => api('GET', path, { key });
const post = (body: object, key = a.secretKey) => api('POST', '/custom_fields', { key, body });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/custom_fields/${id}`, { key, body });
const del = (id: string, key = a.secretKey) => api('DELETE', `/custom_fields/${id}`, { key });
const define = (body: object, key = a.secretKey) => createId(key, '/custom_fields', body);
const keysOf = (list: Array<{ entity: string; key: string }>) => list.map((d) => `${d.entity}:${d.key}`);

test('create, read, list sorted by entity and key, filter by entity_name in any case; audited', async () => {
  const renewal = await define({ entity: 'ACCOUNTS', key: 'renewal_date', name: 'Renewal date', description: 'When it renews', type: 'DATE' });
  const tier = await define({ entity: 'contacts', key: 'tier', name: 'Tier', type: 'list', allowed_values: ['GOLD', 'SILVER'] });
  const age = await define({ entity: 'CONTACTS', key: 'age', name: 'Age', type: 'NUMBER' });

  const got = await get(`/custom_fields/${renewal}`);
  expect(got.status).toBe(200);
  expect(got.body).toEqual({
    id: renewal, key: 'renewal_date', name: 'Renewal date', description: 'When it renews', type: 'DATE', entity: 'ACCOUNTS',
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  expect((await get(`/custom_fields/${tier}`)).body).toMatchObject({ entity: 'CONTACTS', type: 'LIST', allowed_values: ['GOLD', 'SILVER'], description: null });

  const all = await get('/custom_fields');
  expect(all.status).toBe(200);
  expect(keysOf(all.body)).toEqual(['ACCOUNTS:renewal_date', 'CONTACTS:age', 'CONTACTS:tier']);
  expect((await get('/custom_fields?entity_name=contacts')).body.map((d: { id: string }) => d.id)).toEqual([age, tier]);
  expect((await get('/custom_fields?entity_name=PURCHASES')).body).toEqual([]);
  expectError(await get('/custom_fields?entity_name=ORDERS'), 400, 'INVALID_REQUEST', 'entity_name');

  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: renewal } });
  expect(audits.map((x) => [x.action, x.entityType])).toEqual([['CREATE', 'custom_field_definition']]);
});

test('the same key twice for one entity is 409 ALREADY_EXISTS; the same key for another entity is another field', async () => {
  await define({ entity: 'VOUCHERS', key: 'campaign', name: 'Campaign', type: 'TEXT' });
  const again = await post({ entity: 'vouchers', key: 'campaign', name: 'Again', type: 'TEXT' });
  expect(again.status).toBe(409);
  expect(again.body.code).toBe('ALREADY_EXISTS');
  expect(again.body.attribute).toBe('key');
  expect((await post({ entity: 'PURCHASES', key: 'campaign', name: 'Campaign', type: 'TEXT' })).status).toBe(200);
});

test('bad definitions: 400 naming the field', async () => {
  const ok = { entity: 'WALLETS', key: 'reason', name: 'Reason', type: 'TEXT' };
  for (const [body, attribute] of [
    [{ ...ok, entity: 'ORDERS' }, 'entity'],
    [{ ...ok, type: 'MONEY' }, 'type'],
    [{ ...ok, key: 'Reason' }, 'key'],
    [{ ...ok, key: '1st' }, 'key'],
    [{ ...ok, key: 'a'.repeat(65) }, 'key'],
    [{ ...ok, name: ' ' }, 'name'],
    [{ ...ok, allowed_values: ['A'] }, 'allowed_values'],
    [{ ...ok, type: 'LIST' }, 'allowed_values'],
    [{ ...ok, type: 'LIST', allowed_values: [] }, 'allowed_values'],
    [{ ...ok, type: 'LIST', allowed_values: ['A', 'A'] }, 'allowed_values'],
    [{ ...ok, extra: 1 }, 'extra'],
  ] as Array<[object, string]>) {
    expectError(await post(body), 400, 'INVALID_REQUEST', attribute);
  }
  expect((await get('/custom_fields?entity_name=WALLETS')).body).toEqual([]);
});

test('update: partial; type changes, a LIST keeps or replaces its values, another type has none; key and entity never change', async () => {
  const id = await define({ entity: 'WALLET_TRANSACTIONS', key: 'channel', name: 'Channel', description: 'Where', type: 'TEXT' });
  expect((await put(id, { name: 'Sales channel' })).body).toEqual({ id });
  expect((await get(`/custom_fields/${id}`)).body).toMatchObject({ name: 'Sales channel', description: 'Where', type: 'TEXT', key: 'channel' });

  expectError(await put(id, { type: 'LIST' }), 400, 'INVALID_REQUEST', 'allowed_values');
  expect((await put(id, { type: 'LIST', allowed_values: ['WEB', 'SHOP'], description: null })).status).toBe(200);
  expect((await get(`/custom_fields/${id}`)).body).toMatchObject({ type: 'LIST', allowed_values: ['WEB', 'SHOP'], description: null });
  expect((await put(id, { name: 'Channel' })).status).toBe(200);
  expect((await get(`/custom_fields/${id}`)).body.allowed_values).toEqual(['WEB', 'SHOP']);

  expectError(await put(id, { type: 'BOOLEAN', allowed_values: ['x'] }), 400, 'INVALID_REQUEST', 'allowed_values');
  expect((await put(id, { type: 'boolean' })).status).toBe(200);
  const bool = (await get(`/custom_fields/${id}`)).body;
  expect(bool.type).toBe('BOOLEAN');
  expect(bool).not.toHaveProperty('allowed_values');

  expectError(await put(id, { key: 'other' }), 400, 'INVALID_REQUEST', 'key');
  expectError(await put(id, { entity: 'ACCOUNTS' }), 400, 'INVALID_REQUEST', 'entity');
  expect((await get(`/custom_fields/${id}`)).body).toMatchObject({ key: 'channel', entity: 'WALLET_TRANSACTIONS' });
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((x) => x.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE']);
});

test('delete: gone afterwards, 404 the second time', async () => {
  const id = await define({ entity: 'PURCHASES', key: 'gift', name: 'Gift', type: 'BOOLEAN' });
  expect((await del(id)).body).toEqual({ id });
  expectError(await get(`/custom_fields/${id}`), 404, 'NOT_FOUND');
  expectError(await del(id), 404, 'NOT_FOUND');
  expect(keysOf((await get('/custom_fields?entity_name=PURCHASES')).body)).not.toContain('PURCHASES:gift');
});

test("tenancy: another organisation's definitions are invisible and answer 404", async () => {
  const foreign = await define({ entity: 'ACCOUNTS', key: 'foreign_only', name: 'Foreign', type: 'TEXT' }, b.secretKey);
  expect(keysOf((await get('/custom_fields')).body)).not.toContain('ACCOUNTS:foreign_only');
  expectError(await get(`/custom_fields/${foreign}`), 404, 'NOT_FOUND');
  expectError(await put(foreign, { name: 'Mine' }), 404, 'NOT_FOUND');
  expectError(await del(foreign), 404, 'NOT_FOUND');
  expect((await get(`/custom_fields/${foreign}`, b.secretKey)).body).toMatchObject({ name: 'Foreign' });
  // The same key in each organisation: the unique index is per organisation.
  expect((await post({ entity: 'ACCOUNTS', key: 'foreign_only', name: 'Mine', type: 'TEXT' })).status).toBe(200);
  expectError(await get(`/custom_fields/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
});

test('401 without a credential; 403 without the reference_data scope; read scope cannot write', async () => {
  expectError(await api('GET', '/custom_fields'), 401, 'INVALID_CREDENTIAL');
  expectError(await api('POST', '/custom_fields', { body: { entity: 'ACCOUNTS', key: 'x', name: 'X', type: 'TEXT' } }), 401, 'INVALID_CREDENTIAL');
  const contactsOnly = await keyWith(a.secretKey, ['contacts']);
  expectError(await get('/custom_fields', contactsOnly), 403, 'FORBIDDEN');
  const readOnly = await keyWith(a.secretKey, ['reference_data:read']);
  expect((await get('/custom_fields', readOnly)).status).toBe(200);
  expectError(await post({ entity: 'ACCOUNTS', key: 'x', name: 'X', type: 'TEXT' }, readOnly), 403, 'FORBIDDEN');
  expect(keysOf((await get('/custom_fields')).body)).not.toContain('ACCOUNTS:x');
});
