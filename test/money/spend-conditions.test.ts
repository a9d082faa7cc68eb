// Spend conditions over HTTPS: units, product references and timings on write; the read form of
// spec 2.4 (names, descriptions, locations resolved); references keep what they name.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;
let cafe: string;
let bakery: string;
let family: string;
let type: string;
let product: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Spend conditions A'), createTenant('Spend conditions B')]);
  const key = a.secretKey;
  cafe = await createId(key, '/organisations', { code: 'SC-CAFE', name: 'Cafe', type: 'MERCHANT', locations: [{ name: 'Harbour', town_city: 'Limassol', country_code: 'CYP' }] });
  bakery = await createId(key, '/organisations', { code: 'SC-BAKERY', name: 'Bakery', type: 'VENUE' });
  family = await createId(key, '/product_families', { name: 'Hot drinks', description: 'Served hot' });
  type = await createId(key, '/product_types', { name: 'Pastry' });
  product = await createId(key, '/products', { sku: 'SC-LATTE', name: 'Latte', description: 'Milk coffee' });
});

const post = (body: object, key = a.secretKey) => api('POST', '/spend_conditions', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/spend_conditions/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/spend_conditions/${id}`, { key, body });

test('create, get (read form of spec 2.4), list, partial update, delete', async () => {
  const id = await createId(a.secretKey, '/spend_conditions', {
    name: 'Breakfast',
    code: 'BREAKFAST',
    organisations: [cafe, bakery],
    products: [{ id_type: 'FAMILY', id: family }, { id_type: 'TYPE', id: type }, { id_type: 'PRODUCT', id: product }],
    timings: [{ day: 2, start_time: '07:00', end_time: '11:00' }, { month: 12, start_time: '18:00', end_time: '24:00' }],
  });
  const got = await get(id);
  expect(got.status).toBe(200);
  expect(got.body).toMatchObject({
    id,
    code: 'BREAKFAST',
    name: 'Breakfast',
    organisations: [
      { id: cafe, name: 'Cafe', locations: [expect.objectContaining({ name: 'Harbour', town_city: 'Limassol', country_code: 'CYP' })] },
      { id: bakery, name: 'Bakery', locations: [] },
    ],
    products: [
      { id_type: 'FAMILY', id: family, name: 'Hot drinks', description: 'Served hot' },
      { id_type: 'TYPE', id: type, name: 'Pastry', description: null },
      { id_type: 'PRODUCT', id: product, name: 'Latte', description: 'Milk coffee' },
    ],
    timings: [
      { month: null, day: 2, start_time: '07:00', end_time: '11:00' },
      { month: 12, day: null, start_time: '18:00', end_time: '24:00' },
    ],
  });
  const list = await api('GET', '/spend_conditions?code=BREAKFAST', { key: a.secretKey });
  expect(list.body.paging.total).toBe(1);
  expect(list.body.content[0]).toEqual(got.body);

  // Lists given are replaced; lists not given are kept; null clears the code.
  expect((await put(id, { code: null, organisations: [bakery], products: [] })).body).toEqual({ id });
  const after = (await get(id)).body;
  expect(after).toMatchObject({ code: null, name: 'Breakfast', products: [], timings: got.body.timings });
  expect(after.organisations.map((o: { id: string }) => o.id)).toEqual([bakery]);

  expect((await api('DELETE', `/spend_conditions/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
});

test('references must exist in the table id_type names, in this organisation: 400 naming the item', async () => {
  const foreignUnit = await createId(b.secretKey, '/organisations', { code: 'SC-B', name: 'B', type: 'MERCHANT' });
  const cases: Array<[object, string]> = [
    [{ products: [{ id_type: 'FAMILY', id: family }, { id_type: 'FAMILY', id: type }] }, 'products.1.id'],
    [{ products: [{ id_type: 'PRODUCT', id: UNKNOWN_ID }] }, 'products.0.id'],
    [{ products: [{ id_type: 'TYPE', id: type }, { id_type: 'TYPE', id: type }] }, 'products.1.id'],
    [{ products: [{ id_type: 'SKU', id: product }] }, 'products.0.id_type'],
    [{ products: [{ id_type: 'PRODUCT', id: 'latte' }] }, 'products.0.id'],
    [{ organisations: [cafe, foreignUnit] }, 'organisations.1'],
    [{ organisations: [cafe, cafe] }, 'organisations.1'],
    [{ organisations: ['nope'] }, 'organisations.0'],
  ];
  for (const [body, attribute] of cases) {
    expectError(await post({ name: 'Bad', code: 'SC-BAD', organisations: [cafe], ...body }), 400, 'INVALID_REQUEST', attribute);
  }
  // Nothing of the refused creates was written.
  expect((await api('GET', '/spend_conditions?code=SC-BAD', { key: a.secretKey })).body.paging.total).toBe(0);

  const id = await createId(a.secretKey, '/spend_conditions', { name: 'Kept', organisations: [cafe], products: [{ id_type: 'PRODUCT', id: product }] });
  expectError(await put(id, { name: 'Changed', organisations: [bakery], products: [{ id_type: 'TYPE', id: family }] }), 400, 'INVALID_REQUEST', 'products.0.id');
  const kept = (await get(id)).body;
  expect([kept.name, kept.organisations.map((o: { id: string }) => o.id), kept.products.map((p: { id: string }) => p.id)]).toEqual(['Kept', [cafe], [product]]);
});

test('timings and fields: 400 naming the field', async () => {
  const timing = (t: object) => ({ name: 'T', timings: [{ start_time: '09:00', end_time: '10:00' }, t] });
  const cases: Array<[object, string]> = [
    [timing({ start_time: '10:00', end_time: '09:00' }), 'timings.1.end_time'],
    [timing({ start_time: '10:00', end_time: '10:00' }), 'timings.1.end_time'],
    [timing({ start_time: '25:00', end_time: '26:00' }), 'timings.1.start_time'],
    [timing({ start_time: '9:00', end_time: '10:00' }), 'timings.1.start_time'],
    [timing({ start_time: '24:00', end_time: '24:00' }), 'timings.1.start_time'],
    [timing({ end_time: '10:00' }), 'timings.1.start_time'],
    [timing({ day: 0, start_time: '09:00', end_time: '10:00' }), 'timings.1.day'],
    [timing({ day: 8, start_time: '09:00', end_time: '10:00' }), 'timings.1.day'],
    [timing({ month: 13, start_time: '09:00', end_time: '10:00' }), 'timings.1.month'],
    [{ code: 'X' }, 'name'],
    [{ name: 'x', organisations: 'all' }, 'organisations'],
  ];
  for (const [body, attribute] of cases) expectError(await post(body), 400, 'INVALID_REQUEST', attribute);
  await createId(a.secretKey, '/spend_conditions', { name: 'Coded', code: 'SC-DUP' });
  expectError(await post({ name: 'Again', code: 'SC-DUP' }), 409, 'ALREADY_EXISTS', 'code');
});

test('a unit, product, type or family a spend condition names cannot be deleted (409 IN_USE)', async () => {
  const unit = await createId(a.secretKey, '/organisations', { code: 'SC-USED', name: 'Used', type: 'MERCHANT' });
  const f = await createId(a.secretKey, '/product_families', { name: 'Used family' });
  const t = await createId(a.secretKey, '/product_types', { name: 'Used type' });
  const p = await createId(a.secretKey, '/products', { sku: 'SC-USED', name: 'Used product' });
  const id = await createId(a.secretKey, '/spend_conditions', {
    name: 'Uses all',
    organisations: [unit],
    products: [{ id_type: 'FAMILY', id: f }, { id_type: 'TYPE', id: t }, { id_type: 'PRODUCT', id: p }],
  });
  const targets = [`/organisations/${unit}`, `/product_families/${f}`, `/product_types/${t}`, `/products/${p}`];
  for (const path of targets) expectError(await api('DELETE', path, { key: a.secretKey }), 409, 'IN_USE');
  expect((await api('DELETE', `/spend_conditions/${id}`, { key: a.secretKey })).status).toBe(200);
  for (const path of targets) expect((await api('DELETE', path, { key: a.secretKey })).status).toBe(200);
});

test("another organisation's spend condition answers 404 like an unknown one", async () => {
  const id = await createId(a.secretKey, '/spend_conditions', { name: 'Private', code: 'SC-PRIVATE' });
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/spend_conditions/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await api('GET', '/spend_conditions?search_value=sc-private', { key: b.secretKey })).body.paging.total).toBe(0);
  expect((await api('GET', '/spend_conditions?search_value=sc-private', { key: a.secretKey })).body.paging.total).toBe(1);
});
