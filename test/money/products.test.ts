// Products, product types and product families over HTTPS.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Products A'), createTenant('Products B')]);
});

const post = (path: string, body: object, key = a.secretKey) => api('POST', path, { key, body });

describe.each(['/product_types', '/product_families'])('%s', (path) => {
  test('create, get, update, list, delete; code unique', async () => {
    const id = await createId(a.secretKey, path, { code: 'DRINKS', name: 'Drinks', description: 'Hot and cold' });
    expect((await api('GET', `${path}/${id}`, { key: a.secretKey })).body).toMatchObject({ id, code: 'DRINKS', name: 'Drinks', description: 'Hot and cold' });
    expect((await api('PUT', `${path}/${id}`, { key: a.secretKey, body: { name: 'Beverages' } })).status).toBe(200);
    expect((await api('GET', `${path}?code=DRINKS`, { key: a.secretKey })).body.content.map((e: { name: string }) => e.name)).toEqual(['Beverages']);
    expectError(await post(path, { code: 'DRINKS', name: 'Again' }), 409, 'ALREADY_EXISTS', 'code');
    expectError(await post(path, { code: 'DRINKS' }), 400, 'INVALID_REQUEST', 'name');
    expectError(await api('GET', `${path}/${id}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    expect((await api('DELETE', `${path}/${id}`, { key: a.secretKey })).status).toBe(200);
    expectError(await api('GET', `${path}/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  });
});

describe('/products', () => {
  let type: string;
  let family: string;

  beforeAll(async () => {
    type = await createId(a.secretKey, '/product_types', { code: 'COFFEE', name: 'Coffee' });
    family = await createId(a.secretKey, '/product_families', { code: 'HOT', name: 'Hot drinks' });
  });

  test('create, get, list, partial update, delete', async () => {
    const id = await createId(a.secretKey, '/products', { sku: 'LATTE', name: 'Latte', description: 'Milk coffee', product_type_id: type, product_family_id: family });
    const got = await api('GET', `/products/${id}`, { key: a.secretKey });
    expect(got.body).toEqual({
      id,
      sku: 'LATTE',
      name: 'Latte',
      description: 'Milk coffee',
      product_type: { id: type, name: 'Coffee' },
      product_family: { id: family, name: 'Hot drinks' },
      created_on: expect.any(Number),
      updated_on: expect.any(Number),
    });
    for (const query of [`sku=LATTE`, `product_type_id=${type}`, `product_family_id=${family}`, 'search_value=latt', 'name=LAT']) {
      const list = await api('GET', `/products?${query}`, { key: a.secretKey });
      expect([query, list.body.content.map((p: { id: string }) => p.id)]).toEqual([query, [id]]);
    }
    expect((await api('PUT', `/products/${id}`, { key: a.secretKey, body: { name: 'Caffe latte', product_family_id: null } })).body).toEqual({ id });
    expect((await api('GET', `/products/${id}`, { key: a.secretKey })).body).toMatchObject({ name: 'Caffe latte', sku: 'LATTE', product_type: { id: type }, product_family: null });
    expect((await api('DELETE', `/products/${id}`, { key: a.secretKey })).body).toEqual({ id });
    expectError(await api('GET', `/products/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  });

  test('sku unique per organisation; type and family must be the organisation\'s own; nothing written on refusal', async () => {
    const id = await createId(a.secretKey, '/products', { sku: 'MOCHA', name: 'Mocha' });
    expectError(await post('/products', { sku: 'MOCHA', name: 'Again' }), 409, 'ALREADY_EXISTS', 'sku');
    await createId(b.secretKey, '/products', { sku: 'MOCHA', name: 'Mocha in B' });
    const foreignType = await createId(b.secretKey, '/product_types', { name: 'B type' });
    expectError(await post('/products', { sku: 'NEW-1', name: 'x', product_type_id: foreignType }), 400, 'INVALID_REQUEST', 'product_type_id');
    expectError(await post('/products', { sku: 'NEW-1', name: 'x', product_family_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'product_family_id');
    expect((await api('GET', '/products?sku=NEW-1', { key: a.secretKey })).body.paging.total).toBe(0);
    expectError(await api('PUT', `/products/${id}`, { key: a.secretKey, body: { name: 'Changed', product_type_id: foreignType } }), 400, 'INVALID_REQUEST', 'product_type_id');
    expect((await api('GET', `/products/${id}`, { key: a.secretKey })).body.name).toBe('Mocha');
    expectError(await post('/products', { name: 'no sku' }), 400, 'INVALID_REQUEST', 'sku');
    expectError(await post('/products', { sku: 'S', name: 'x', product_type_id: 'nope' }), 400, 'INVALID_REQUEST', 'product_type_id');
    expectError(await api('GET', '/products?sort=price', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sort');
  });

  test('a type or family with products cannot be deleted (409 IN_USE)', async () => {
    const t = await createId(a.secretKey, '/product_types', { name: 'Tea' });
    const f = await createId(a.secretKey, '/product_families', { name: 'Leaves' });
    const p = await createId(a.secretKey, '/products', { sku: 'EARL-GREY', name: 'Earl Grey', product_type_id: t, product_family_id: f });
    expectError(await api('DELETE', `/product_types/${t}`, { key: a.secretKey }), 409, 'IN_USE');
    expectError(await api('DELETE', `/product_families/${f}`, { key: a.secretKey }), 409, 'IN_USE');
    expect((await api('DELETE', `/products/${p}`, { key: a.secretKey })).status).toBe(200);
    expect((await api('DELETE', `/product_types/${t}`, { key: a.secretKey })).status).toBe(200);
    expect((await api('DELETE', `/product_families/${f}`, { key: a.secretKey })).status).toBe(200);
  });

  test("another organisation's product answers 404 like an unknown one", async () => {
    const id = await createId(a.secretKey, '/products', { sku: 'PRIVATE', name: 'Private' });
    for (const target of [id, UNKNOWN_ID]) {
      expectError(await api('GET', `/products/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
      expectError(await api('PUT', `/products/${target}`, { key: b.secretKey, body: { name: 'hijack' } }), 404, 'NOT_FOUND');
      expectError(await api('DELETE', `/products/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    }
    expect((await api('GET', '/products?sku=PRIVATE', { key: b.secretKey })).body.paging.total).toBe(0);
  });
});
