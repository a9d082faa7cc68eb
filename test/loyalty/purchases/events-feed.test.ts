// POST /events (a PURCHASE event record) and GET /contacts/{id}/activity_feed, over HTTPS.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';
import { createId, expectError, openDatabase } from '../../money/helpers';
import { contactWithAccount, credit, expectLedgerHolds, newWallet } from '../../wallets/setup';
import { merchant, purchase, purchaseBody, schemeWithOffers } from './setup';

let tenant: Tenant;
let other: Tenant;
let root: Db;
let db: Db;
let key: string;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  key = tenant.secretKey;
  root = openDatabase();
  db = scopedClient(root, tenant.organisationId);
});
afterEach(async () => expectLedgerHolds(root, tenant.organisationId));
afterAll(async () => root?.$disconnect());

async function buyer() {
  const c = await contactWithAccount(key, root);
  return { ...c, walletId: await newWallet(key, c.accountId) };
}

test('a PURCHASE event posts the purchase and answers 201 with what it did', async () => {
  const b = await buyer();
  const venueTap = `VT-${Date.now()}`;
  const shop = await merchant(key);
  const venueId = await createId(key, '/organisations', { code: `V-${Date.now()}`, name: 'Harbour venue', type: 'VENUE', parent_id: shop.unitId, taps: [{ name: 'Till', code: venueTap }], locations: [{ name: 'Harbour', town_city: 'Limassol', country_code: 'CYP' }] });
  const sku = `EV-${Date.now()}`;
  const productId = await createId(key, '/products', { sku, name: 'Espresso' });
  const { offerIds } = await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardValue: '10' }]);
  await credit(key, b.walletId, 10);
  const body = { ...purchaseBody(b.contactId, 30, { spend_request: { amount: 10 }, merchant_tap: { code: shop.tapCode }, outlet_tap: { code: venueTap } }) };
  body.products = [{ product_sku: sku, net_amount: 25, tax_amount: 5, total_amount: 30 }];
  const res = await api('POST', '/events', { key, body: { type: 'PURCHASE', purchase: body } });
  expect(res.status).toBe(201);
  const r = res.body;
  expect(r).toMatchObject({
    type: 'PURCHASE',
    business: { id: tenant.organisationId },
    contact: { id: b.contactId, code: b.code },
    financials: { account: { id: b.accountId }, wallet: { id: b.walletId, balance: 2 } },
    merchant: { id: shop.unitId }, venue: { id: venueId, name: 'Harbour venue' }, location: { name: 'Harbour', town_city: 'Limassol' },
    transaction: { reference_number: body.reference_number, total_amount: 30, net_amount: 25, tax_amount: 5, currency_code: 'EUR', life_cycle_state: 'POSTED' },
    award: { total_amount: 2, awards: [{ reward_offer: { id: offerIds[0] }, amount: 2 }] },
    spend: { amount: 10 },
    products: [{ product_sku: sku, product: { id: productId, name: 'Espresso' }, total_amount: 30, quantity: 1 }],
    initiating_transaction: null,
  });
  expect(r.submitted_day).toBe(new Date(r.submitted_on * 1000).toISOString().slice(0, 10));
  expect((await api('GET', `/purchases?reference_number=${body.reference_number}`, { key })).body.purchases[0]).toMatchObject({ id: r.id, performed_by_unit_id: venueId });
  expectError(await api('POST', '/events', { key, body: { type: 'LOGIN' } }), 400, 'INVALID_REQUEST', 'type');
  expectError(await api('POST', '/events', { key, body: { type: 'PURCHASE' } }), 400, 'INVALID_REQUEST', 'purchase');
});

test('a SKU the product catalogue does not know is accepted and kept on its line without a product (docs/loyalty.md)', async () => {
  const b = await buyer();
  const body = purchaseBody(b.contactId, 12);
  const sku = `NOT-CATALOGUED-${Date.now()}`;
  body.products = [{ product_sku: sku, net_amount: 10, tax_amount: 2, total_amount: 12 }];
  const res = await api('POST', '/events', { key, body: { type: 'PURCHASE', purchase: body } });
  expect(res.status).toBe(201);
  expect(res.body.products).toEqual([expect.objectContaining({ product_sku: sku, product: null, total_amount: 12 })]);
});

test('the activity feed lists purchases, awards, spends, journals, voids and returns, newest first, filtered and paged', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardType: 'FIXED', awardValue: '3' }]);
  await credit(key, b.walletId, 20);
  const body = purchaseBody(b.contactId, 50, { spend_request: { amount: 5 } });
  const { id } = (await purchase(key, body)).body;
  await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: b.contactId, reference_number: body.reference_number, amount: 10 } });

  const feed = await api('GET', `/contacts/${b.code}/activity_feed`, { key });
  expect(feed.status).toBe(200);
  const types = feed.body.activity_feed.map((f: { activity_type: string }) => f.activity_type);
  // One purchase's rows share its transaction's moment: within it, in the order they were written.
  expect(types).toEqual(['RETURN', 'AWARD', 'SPEND', 'PURCHASE', 'CREDIT']);
  const byType = Object.fromEntries(feed.body.activity_feed.map((f: { activity_type: string }) => [f.activity_type, f]));
  expect(byType.PURCHASE).toMatchObject({ id, reference_number: body.reference_number, total_amount: 50, currency: 'EUR', state: 'POSTED' });
  expect(byType.AWARD).toMatchObject({ reward_offer: 'Offer 1', direction: 'INCOMING', total_amount: 3, reference_number: body.reference_number });
  expect(byType.SPEND).toMatchObject({ direction: 'OUTGOING', total_amount: 5 });
  expect(feed.body.paging).toEqual({ page: 1, size: 20, total: 5 });

  const awards = await api('GET', `/contacts/${b.contactId}/activity_feed?activity_type=award,spend`, { key });
  expect(awards.body.activity_feed.map((f: { activity_type: string }) => f.activity_type)).toEqual(['AWARD', 'SPEND']);
  const today = new Date().toISOString().slice(0, 10);
  expect((await api('GET', `/contacts/${b.contactId}/activity_feed?created_date=${today}`, { key })).body.paging.total).toBe(5);
  expect((await api('GET', `/contacts/${b.contactId}/activity_feed?created_date=2001-01-01`, { key })).body.paging.total).toBe(0);
  const page = await api('GET', `/contacts/${b.contactId}/activity_feed?size=2&page=3&order=ASC`, { key });
  expect(page.body.activity_feed.map((f: { activity_type: string }) => f.activity_type)).toEqual(['RETURN']);
  expectError(await api('GET', `/contacts/${b.contactId}/activity_feed?activity_type=NAP`, { key }), 400, 'INVALID_REQUEST', 'activity_type');
  expectError(await api('GET', `/contacts/${b.contactId}/activity_feed`, { key: other.secretKey }), 404, 'NOT_FOUND');
});

test('an award may issue a voucher: its secret is answered once; a use shows in the feed; a cancel cancels what is unused', async () => {
  const b = await buyer();
  const voucherTypeId = newId();
  await db.voucherType.create({ data: { id: voucherTypeId, organisationId: tenant.organisationId, name: 'Free coffee', valueType: 'FIXED', value: '3', currencyCode: 'EUR', validityPeriod: 1, validityUot: 'MONTH', classification: 'REWARD', category: 'BEARER' } });
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardType: 'FIXED', awardValue: '1', voucherTypeId }]);
  const body = purchaseBody(b.contactId, 20);
  const first = await purchase(key, body, { 'Idempotency-Key': `v-${body.reference_number}` });
  expect(first.status).toBe(200);
  const [issued] = first.body.vouchers;
  expect(issued).toMatchObject({ number: expect.stringMatching(/^\d{16}$/), secret_number: expect.stringMatching(/^\d{16}$/) });
  expect((await purchase(key, body, { 'Idempotency-Key': `v-${body.reference_number}` })).body).toEqual({ id: first.body.id, vouchers: null });
  const voucher = await root.voucher.findUniqueOrThrow({ where: { id: issued.id } });
  expect([voucher.purchaseId, voucher.contactId, voucher.secretHash.includes(issued.secret_number)]).toEqual([first.body.id, b.contactId, false]);
  expect((await api('POST', `/vouchers/${issued.id}`, { key, body: { secret_number: issued.secret_number } })).status).toBe(200);
  const uses = await api('GET', `/contacts/${b.contactId}/activity_feed?activity_type=VOUCHER_USE`, { key });
  expect(uses.body.activity_feed).toEqual([expect.objectContaining({ id: issued.id, activity_type: 'VOUCHER_USE', total_amount: 3, code: issued.number, type: 'REWARD' })]);

  // A second purchase's voucher is still unused when the purchase is cancelled: it is cancelled with it.
  const second = await purchase(key, purchaseBody(b.contactId, 20));
  const unused = second.body.vouchers[0].id;
  expect((await api('POST', `/purchases/${second.body.id}/cancel`, { key })).status).toBe(200);
  expect((await root.voucher.findUniqueOrThrow({ where: { id: unused } })).lifeCycleState).toBe('CANCELLED');
  expect((await root.voucher.findUniqueOrThrow({ where: { id: issued.id } })).lifeCycleState).toBe('USED');

  const event = await api('POST', '/events', { key, body: { type: 'PURCHASE', purchase: purchaseBody(b.contactId, 20) } });
  expect(event.body.vouchers).toEqual([expect.objectContaining({ secret_number: expect.stringMatching(/^\d{16}$/) })]);
  expect(event.body.award.awards[0].voucher_id).toBe(event.body.vouchers[0].id);
});
