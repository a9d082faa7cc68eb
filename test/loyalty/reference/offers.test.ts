// Reward offers over HTTPS: the award rule of a scheme, restricted by products and merchants,
// with the credit's validity, spend condition and voucher type; references keep what they name.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../../money/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let scheme: string;
let cafe: string;
let venue: string;
let family: string;
let type: string;
let product: string;
let condition: string;
let voucherType: string;

const voucher = { name: 'Reward voucher', value_type: 'FIXED', value: 5, validity_period: 3, validity_uot: 'MONTH', classification: 'REWARD', category: 'BEARER' };

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Offers A'), createTenant('Offers B')]);
  root = openDatabase();
  const key = a.secretKey;
  scheme = await createId(key, '/reward_schemes', { name: 'Coffee club', code: 'RO-CLUB', sign_up_option: 'OPEN' });
  cafe = await createId(key, '/organisations', { code: 'RO-CAFE', name: 'Cafe', type: 'MERCHANT' });
  venue = await createId(key, '/organisations', { code: 'RO-VENUE', name: 'Venue', type: 'VENUE' });
  family = await createId(key, '/product_families', { name: 'Hot drinks', description: 'Served hot' });
  type = await createId(key, '/product_types', { name: 'Pastry' });
  product = await createId(key, '/products', { sku: 'RO-LATTE', name: 'Latte', description: 'Milk coffee' });
  condition = await createId(key, '/spend_conditions', { name: 'Cafe only', organisations: [cafe] });
  voucherType = await createId(key, '/voucher_types', voucher);
});

afterAll(async () => {
  await root?.$disconnect();
});

const offer = (extra: object = {}) => ({ reward_scheme_id: scheme, name: 'Coffee back', award_type: 'PERCENTAGE', award_value: 5, ...extra });
const post = (body: object, key = a.secretKey) => api('POST', '/reward_offers', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/reward_offers/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/reward_offers/${id}`, { key, body });
const ids = async (query: string) => (await api('GET', `/reward_offers?${query}`, { key: a.secretKey })).body.content.map((o: { id: string }) => o.id);

test('create, get (names resolved), list with filters, partial update, delete', async () => {
  const id = await createId(
    a.secretKey,
    '/reward_offers',
    offer({
      code: 'RO-COFFEE',
      description: 'All year',
      award_value: 12.5,
      minimum_purchase: '2.50',
      products: [{ id_type: 'FAMILY', id: family }, { id_type: 'TYPE', id: type }, { id_type: 'PRODUCT', id: product }],
      merchants: [cafe],
      spend_condition_id: condition,
      validity: { period: 6, uot: 'MONTH' },
      voucher_type_id: voucherType,
      valid_from: 1893456000,
      valid_to: 1924992000,
    }),
  );
  const got = await get(id);
  expect(got.status).toBe(200);
  expect(got.body).toEqual({
    id,
    code: 'RO-COFFEE',
    name: 'Coffee back',
    description: 'All year',
    reward_scheme: { id: scheme, name: 'Coffee club', code: 'RO-CLUB' },
    life_cycle_state: 'ACTIVE',
    award_type: 'PERCENTAGE',
    award_value: 12.5,
    minimum_purchase: 2.5,
    products: [
      { id_type: 'FAMILY', id: family, name: 'Hot drinks', description: 'Served hot' },
      { id_type: 'TYPE', id: type, name: 'Pastry', description: null },
      { id_type: 'PRODUCT', id: product, name: 'Latte', description: 'Milk coffee' },
    ],
    merchants: [{ id: cafe, name: 'Cafe', code: 'RO-CAFE' }],
    spend_condition: { id: condition, name: 'Cafe only' },
    validity: { period: 6, uot: 'MONTH' },
    voucher_type: { id: voucherType, name: 'Reward voucher' },
    valid_from: 1893456000,
    valid_to: 1924992000,
    created_on: expect.any(Number),
    updated_on: expect.any(Number),
  });
  const plain = await createId(a.secretKey, '/reward_offers', offer({ name: 'Plain', award_type: 'FIXED', award_value: 1, life_cycle_state: 'INACTIVE' }));
  expect((await get(plain)).body).toMatchObject({
    code: null, life_cycle_state: 'INACTIVE', minimum_purchase: null, products: [], merchants: [], spend_condition: null, validity: null, voucher_type: null, valid_from: null, valid_to: null,
  });
  expect(await ids(`reward_scheme_id=${scheme}&sort=name&order=ASC`)).toEqual([id, plain]);
  expect(await ids('life_cycle_state=INACTIVE')).toEqual([plain]);
  expect(await ids('code=RO-COFFEE')).toEqual([id]);
  expect(await ids('search_value=coffee')).toEqual([id]);
  expect(await ids('name=PLAIN')).toEqual([plain]);
  expect(await ids(`reward_scheme_id=${UNKNOWN_ID}`)).toEqual([]);
  expect((await api('GET', '/reward_offers?code=RO-COFFEE', { key: a.secretKey })).body.content[0]).toEqual(got.body);

  // Only what is given changes; null clears; a list given replaces the list.
  expect((await put(id, { life_cycle_state: 'INACTIVE', validity: null, voucher_type_id: null, products: [{ id_type: 'PRODUCT', id: product }], valid_to: null })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({
    life_cycle_state: 'INACTIVE', validity: null, voucher_type: null, valid_to: null, valid_from: 1893456000,
    spend_condition: { id: condition }, merchants: [{ id: cafe }], products: [{ id_type: 'PRODUCT', id: product }], award_value: 12.5,
  });
  expect((await put(id, { award_type: 'FIXED', award_value: 250, validity: { period: 1, uot: 'YEAR' } })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ award_type: 'FIXED', award_value: 250, validity: { period: 1, uot: 'YEAR' } });

  for (const target of [id, plain]) expect((await api('DELETE', `/reward_offers/${target}`, { key: a.secretKey })).body).toEqual({ id: target });
  expectError(await get(id), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => [e.entityType, e.action])).toEqual([
    ['reward_offer', 'CREATE'],
    ['reward_offer', 'UPDATE'],
    ['reward_offer', 'UPDATE'],
    ['reward_offer', 'DELETE'],
  ]);
});

test('rules and fields: 400 naming the attribute, nothing written', async () => {
  const foreignUnit = await createId(b.secretKey, '/organisations', { code: 'RO-B', name: 'B', type: 'MERCHANT' });
  const foreignProduct = await createId(b.secretKey, '/products', { sku: 'RO-B', name: 'B product' });
  const foreignCondition = await createId(b.secretKey, '/spend_conditions', { name: 'B condition' });
  const foreignVoucherType = await createId(b.secretKey, '/voucher_types', voucher);
  const cases: Array<[object, string]> = [
    [{ award_value: 0 }, 'award_value'],
    [{ award_value: -5 }, 'award_value'],
    [{ award_value: 100.01 }, 'award_value'],
    [{ award_type: 'POINTS' }, 'award_type'],
    [{ award_type: undefined }, 'award_type'],
    [{ award_value: undefined }, 'award_value'],
    [{ minimum_purchase: -1 }, 'minimum_purchase'],
    [{ life_cycle_state: 'DRAFT' }, 'life_cycle_state'],
    [{ valid_from: 2000, valid_to: 1000 }, 'valid_to'],
    [{ valid_from: 2000, valid_to: 2000 }, 'valid_to'],
    [{ valid_from: -1 }, 'valid_from'],
    [{ validity: { period: 0, uot: 'DAY' } }, 'validity.period'],
    [{ validity: { period: 1.5, uot: 'DAY' } }, 'validity.period'],
    [{ validity: { period: 1, uot: 'FORTNIGHT' } }, 'validity.uot'],
    [{ validity: { period: 1 } }, 'validity.uot'],
    [{ products: [{ id_type: 'FAMILY', id: type }] }, 'products.0.id'],
    [{ products: [{ id_type: 'PRODUCT', id: product }, { id_type: 'PRODUCT', id: product }] }, 'products.1.id'],
    [{ products: [{ id_type: 'PRODUCT', id: foreignProduct }] }, 'products.0.id'],
    [{ products: [{ id_type: 'SKU', id: product }] }, 'products.0.id_type'],
    [{ merchants: [venue] }, 'merchants.0'],
    [{ merchants: [cafe, foreignUnit] }, 'merchants.1'],
    [{ merchants: [cafe, cafe] }, 'merchants.1'],
    [{ spend_condition_id: foreignCondition }, 'spend_condition_id'],
    [{ spend_condition_id: UNKNOWN_ID }, 'spend_condition_id'],
    [{ voucher_type_id: foreignVoucherType }, 'voucher_type_id'],
    [{ voucher_type_id: 'nope' }, 'voucher_type_id'],
    [{ reward_scheme_id: undefined }, 'reward_scheme_id'],
    [{ reward_scheme_id: 'nope' }, 'reward_scheme_id'],
    [{ name: undefined }, 'name'],
  ];
  for (const [body, attribute] of cases) expectError(await post(offer({ code: 'RO-BAD', ...body })), 400, 'INVALID_REQUEST', attribute);
  expect((await post(offer({ code: 'RO-BAD', award_value: 100 }))).status).toBe(200);
  expect((await api('GET', '/reward_offers?code=RO-BAD', { key: a.secretKey })).body.paging.total).toBe(1);

  // The scheme owns the offer: an unknown one, or another organisation's, is 400 naming it.
  const foreignScheme = await createId(b.secretKey, '/reward_schemes', { name: 'B scheme', sign_up_option: 'OPEN' });
  for (const s of [UNKNOWN_ID, foreignScheme]) expectError(await post(offer({ reward_scheme_id: s })), 400, 'INVALID_REQUEST', 'reward_scheme_id');

  // On update the rules hold for the result; a refused update changes nothing.
  const id = await createId(a.secretKey, '/reward_offers', offer({ award_type: 'FIXED', award_value: 150, valid_from: 1000, valid_to: 2000, merchants: [cafe] }));
  const before = (await get(id)).body;
  const updates: Array<[object, string]> = [
    [{ award_type: 'PERCENTAGE' }, 'award_value'],
    [{ award_value: 0 }, 'award_value'],
    [{ valid_to: 1000 }, 'valid_to'],
    [{ valid_from: 3000 }, 'valid_from'],
    [{ name: 'Changed', merchants: [venue] }, 'merchants.0'],
    [{ name: 'Changed', products: [{ id_type: 'TYPE', id: family }] }, 'products.0.id'],
    [{ reward_scheme_id: scheme }, 'reward_scheme_id'],
  ];
  for (const [body, attribute] of updates) expectError(await put(id, body), 400, 'INVALID_REQUEST', attribute);
  expect((await get(id)).body).toEqual(before);
  expect((await put(id, { valid_from: null, valid_to: 500 })).status).toBe(200);
});

test('a code is unique within the organisation (409 ALREADY_EXISTS)', async () => {
  await createId(a.secretKey, '/reward_offers', offer({ code: 'RO-DUP' }));
  expectError(await post(offer({ code: 'RO-DUP' })), 409, 'ALREADY_EXISTS', 'code');
  const other = await createId(a.secretKey, '/reward_offers', offer({ code: 'RO-OTHER' }));
  expectError(await put(other, { code: 'RO-DUP' }), 409, 'ALREADY_EXISTS', 'code');
});

test('what an offer names cannot be deleted (409 IN_USE): scheme, products, types, families, merchants, spend condition, voucher type', async () => {
  const key = a.secretKey;
  const s = await createId(key, '/reward_schemes', { name: 'Used scheme', sign_up_option: 'OPEN' });
  const unit = await createId(key, '/organisations', { code: 'RO-USED', name: 'Used', type: 'MERCHANT' });
  const f = await createId(key, '/product_families', { name: 'Used family' });
  const t = await createId(key, '/product_types', { name: 'Used type' });
  const p = await createId(key, '/products', { sku: 'RO-USED', name: 'Used product' });
  const c = await createId(key, '/spend_conditions', { name: 'Used condition' });
  const v = await createId(key, '/voucher_types', voucher);
  const id = await createId(key, '/reward_offers', offer({
    reward_scheme_id: s,
    merchants: [unit],
    products: [{ id_type: 'FAMILY', id: f }, { id_type: 'TYPE', id: t }, { id_type: 'PRODUCT', id: p }],
    spend_condition_id: c,
    voucher_type_id: v,
  }));
  const targets = [`/reward_schemes/${s}`, `/organisations/${unit}`, `/product_families/${f}`, `/product_types/${t}`, `/products/${p}`, `/spend_conditions/${c}`, `/voucher_types/${v}`];
  for (const path of targets) expectError(await api('DELETE', path, { key }), 409, 'IN_USE');
  expect((await api('DELETE', `/reward_offers/${id}`, { key })).status).toBe(200);
  for (const path of targets) expect([path, (await api('DELETE', path, { key })).status]).toEqual([path, 200]);
});

test("another organisation's offer answers 404 like an unknown one", async () => {
  const id = await createId(a.secretKey, '/reward_offers', offer({ code: 'RO-PRIVATE' }));
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/reward_offers/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await api('GET', '/reward_offers?code=RO-PRIVATE', { key: b.secretKey })).body.paging.total).toBe(0);
  expect((await api('GET', `/reward_offers?reward_scheme_id=${scheme}`, { key: b.secretKey })).body.paging.total).toBe(0);
});
