// Purchases (docs/loyalty.md): spend, awards, tiers, cancel, ad hoc return, listing, and the
// refusals; the ledger check after each test.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../../money/helpers';
import { contactWithAccount, credit, expectLedgerHolds, newWallet, walletOf } from '../../wallets/setup';
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

async function buyer(currency = 'EUR') {
  const c = await contactWithAccount(key, root, currency);
  const walletId = await newWallet(key, c.accountId);
  return { ...c, walletId };
}

const transactionsOf = (purchaseId: string) => root.walletTransaction.findMany({ where: { purchaseId }, orderBy: { createdAt: 'asc' } });

test('a purchase spends what was asked, awards on the part not paid from the wallet, and counts towards the tier', async () => {
  const b = await buyer();
  const shop = await merchant(key);
  const { offerIds } = await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardValue: '10', validityPeriod: 1, validityUot: 'YEAR' }, { awardType: 'FIXED', awardValue: '1.5' }]);
  await credit(key, b.walletId, 30);
  const res = await purchase(key, purchaseBody(b.contactId, 100, { spend_request: { amount: 20 }, merchant_tap: { code: shop.tapCode } }));
  expect(res.status).toBe(200);
  const id = res.body.id;
  const rows = await transactionsOf(id);
  expect(rows.map((t) => [t.classification, t.amount.toFixed(), t.rewardOfferId])).toEqual([
    ['SPEND', '20', null], ['AWARD', '8', offerIds[0]], ['AWARD', '1.5', offerIds[1]],
  ]);
  // 30 - 20 + 8 + 1.5; the first award expires in a year.
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(19.5);
  const lot = await root.lot.findFirstOrThrow({ where: { entry: { transactionId: rows[1].id } } });
  expect(lot.validTo!.getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
  const stored = await root.purchase.findUniqueOrThrow({ where: { id }, include: { products: true } });
  expect({ state: stored.lifeCycleState, total: stored.totalAmount.toFixed(), unit: stored.merchantUnitId, lines: stored.products.length }).toEqual({ state: 'POSTED', total: '100', unit: shop.unitId, lines: 1 });
  const rewards = await root.accountReward.findUniqueOrThrow({ where: { accountId: b.accountId } });
  expect([rewards.lifetimeValueUnits.toFixed(), rewards.periodValueUnits.toFixed(), rewards.periodYear]).toEqual(['100', '100', new Date().getUTCFullYear()]);
  const events = await root.outboxEvent.findMany({ where: { organisationId: tenant.organisationId, type: { in: ['AWARD_CUSTOMER', 'PURCHASE_POSTED'] }, payload: { path: ['purchase_id'], equals: id } } });
  expect(events.map((e) => e.type).sort()).toEqual(['AWARD_CUSTOMER', 'AWARD_CUSTOMER', 'PURCHASE_POSTED']);
});

test('the same reference_number or Idempotency-Key never awards twice', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardType: 'FIXED', awardValue: '5' }]);
  const body = purchaseBody(b.contactId, 40);
  const first = await purchase(key, body, { 'Idempotency-Key': `k-${body.reference_number}` });
  const replay = await purchase(key, body, { 'Idempotency-Key': `k-${body.reference_number}` });
  expect(replay.body).toEqual(first.body);
  expectError(await purchase(key, body), 409, 'ALREADY_EXISTS', 'reference_number');
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(5);
  expect(await root.purchase.count({ where: { referenceNumber: body.reference_number } })).toBe(1);
});

test('cancel and return round trips leave every balance where it started, even with the award spent', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardValue: '10' }]);
  await credit(key, b.walletId, 50);
  const before = await walletOf(key, b.contactId, b.walletId);
  const body = purchaseBody(b.contactId, 200, { spend_request: { amount: 40 } });
  const { id } = (await purchase(key, body)).body;
  // 50 - 40 + 16 (10% of the 160 not paid from the wallet)
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(26);

  const ret = await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: b.code, reference_number: body.reference_number, amount: 50 } });
  expect(ret).toMatchObject({ status: 200, body: { id } });
  // A quarter returned: 4 of the award back out, 10 of the spend back in.
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(32);
  expectError(await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: b.contactId, reference_number: body.reference_number, amount: 150.01 } }), 409, 'RETURN_EXCEEDS_PURCHASE', 'amount');

  // Spend everything, so the award is gone when the purchase is cancelled.
  const spendAll = await api('POST', '/journals', { key, body: { wallet_id: b.walletId, amount: 32, type: 'DEBIT' } });
  expect(spendAll.status).toBe(200);
  expect((await api('POST', `/purchases/${id}/cancel`, { key })).body).toEqual({ id });
  // The cancel gave back 30 of spend and took back 12 of award: the wallet owes what the award was.
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(18);
  await credit(key, b.walletId, 32);
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(before.balance);
  expectError(await api('POST', `/purchases/${id}/cancel`, { key }), 409, 'PURCHASE_CANCELLED');
  expect((await transactionsOf(id)).filter((t) => t.classification !== 'VOID').every((t) => t.lifeCycleState === 'VOID')).toBe(true);
  expect((await root.accountReward.findUniqueOrThrow({ where: { accountId: b.accountId } })).lifetimeValueUnits.toFixed()).toBe('0');
});

test('returns in parts reverse the awards exactly: the last one settles the rounding', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardValue: '10' }]);
  const body = purchaseBody(b.contactId, 10.01);
  await purchase(key, body);
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(1);
  for (const amount of [3.33, 3.33, 3.35]) {
    expect((await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: b.contactId, reference_number: body.reference_number, amount } })).status).toBe(200);
  }
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(0);
});

test('an ad hoc return of an unknown reference answers 200 with no body', async () => {
  const b = await buyer();
  const res = await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: b.contactId, reference_number: 'NOPE', amount: 5 } });
  expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
});

test('offers award only at their merchants, on their products, from their minimum', async () => {
  const b = await buyer();
  const [shop, elsewhere] = await Promise.all([merchant(key), merchant(key)]);
  const productId = await createId(key, '/products', { sku: `P-${Date.now()}`, name: 'Beans' });
  const product = await root.product.findUniqueOrThrow({ where: { id: productId } });
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [
    { awardType: 'FIXED', awardValue: '1', merchants: [shop.unitId] },
    { awardValue: '50', productIds: [productId] },
    { awardType: 'FIXED', awardValue: '100', minimumPurchase: '1000' },
  ]);
  const lines = [
    { product_sku: product.sku, net_amount: 10, tax_amount: 0, total_amount: 10 },
    { product_sku: 'OTHER', net_amount: 90, tax_amount: 0, total_amount: 90 },
  ];
  const at = await purchase(key, { ...purchaseBody(b.contactId, 100), products: lines, merchant_tap: { code: shop.tapCode } });
  expect((await transactionsOf(at.body.id)).map((t) => t.amount.toFixed())).toEqual(['1', '5']);
  const away = await purchase(key, { ...purchaseBody(b.contactId, 100), products: lines, merchant_tap: { code: elsewhere.tapCode } });
  expect((await transactionsOf(away.body.id)).map((t) => t.amount.toFixed())).toEqual(['5']);
});

test('the contact by code, loyalty identifier, phone or card fingerprint; refusals name their field', async () => {
  const b = await buyer();
  const phone = `+357${Date.now() % 100000000}`;
  await root.contact.update({ where: { id: b.contactId }, data: { loyaltyIdentifier: `LOY-${b.code}`, phones: { create: { id: newId(), organisationId: tenant.organisationId, number: phone } } } });
  for (const cim of [b.code, `LOY-${b.code}`, phone]) expect((await purchase(key, { ...purchaseBody(b.contactId, 5), contact_id: undefined, cim })).status).toBe(200);
  expectError(await purchase(key, { ...purchaseBody(b.contactId, 5), contact_id: undefined, cim: 'nobody' }), 400, 'INVALID_REQUEST', 'cim');
  expectError(await purchase(key, { ...purchaseBody(b.contactId, 5), cim: b.code }), 400, 'INVALID_REQUEST', 'cim');
  expectError(await purchase(key, { ...purchaseBody(b.contactId, 5), products: [{ product_sku: 'X', net_amount: 1, tax_amount: 1, total_amount: 3 }] }), 400, 'INVALID_REQUEST', 'products.0.total_amount');
  expectError(await purchase(key, purchaseBody(b.contactId, 5, { currency_code: 'USD' })), 400, 'INVALID_REQUEST', 'currency_code');
  expectError(await purchase(key, purchaseBody(b.contactId, 5, { merchant_tap: { code: 'NO-SUCH-TAP' } })), 400, 'INVALID_REQUEST', 'merchant_tap.code');
  expectError(await purchase(key, purchaseBody(b.contactId, 5, { spend_request: { amount: 6 } })), 400, 'INVALID_REQUEST', 'spend_request.amount');
  expectError(await purchase(key, purchaseBody(b.contactId, 5, { spend_request: { amount: 1 } })), 409, 'INSUFFICIENT_BALANCE', 'spend_request.amount');
  await root.accountReward.upsert({ where: { accountId: b.accountId }, create: { accountId: b.accountId, organisationId: tenant.organisationId, spendingBlocked: true }, update: { spendingBlocked: true } });
  await credit(key, b.walletId, 10);
  const refusedRef = purchaseBody(b.contactId, 5, { spend_request: { amount: 1 } });
  expectError(await purchase(key, refusedRef), 409, 'SPENDING_BLOCKED', 'spend_request');
  // Nothing of the refused purchase was written.
  expect(await root.purchase.count({ where: { referenceNumber: refusedRef.reference_number } })).toBe(0);
});

test('automatic spend: every purchase at an allowed merchant, or only the next visit', async () => {
  const b = await buyer();
  const shop = await merchant(key);
  await credit(key, b.walletId, 100);
  await root.accountReward.create({ data: { accountId: b.accountId, organisationId: tenant.organisationId, autoSpendEnabled: true, autoSpendPreference: 'ALL_MERCHANT_PURCHASE', autoSpendMinimumBalance: '60', autoSpendFromAmount: '20' } });
  await root.accountMerchant.create({ data: { organisationId: tenant.organisationId, accountId: b.accountId, unitId: shop.unitId, isNextVisit: true } });
  const small = await purchase(key, purchaseBody(b.contactId, 10, { merchant_tap: { code: shop.tapCode } }));
  expect(await transactionsOf(small.body.id)).toEqual([]);
  const big = await purchase(key, purchaseBody(b.contactId, 25, { merchant_tap: { code: shop.tapCode } }));
  expect((await transactionsOf(big.body.id)).map((t) => [t.classification, t.amount.toFixed()])).toEqual([['SPEND', '25']]);
  // Keeps 60: only 15 more.
  const capped = await purchase(key, purchaseBody(b.contactId, 50, { merchant_tap: { code: shop.tapCode } }));
  expect((await transactionsOf(capped.body.id)).map((t) => t.amount.toFixed())).toEqual(['15']);

  await root.accountReward.update({ where: { accountId: b.accountId }, data: { autoSpendPreference: 'NEXT_MERCHANT_PURCHASE' } });
  const next = await purchase(key, purchaseBody(b.contactId, 50, { merchant_tap: { code: shop.tapCode } }));
  expect((await transactionsOf(next.body.id)).map((t) => t.amount.toFixed())).toEqual(['50']);
  const after = await purchase(key, purchaseBody(b.contactId, 5, { merchant_tap: { code: shop.tapCode } }));
  expect(await transactionsOf(after.body.id)).toEqual([]);
});

test('GET /purchases: the last 10 without performed_on_from, filters, paging; another organisation sees nothing', async () => {
  const b = await buyer();
  const refs: string[] = [];
  for (let i = 0; i < 12; i++) {
    const body = purchaseBody(b.contactId, 1 + i, { performed_on: 1_700_000_000 + i * 86_400 });
    refs.push(body.reference_number);
    expect((await purchase(key, body)).status).toBe(200);
  }
  const last = await api('GET', `/purchases?contact_id=${b.contactId}`, { key });
  expect(last.body.paging).toEqual({ page: 1, size: 20, total: 10 });
  expect(last.body.purchases[0]).toMatchObject({ reference_number: refs[11], total_amount: 12, life_cycle_state: 'POSTED', performed_on: 1_700_000_000 + 11 * 86_400, account_id: b.accountId });
  const window = await api('GET', `/purchases?contact_id=${b.code}&performed_on_from=1700000000&performed_on_to=${1_700_000_000 + 2 * 86_400}&sort=performed_on&order=asc`, { key });
  expect(window.body.purchases.map((p: { reference_number: string }) => p.reference_number)).toEqual(refs.slice(0, 3));
  const one = await api('GET', `/purchases?reference_number=${refs[4]}&performed_on_from=0`, { key });
  expect(one.body.purchases).toHaveLength(1);
  const paged = await api('GET', `/purchases?contact_id=${b.contactId}&performed_on_from=0&size=5&page=3`, { key });
  expect([paged.body.purchases.length, paged.body.paging.total]).toEqual([2, 12]);
  expect((await api('GET', `/purchases?reference_number=${refs[4]}&performed_on_from=0`, { key: other.secretKey })).body.purchases).toEqual([]);
  expectError(await api('POST', `/purchases/${one.body.purchases[0].id}/cancel`, { key: other.secretKey }), 404, 'NOT_FOUND');
  expectError(await purchase(other.secretKey, purchaseBody(b.contactId, 5)), 400, 'INVALID_REQUEST', 'contact_id');
});

test('a purchase transaction is not voided on its own; keys need the purchases scope', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardType: 'FIXED', awardValue: '2' }]);
  const { id } = (await purchase(key, purchaseBody(b.contactId, 10))).body;
  const [award] = await transactionsOf(id);
  expectError(await api('POST', `/contacts/${b.contactId}/wallet_transactions/${award.id}`, { key, body: {} }), 409, 'PURCHASE_TRANSACTION');
  const walletsOnly = await keyWith(key, ['wallets']);
  expectError(await purchase(walletsOnly, purchaseBody(b.contactId, 10)), 403, 'FORBIDDEN');
  const readOnly = await keyWith(key, ['purchases:read']);
  expect((await api('GET', '/purchases', { key: readOnly })).status).toBe(200);
  expectError(await api('POST', `/purchases/${UNKNOWN_ID}/cancel`, { key }), 404, 'NOT_FOUND');
});

test('concurrent purchases never overspend one wallet, and one reference posted twice at once awards once', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardType: 'FIXED', awardValue: '1' }]);
  await credit(key, b.walletId, 100);
  const results = await Promise.all(Array.from({ length: 20 }, () => purchase(key, purchaseBody(b.contactId, 10, { spend_request: { amount: 10 } }))));
  const statuses = results.map((r) => r.status).sort();
  // Each accepted purchase also awards 1, which the next spend may use: 100 + n >= 10 n.
  const accepted = statuses.filter((s) => s === 200).length;
  expect(accepted).toBe(11);
  expect(statuses.filter((s) => s === 409)).toHaveLength(9);
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(100 + accepted - 10 * accepted);

  const same = purchaseBody(b.contactId, 10);
  const twice = await Promise.all([purchase(key, same), purchase(key, same)]);
  expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
  expect(await root.walletTransaction.count({ where: { purchase: { referenceNumber: same.reference_number } } })).toBe(1);
});

test("the contact's total_spend counts its purchases less returns; a purchase is its latest activity", async () => {
  const b = await buyer();
  await root.contact.update({ where: { id: b.contactId }, data: { lastActivityAt: new Date('2020-01-01T00:00:00Z') } });
  expect((await api('GET', `/contacts/${b.contactId}`, { key })).body).toMatchObject({ total_spend: 0, interaction_status: 'DORMANT' });
  const kept = purchaseBody(b.contactId, 40);
  await purchase(key, kept);
  const cancelled = (await purchase(key, purchaseBody(b.contactId, 25))).body.id;
  await purchase(key, purchaseBody(b.contactId, 99, { performed_on: Math.floor(Date.now() / 1000) - 400 * 86_400 }));
  await api('POST', `/purchases/${cancelled}/cancel`, { key });
  await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: b.contactId, reference_number: kept.reference_number, amount: 15.5 } });
  expect((await api('GET', `/contacts/${b.contactId}`, { key })).body).toMatchObject({ total_spend: 24.5, interaction_status: 'RESTING' });
});

test('restricted funds pay the part of a purchase their spend condition covers, at its merchants only', async () => {
  const b = await buyer();
  const [shop, elsewhere] = await Promise.all([merchant(key), merchant(key)]);
  const productId = await createId(key, '/products', { sku: `C-${Date.now()}`, name: 'Coffee' });
  const sku = (await root.product.findUniqueOrThrow({ where: { id: productId } })).sku;
  const conditionId = await createId(key, '/spend_conditions', { name: 'Coffee at the shop', organisations: [shop.unitId], products: [{ id_type: 'PRODUCT', id: productId }] });
  await credit(key, b.walletId, 20, { spend_condition_id: conditionId });
  await credit(key, b.walletId, 10);
  const lines = [
    { product_sku: sku, net_amount: 15, tax_amount: 0, total_amount: 15 },
    { product_sku: 'CAKE', net_amount: 30, tax_amount: 0, total_amount: 30 },
  ];
  // At most 15 (the coffee) from the restricted 20, plus the 10 unrestricted: 25, not 26.
  expectError(await purchase(key, { ...purchaseBody(b.contactId, 45, { spend_request: { amount: 26 }, merchant_tap: { code: shop.tapCode } }), products: lines }), 409, 'INSUFFICIENT_BALANCE', 'spend_request.amount');
  expectError(await purchase(key, { ...purchaseBody(b.contactId, 45, { spend_request: { amount: 11 }, merchant_tap: { code: elsewhere.tapCode } }), products: lines }), 409, 'INSUFFICIENT_BALANCE', 'spend_request.amount');
  const ok = await purchase(key, { ...purchaseBody(b.contactId, 45, { spend_request: { amount: 25 }, merchant_tap: { code: shop.tapCode } }), products: lines });
  expect(ok.status).toBe(200);
  const [spend] = await transactionsOf(ok.body.id);
  const taken = await root.lotConsumption.findMany({ where: { debit: { transactionId: spend.id } }, include: { lot: true } });
  expect(taken.map((c) => [c.lot.spendConditionId, c.amount.toFixed()]).sort()).toEqual([[conditionId, '15'], [null, '10']].sort());
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(5);
});
