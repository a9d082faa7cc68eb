// Custom field definitions applied to contacts (docs/custom-fields.md): free keys before any
// definition, then defined keys with values of their type on create, update and bulk update,
// nothing half-written, stored values kept, and each organisation's own definitions.
import { createId, expectError } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let counter = 0;
const definitions: Record<string, string> = {};

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Custom fields contacts A'), createTenant('Custom fields contacts B')]);
});

type Field = { key: string; value: unknown };
const code = () => `CF-${process.pid}-${++counter}-${Date.now().toString(36)}`;
const person = (fields: Field[], c = code()) => ({ contact_type: 'PERSON', code: c, first_name: 'Cus', last_name: 'Tom', custom_fields: fields });
const create = (fields: Field[], key = a.secretKey, c = code()) => api('POST', '/contacts', { key, body: person(fields, c) });
const update = (id: string, body: object) => api('PUT', `/contacts/${id}`, { key: a.secretKey, body });
const bulk = (contacts: object[]) => api('PUT', '/contacts', { key: a.secretKey, body: { contacts } });
const read = async (id: string) => (await api('GET', `/contacts/${id}`, { key: a.secretKey })).body;
// Sorted here: the order the contact read answers in is the database's collation of the keys.
const byKey = (fields: Field[]) => [...fields].sort((x, y) => (x.key < y.key ? -1 : 1));
const fieldsOf = async (id: string) => byKey((await read(id)).custom_fields as Field[]);

let legacy: string;

test('before any definition, any key and value goes', async () => {
  const res = await create([{ key: 'Free Key', value: 'anything' }, { key: 'age', value: 'not a number' }]);
  expect(res.status).toBe(200);
  legacy = res.body.id;
  expect(await fieldsOf(legacy)).toEqual(byKey([{ key: 'Free Key', value: 'anything' }, { key: 'age', value: 'not a number' }]));
});

test('with definitions, each type accepts its values (JSON numbers and booleans as their text, a DATE as its epoch)', async () => {
  for (const d of [
    { key: 'tier', type: 'LIST', allowed_values: ['GOLD', 'SILVER'] },
    { key: 'age', type: 'NUMBER' },
    { key: 'birthday', type: 'DATE' },
    { key: 'vip', type: 'BOOLEAN' },
    { key: 'note', type: 'TEXT' },
  ]) {
    definitions[d.key] = await createId(a.secretKey, '/custom_fields', { entity: 'CONTACTS', name: d.key, ...d });
  }
  const res = await create([
    { key: 'tier', value: 'SILVER' }, { key: 'age', value: 42 }, { key: 'birthday', value: '2024-02-29' },
    { key: 'vip', value: true }, { key: 'note', value: 'any text, 12' },
  ]);
  expect(res.status).toBe(200);
  expect(await fieldsOf(res.body.id)).toEqual([
    { key: 'age', value: '42' }, { key: 'birthday', value: 1709164800 }, { key: 'note', value: 'any text, 12' },
    { key: 'tier', value: 'SILVER' }, { key: 'vip', value: 'true' },
  ]);
  for (const [key, value] of [
    ['age', '-3.75'], ['age', '0'], ['age', '007.5'], ['age', 12.5], ['vip', 'false'], ['vip', false], ['birthday', '1900-12-31'], ['birthday', -86400], ['tier', 'GOLD'],
  ] as Array<[string, unknown]>) {
    expect([key, value, (await create([{ key, value }])).status]).toEqual([key, value, 200]);
  }
});

test('a value not of its type is 400 naming custom_fields.N.value, and no contact is made', async () => {
  for (const [key, value] of [
    ['age', 'abc'], ['age', '1e3'], ['age', '12,5'], ['age', '1.'], ['age', ' 1'],
    ['birthday', '2023-02-29'], ['birthday', '29/02/2024'], ['birthday', '2024-2-1'], ['birthday', 1.5], ['birthday', '1700000000.0'],
    ['birthday', 999999999999], ['birthday', true],
    ['vip', 'yes'], ['vip', 'TRUE'], ['vip', 1],
    ['tier', 'gold'], ['tier', 'BRONZE'],
  ] as Array<[string, unknown]>) {
    const c = code();
    const res = await create([{ key: 'note', value: 'fine' }, { key, value }], a.secretKey, c);
    expect([key, value, res.status, res.body.code, res.body.attribute]).toEqual([key, value, 400, 'INVALID_REQUEST', 'custom_fields.1.value']);
    expect((await api('GET', `/contacts/${c}`, { key: a.secretKey })).status).toBe(404);
  }
});

test('a DATE is answered as the epoch seconds of its day at 00:00 UTC, written as YYYY-MM-DD or as epoch seconds (issue 34)', async () => {
  // 1700000000 is 2023-11-14T22:13:20Z: the day it falls in, 2023-11-14, is 1699920000.
  const id = (await create([{ key: 'birthday', value: 1700000000 }])).body.id;
  expect(await fieldsOf(id)).toEqual([{ key: 'birthday', value: 1699920000 }]);
  expect((await update(id, { custom_fields: [{ key: 'birthday', value: '1704067200' }] })).status).toBe(200);
  expect(await fieldsOf(id)).toEqual([{ key: 'birthday', value: 1704067200 }]);
  expect((await update(id, { custom_fields: [{ key: 'birthday', value: '2024-02-29' }] })).status).toBe(200);
  expect(await fieldsOf(id)).toEqual([{ key: 'birthday', value: 1709164800 }]);
  // Before 1970 a day is negative, and what is answered can be written back.
  expect((await update(id, { custom_fields: [{ key: 'birthday', value: '1969-12-31' }] })).status).toBe(200);
  expect(await fieldsOf(id)).toEqual([{ key: 'birthday', value: -86400 }]);
  expect((await update(id, { custom_fields: [{ key: 'birthday', value: -86400 }] })).status).toBe(200);
  expect(await fieldsOf(id)).toEqual([{ key: 'birthday', value: -86400 }]);
});

test('an undefined key is 400 naming custom_fields.N.key; null or "" clears a field of any type', async () => {
  expectError(await create([{ key: 'age', value: '1' }, { key: 'shoe_size', value: '38' }]), 400, 'INVALID_REQUEST', 'custom_fields.1.key');
  expectError(await create([{ key: 'Free Key', value: 'x' }]), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  const id = (await create([{ key: 'age', value: '30' }, { key: 'tier', value: 'GOLD' }])).body.id;
  expect((await update(id, { custom_fields: [{ key: 'age', value: null }, { key: 'tier', value: '' }] })).status).toBe(200);
  expect(await fieldsOf(id)).toEqual([{ key: 'age', value: null }, { key: 'tier', value: '' }]);
  expectError(await update(id, { custom_fields: [{ key: 'undefined_key', value: null }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
});

test('a refused update changes nothing, not even the fields before the bad one', async () => {
  const id = (await create([{ key: 'age', value: '30' }])).body.id;
  const before = await read(id);
  const res = await update(id, { notes: 'changed', custom_fields: [{ key: 'age', value: '31' }, { key: 'vip', value: 'maybe' }] });
  expectError(res, 400, 'INVALID_REQUEST', 'custom_fields.1.value');
  expect(await read(id)).toEqual(before);
  expect((await update(id, { notes: 'changed', custom_fields: [{ key: 'age', value: '31' }, { key: 'vip', value: 'false' }] })).status).toBe(200);
  expect(await read(id)).toMatchObject({ notes: 'changed', custom_fields: [{ key: 'age', value: '31' }, { key: 'vip', value: 'false' }] });
});

test('values written before the definitions are kept and answered as stored; only new writes are checked', async () => {
  expect(await fieldsOf(legacy)).toEqual(byKey([{ key: 'Free Key', value: 'anything' }, { key: 'age', value: 'not a number' }]));
  expect((await update(legacy, { custom_fields: [{ key: 'tier', value: 'GOLD' }] })).status).toBe(200);
  expect(await fieldsOf(legacy)).toEqual(byKey([{ key: 'Free Key', value: 'anything' }, { key: 'age', value: 'not a number' }, { key: 'tier', value: 'GOLD' }]));
  expectError(await update(legacy, { custom_fields: [{ key: 'age', value: 'still not' }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
});

test('bulk update: the attribute names the item and the field; all or nothing', async () => {
  const first = (await create([{ key: 'age', value: '1' }])).body.id;
  const second = (await create([{ key: 'age', value: '2' }])).body.id;
  const res = await bulk([
    { contact: { id: first }, custom_fields: [{ key: 'age', value: '10' }] },
    { contact: { id: second }, custom_fields: [{ key: 'age', value: '20' }, { key: 'tier', value: 'PLATINUM' }] },
  ]);
  expectError(res, 400, 'INVALID_REQUEST', 'contacts.1.custom_fields.1.value');
  expectError(await bulk([{ contact: { id: first }, custom_fields: [{ key: 'colour', value: 'red' }] }]), 400, 'INVALID_REQUEST', 'contacts.0.custom_fields.0.key');
  expect(await fieldsOf(first)).toEqual([{ key: 'age', value: '1' }]);
  expect(await fieldsOf(second)).toEqual([{ key: 'age', value: '2' }]);
  expect((await bulk([
    { contact: { id: first }, custom_fields: [{ key: 'age', value: '10' }] },
    { contact: { id: second }, custom_fields: [{ key: 'tier', value: 'GOLD' }] },
  ])).status).toBe(200);
  expect(await fieldsOf(first)).toEqual([{ key: 'age', value: '10' }]);
  expect(await fieldsOf(second)).toEqual([{ key: 'age', value: '2' }, { key: 'tier', value: 'GOLD' }]);
});

test("each organisation's definitions apply to it alone", async () => {
  // B has none: free keys, whatever A defined.
  expect((await create([{ key: 'age', value: 'abc' }, { key: 'Free Key', value: 'x' }], b.secretKey)).status).toBe(200);
  // B's definition does not make its key valid in A.
  await createId(b.secretKey, '/custom_fields', { entity: 'CONTACTS', key: 'b_only', name: 'B only', type: 'TEXT' });
  expectError(await create([{ key: 'b_only', value: 'x' }]), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  expectError(await create([{ key: 'age', value: '1' }], b.secretKey), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
});

test('deleting definitions: a key without one is refused while others remain, the last one frees the keys (another entity\'s definitions do not count); stored values stay', async () => {
  const id = (await create([{ key: 'note', value: 'kept' }])).body.id;
  await createId(a.secretKey, '/custom_fields', { entity: 'ACCOUNTS', key: 'only_accounts', name: 'X', type: 'TEXT' });
  for (const definition of Object.values(definitions).filter((d) => d !== definitions.note)) {
    expect((await api('DELETE', `/custom_fields/${definition}`, { key: a.secretKey })).status).toBe(200);
  }
  expectError(await create([{ key: 'age', value: '1' }]), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  expect((await api('DELETE', `/custom_fields/${definitions.note}`, { key: a.secretKey })).status).toBe(200);
  expect(await fieldsOf(id)).toEqual([{ key: 'note', value: 'kept' }]);
  expect((await create([{ key: 'age', value: 'abc' }, { key: 'anything', value: 'goes' }])).status).toBe(200);
});
