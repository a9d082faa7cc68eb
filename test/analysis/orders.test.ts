// GET /contact_order_analysis (docs/analysis.md): posted purchases of one currency per contact,
// exact totals and half-up averages, preferred outlet and payment method, the date window, the
// category filter, sorting, paging with `pages`, bad input, tenancy, 401/403.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith } from '../money/helpers';
import { buildWorld, DAY, now, type World } from './seed';

let w: World;
let other: Tenant;

const list = (query: Record<string, string | number> = {}, key = w.key) =>
  api('GET', `/contact_order_analysis?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`, { key });

async function rows(query: Record<string, string | number> = {}): Promise<Array<Record<string, any>>> {
  const res = await list(query);
  expect(res.status).toBe(200);
  return res.body.content;
}
const ids = async (query: Record<string, string | number> = {}) => (await rows(query)).map((r) => r.id);

beforeAll(async () => {
  [w, other] = await Promise.all([buildWorld('Order analysis'), createTenant('Order analysis other')]);
  const theirs = await createId(other.secretKey, '/contacts', { contact_type: 'PERSON', first_name: 'Zed', last_name: 'Other', accounts: [{ is_primary: true, currency_code: 'EUR' }] });
  await createId(other.secretKey, '/purchases', {
    contact_id: theirs, reference_number: `THEIRS-${process.pid}-${Date.now()}`,
    products: [{ product_sku: 'X', net_amount: 900, tax_amount: 99, total_amount: 999 }],
  });
});

test('one row per contact with posted orders in the system currency, largest total first, exact figures', async () => {
  const res = await list();
  expect(res.status).toBe(200);
  expect(res.body.pages).toEqual({ page: 1, size: 20, total: 3 });
  const [bob, ann, dan] = res.body.content;
  expect(ann).toEqual({
    id: w.ann.id, name: 'Ann Alpha', code: w.ann.code, category: { id: w.retail.id, name: 'Retail' },
    number_of_orders: 2, total_order_amount: 130, average_order_value: 65, currency: 'EUR', days_since_last_order: 1,
    preferred_supply_method: { id: w.shop2, name: 'Shop two' },
    preferred_payment_method: { id: w.ann.cardB, type: 'CARD', brand: 'MASTERCARD', funding_type: 'CREDIT' },
  });
  expect(bob).toEqual({
    id: w.bob.id, name: 'Bob Beta', code: w.bob.code, category: { id: w.corporate.id, name: 'Corporate' },
    number_of_orders: 1, total_order_amount: 600, average_order_value: 600, currency: 'EUR', days_since_last_order: 2,
    preferred_supply_method: null, preferred_payment_method: null,
  });
  // 10.01 / 2 = 5.005: half up to 5.01.
  expect(dan).toEqual({
    id: w.dan.id, name: 'Dan Delta', code: w.dan.code, category: null,
    number_of_orders: 2, total_order_amount: 10.01, average_order_value: 5.01, currency: 'EUR', days_since_last_order: 4,
    preferred_supply_method: null,
    preferred_payment_method: { id: w.dan.card, type: 'CARD', brand: 'VISA', funding_type: 'PREPAID' },
  });
});

test('currency_code picks another currency; the window bounds the orders counted (inclusive)', async () => {
  expect(await rows({ currency_code: 'usd' })).toEqual([expect.objectContaining({ id: w.fay.id, number_of_orders: 1, total_order_amount: 70, currency: 'USD' })]);
  const t = now();
  // From 2.5 days ago: Ann's P2 (1 day) and Bob's order (2 days).
  const recent = await rows({ order_date_from: t - 2.5 * DAY });
  expect(recent.map((r) => [r.id, r.number_of_orders, r.total_order_amount])).toEqual([[w.bob.id, 1, 600], [w.ann.id, 1, 50]]);
  // Up to 2.5 days ago: Ann's P1 (3 days, 100 less 20 returned) and both of Dan's.
  const older = await rows({ order_date_to: t - 2.5 * DAY });
  expect(older.map((r) => [r.id, r.number_of_orders, r.total_order_amount, r.preferred_supply_method?.id ?? null])).toEqual([
    [w.ann.id, 1, 80, w.shop1], [w.dan.id, 2, 10.01, null],
  ]);
  const dans = await rows({ order_date_from: t - 6 * DAY - 60, order_date_to: t - 6 * DAY + 60 });
  expect(dans.map((r) => [r.id, r.total_order_amount])).toEqual([[w.dan.id, 5]]);
  expect(await rows({ order_date_from: t + DAY })).toEqual([]);
});

test('category filter by id or code', async () => {
  expect(await ids({ category_id: w.retail.id })).toEqual([w.ann.id]);
  expect(await ids({ category_code: w.corporate.code })).toEqual([w.bob.id]);
  expectError(await list({ category_code: 'NO-SUCH' }), 400, 'INVALID_REQUEST', 'category_code');
});

test('sorting both directions', async () => {
  expect(await ids({ order: 'ASC' })).toEqual([w.dan.id, w.ann.id, w.bob.id]);
  expect(await ids({ sort: 'average_order_value', order: 'ASC' })).toEqual([w.dan.id, w.ann.id, w.bob.id]);
  expect(await ids({ sort: 'days_since_last_order', order: 'ASC' })).toEqual([w.ann.id, w.bob.id, w.dan.id]);
  expect(await ids({ sort: 'days_since_last_order', order: 'DESC' })).toEqual([w.dan.id, w.bob.id, w.ann.id]);
  expect(await ids({ sort: 'name', order: 'ASC' })).toEqual([w.ann.id, w.bob.id, w.dan.id]);
  // Codes start with the upper-cased first name (test/analysis/seed.ts).
  expect(await ids({ sort: 'code', order: 'DESC' })).toEqual([w.dan.id, w.bob.id, w.ann.id]);
  // Ann and Dan both have 2 orders: the contact id (Dan's the later) breaks the tie.
  expect(await ids({ sort: 'number_of_orders', order: 'DESC' })).toEqual([w.dan.id, w.ann.id, w.bob.id]);
  expect(await ids({ sort: 'category', order: 'ASC' })).toEqual([w.bob.id, w.ann.id, w.dan.id]);
});

test('paging: pages carries page, size and the total, also past the last page', async () => {
  const second = await list({ size: 2, page: 2 });
  expect(second.body).toEqual({ content: [expect.objectContaining({ id: w.dan.id })], pages: { page: 2, size: 2, total: 3 } });
  const past = await list({ size: 2, page: 3 });
  expect(past.body).toEqual({ content: [], pages: { page: 3, size: 2, total: 3 } });
  expect((await list({ page: 9, category_id: w.retail.id })).body.pages).toEqual({ page: 9, size: 20, total: 1 });
});

test('bad input is 400 naming the parameter', async () => {
  expectError(await list({ sort: 'orders' }), 400, 'INVALID_REQUEST', 'sort');
  expectError(await list({ order_date_from: 'yesterday' }), 400, 'INVALID_REQUEST', 'order_date_from');
  expectError(await list({ order_date_to: -1 }), 400, 'INVALID_REQUEST', 'order_date_to');
  expectError(await list({ currency_code: 'EURO' }), 400, 'INVALID_REQUEST', 'currency_code');
  expectError(await list({ category_id: 'retail' }), 400, 'INVALID_REQUEST', 'category_id');
  expectError(await list({ created_on_from: 0 }), 400, 'INVALID_REQUEST', 'created_on_from');
});

test("another organisation's orders are never counted, and its categories are not found", async () => {
  const theirs = await list({}, other.secretKey);
  expect(theirs.body.content.map((r: { name: string; total_order_amount: number }) => [r.name, r.total_order_amount])).toEqual([['Zed Other', 999]]);
  expectError(await list({ category_id: w.retail.id }, other.secretKey), 400, 'INVALID_REQUEST', 'category_id');
});

test('401 without a credential; 403 without the reports scope', async () => {
  expectError(await api('GET', '/contact_order_analysis'), 401, 'INVALID_CREDENTIAL');
  expectError(await list({}, await keyWith(w.key, ['contacts', 'purchases'])), 403, 'FORBIDDEN');
  expect((await list({}, await keyWith(w.key, ['reports']))).status).toBe(200);
});
