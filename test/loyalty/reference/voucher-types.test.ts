// Voucher types over HTTPS: a FIXED value or a VARIABLE range, the currency defaulting to the
// organisation's system currency, validity, classification and category.
import { createId, expectError, UNKNOWN_ID } from '../../money/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Voucher types A'), createTenant('Voucher types B')]);
});

const fixed = (extra: object = {}) => ({ name: 'Gift', value_type: 'FIXED', value: 10, validity_period: 1, validity_uot: 'YEAR', classification: 'GIFT', category: 'IDENTIFIES_CUSTOMER', ...extra });
const variable = (extra: object = {}) => fixed({ value_type: 'VARIABLE', value: undefined, minimum_value: 5, maximum_value: 50, ...extra });
const post = (body: object, key = a.secretKey) => api('POST', '/voucher_types', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/voucher_types/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/voucher_types/${id}`, { key, body });
const ids = async (query: string) => (await api('GET', `/voucher_types?${query}`, { key: a.secretKey })).body.content.map((v: { id: string }) => v.id);

test('create, get, list with filters, partial update, delete; currency from the settings by default', async () => {
  const id = await createId(a.secretKey, '/voucher_types', fixed({ code: 'VT-GIFT', description: 'Birthday', value: 12.3456, extra_added_value: 2 }));
  expect((await get(id)).body).toEqual({
    id,
    code: 'VT-GIFT',
    name: 'Gift',
    description: 'Birthday',
    value_type: 'FIXED',
    value: 12.3456,
    minimum_value: null,
    maximum_value: null,
    extra_added_value: 2,
    currency_code: 'EUR',
    validity_period: 1,
    validity_uot: 'YEAR',
    classification: 'GIFT',
    category: 'IDENTIFIES_CUSTOMER',
    created_on: expect.any(Number),
    updated_on: expect.any(Number),
  });
  // The settings' system currency is the default; a given one wins.
  expect((await api('PUT', '/settings', { key: b.secretKey, body: { system_currency_code: 'GBP' } })).status).toBe(200);
  const inB = await createId(b.secretKey, '/voucher_types', fixed());
  expect((await get(inB, b.secretKey)).body.currency_code).toBe('GBP');
  const refund = await createId(a.secretKey, '/voucher_types', variable({ name: 'Refund', currency_code: 'usd', classification: 'REFUND', category: 'BEARER' }));
  expect((await get(refund)).body).toMatchObject({ value_type: 'VARIABLE', value: null, minimum_value: 5, maximum_value: 50, currency_code: 'USD', extra_added_value: null });

  expect(await ids('classification=REFUND')).toEqual([refund]);
  expect(await ids('category=IDENTIFIES_CUSTOMER')).toEqual([id]);
  expect(await ids('value_type=VARIABLE')).toEqual([refund]);
  expect(await ids('code=VT-GIFT')).toEqual([id]);
  expect(await ids('search_value=refu')).toEqual([refund]);
  expect(await ids('name=GIF&sort=name')).toEqual([id]);
  expect(await ids('sort=created_on&order=ASC')).toEqual([id, refund]);

  // Partial; another value_type clears the former type's values and needs its own.
  expect((await put(id, { description: null, validity_period: 6, validity_uot: 'MONTH' })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({ description: null, validity_period: 6, validity_uot: 'MONTH', value: 12.3456, classification: 'GIFT' });
  expect((await put(id, { value_type: 'VARIABLE', minimum_value: 1, maximum_value: 1 })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ value_type: 'VARIABLE', value: null, minimum_value: 1, maximum_value: 1 });
  expect((await put(id, { maximum_value: 20 })).status).toBe(200);
  expect((await put(id, { value_type: 'FIXED', value: 3, extra_added_value: null })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ value_type: 'FIXED', value: 3, minimum_value: null, maximum_value: null, extra_added_value: null });

  expect((await api('DELETE', `/voucher_types/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
});

test('value rules and fields: 400 naming the attribute, nothing written', async () => {
  const cases: Array<[object, string]> = [
    [fixed({ value: undefined }), 'value'],
    [fixed({ value: 0 }), 'value'],
    [fixed({ value: -1 }), 'value'],
    [fixed({ minimum_value: 1 }), 'minimum_value'],
    [fixed({ maximum_value: 100 }), 'maximum_value'],
    [variable({ value: 10 }), 'value'],
    [variable({ minimum_value: undefined }), 'minimum_value'],
    [variable({ maximum_value: undefined }), 'maximum_value'],
    [variable({ minimum_value: 0 }), 'minimum_value'],
    [variable({ minimum_value: 60, maximum_value: 50 }), 'maximum_value'],
    [fixed({ extra_added_value: -1 }), 'extra_added_value'],
    [fixed({ value_type: 'OPEN' }), 'value_type'],
    [fixed({ currency_code: 'EURO' }), 'currency_code'],
    [fixed({ validity_period: 0 }), 'validity_period'],
    [fixed({ validity_period: undefined }), 'validity_period'],
    [fixed({ validity_uot: 'HOUR' }), 'validity_uot'],
    [fixed({ classification: 'LOYALTY' }), 'classification'],
    [fixed({ classification: undefined }), 'classification'],
    [fixed({ category: 'ANYONE' }), 'category'],
    [fixed({ category: undefined }), 'category'],
    [fixed({ name: undefined }), 'name'],
  ];
  for (const [body, attribute] of cases) expectError(await post({ code: 'VT-BAD', ...body }), 400, 'INVALID_REQUEST', attribute);
  expect((await api('GET', '/voucher_types?code=VT-BAD', { key: a.secretKey })).body.paging.total).toBe(0);

  const id = await createId(a.secretKey, '/voucher_types', variable());
  const before = (await get(id)).body;
  const updates: Array<[object, string]> = [
    [{ value_type: 'FIXED' }, 'value'],
    [{ value: 5 }, 'value'],
    [{ minimum_value: 51 }, 'minimum_value'],
    [{ maximum_value: 4 }, 'maximum_value'],
    [{ minimum_value: null }, 'minimum_value'],
    [{ value_type: 'FIXED', value: 5, maximum_value: 9 }, 'maximum_value'],
    [{ name: 'Changed', validity_uot: 'SECOND' }, 'validity_uot'],
  ];
  for (const [body, attribute] of updates) expectError(await put(id, body), 400, 'INVALID_REQUEST', attribute);
  expect((await get(id)).body).toEqual(before);
});

test('a code is unique within the organisation (409 ALREADY_EXISTS)', async () => {
  await createId(a.secretKey, '/voucher_types', fixed({ code: 'VT-DUP' }));
  expectError(await post(fixed({ code: 'VT-DUP' })), 409, 'ALREADY_EXISTS', 'code');
  const other = await createId(a.secretKey, '/voucher_types', fixed({ code: 'VT-OTHER' }));
  expectError(await put(other, { code: 'VT-DUP' }), 409, 'ALREADY_EXISTS', 'code');
});

test("another organisation's voucher type answers 404 like an unknown one", async () => {
  const id = await createId(a.secretKey, '/voucher_types', fixed({ code: 'VT-PRIVATE' }));
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/voucher_types/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await api('GET', '/voucher_types?code=VT-PRIVATE', { key: b.secretKey })).body.paging.total).toBe(0);
});
