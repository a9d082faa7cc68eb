// GET /contact_rewards_analysis (docs/analysis.md): who is listed, exact figures, filters by tier
// and category, sorting both ways, paging with `pages`, bad input, tenancy, 401/403.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith, UNKNOWN_ID } from '../money/helpers';
import { buildWorld, DAY, now, type World } from './seed';

let w: World;
let other: Tenant;

const list = (query: Record<string, string | number> = {}, key = w.key) =>
  api('GET', `/contact_rewards_analysis?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`, { key });

async function ids(query: Record<string, string | number> = {}): Promise<string[]> {
  const res = await list(query);
  expect(res.status).toBe(200);
  return res.body.content.map((r: { id: string }) => r.id);
}

beforeAll(async () => {
  [w, other] = await Promise.all([buildWorld('Rewards analysis'), createTenant('Rewards analysis other')]);
  // Another organisation's member, with a purchase: never in w's list.
  const theirs = await createId(other.secretKey, '/contacts', { contact_type: 'PERSON', first_name: 'Zed', last_name: 'Other', accounts: [{ is_primary: true, currency_code: 'EUR' }] });
  const account = (await api('GET', `/contacts/${theirs}/accounts`, { key: other.secretKey })).body.accounts[0].id;
  await api('PUT', `/accounts/${account}/rewards`, { key: other.secretKey, body: { signed_up_on: now() - DAY } });
});

test('members only (a sign-up date or a scheme still joined), newest sign-up first, with exact figures', async () => {
  const res = await list();
  expect(res.status).toBe(200);
  expect(res.body.pages).toEqual({ page: 1, size: 20, total: 3 });
  const [ann, bob, cara] = res.body.content;
  expect(ann).toEqual({
    id: w.ann.id, name: 'Ann Alpha', code: w.ann.code, loyalty_code: expect.stringMatching(/^LOY-/), sign_up_date: w.annSignUp,
    tier: { id: w.bronze.id, name: 'Bronze' },
    category: { id: w.retail.id, name: 'Retail' },
    wallet: { id: w.ann.walletId, code: expect.stringMatching(/^\d{16}$/), balance: 32, currency: 'EUR' },
    purchases: { number: 2, amount: 130, days_since_last_purchase: 1, currency: 'EUR' },
    awards: { number: 2, amount: 14, days_since_last_award: 1, currency: 'EUR' },
    spends: { number: 1, amount: 10, days_since_last_spend: 1, currency: 'EUR' },
  });
  expect(bob).toMatchObject({
    id: w.bob.id, name: 'Bob Beta', sign_up_date: w.bobSignUp, tier: { id: w.silver.id, name: 'Silver' }, category: { id: w.corporate.id, name: 'Corporate' },
    wallet: { id: w.bob.walletId, balance: 60, currency: 'EUR' },
    purchases: { number: 1, amount: 600, days_since_last_purchase: 2 },
    awards: { number: 1, amount: 60, days_since_last_award: 2 },
    spends: { number: 0, amount: 0, days_since_last_spend: null, currency: 'EUR' },
  });
  expect(cara).toEqual({
    id: w.cara.id, name: 'Cara Gamma', code: w.cara.code, loyalty_code: null, sign_up_date: w.caraSignUp, tier: null,
    category: { id: w.retail.id, name: 'Retail' }, wallet: null,
    purchases: { number: 0, amount: 0, days_since_last_purchase: null, currency: 'EUR' },
    awards: { number: 0, amount: 0, days_since_last_award: null, currency: 'EUR' },
    spends: { number: 0, amount: 0, days_since_last_spend: null, currency: 'EUR' },
  });
});

test('filters: tier and category, by id or code; both given must agree', async () => {
  expect(await ids({ tier_id: w.silver.id })).toEqual([w.bob.id]);
  expect(await ids({ tier_code: w.bronze.code })).toEqual([w.ann.id]);
  expect(await ids({ category_id: w.retail.id.replace(/-/g, '').toUpperCase() })).toEqual([w.ann.id, w.cara.id]);
  expect(await ids({ category_code: w.corporate.code })).toEqual([w.bob.id]);
  expect(await ids({ category_code: w.retail.code, tier_id: w.bronze.id })).toEqual([w.ann.id]);
  expect(await ids({ category_code: w.retail.code, tier_id: w.silver.id })).toEqual([]);
  expectError(await list({ tier_id: w.silver.id, tier_code: w.bronze.code }), 400, 'INVALID_REQUEST', 'tier_id');
});

test('sorting by each kind of key, both directions; nulls last either way', async () => {
  expect(await ids({ sort: 'sign_up_date', order: 'asc' })).toEqual([w.cara.id, w.bob.id, w.ann.id]);
  expect(await ids({ sort: 'name', order: 'ASC' })).toEqual([w.ann.id, w.bob.id, w.cara.id]);
  expect(await ids({ sort: 'name', order: 'DESC' })).toEqual([w.cara.id, w.bob.id, w.ann.id]);
  expect(await ids({ sort: 'purchases.amount' })).toEqual([w.bob.id, w.ann.id, w.cara.id]);
  expect(await ids({ sort: 'purchases.amount', order: 'ASC' })).toEqual([w.cara.id, w.ann.id, w.bob.id]);
  expect(await ids({ sort: 'awards.number', order: 'DESC' })).toEqual([w.ann.id, w.bob.id, w.cara.id]);
  // Bob and Cara both spent nothing: the contact id (time-ordered, Cara's the later) breaks the tie.
  expect(await ids({ sort: 'spends.amount', order: 'DESC' })).toEqual([w.ann.id, w.cara.id, w.bob.id]);
  expect(await ids({ sort: 'purchases.days_since_last_purchase', order: 'ASC' })).toEqual([w.ann.id, w.bob.id, w.cara.id]);
  expect(await ids({ sort: 'purchases.days_since_last_purchase', order: 'DESC' })).toEqual([w.bob.id, w.ann.id, w.cara.id]);
  expect(await ids({ sort: 'tier', order: 'DESC' })).toEqual([w.bob.id, w.ann.id, w.cara.id]);
  expect(await ids({ sort: 'tier', order: 'ASC' })).toEqual([w.ann.id, w.bob.id, w.cara.id]);
  expect(await ids({ sort: 'wallet.balance', order: 'ASC' })).toEqual([w.ann.id, w.bob.id, w.cara.id]);
  expect(await ids({ sort: 'category', order: 'ASC' })).toEqual([w.bob.id, w.ann.id, w.cara.id]);
});

test('paging: pages carries page, size and the total, also past the last page', async () => {
  const first = await list({ size: 2, sort: 'name', order: 'ASC' });
  expect(first.body.pages).toEqual({ page: 1, size: 2, total: 3 });
  expect(first.body.content.map((r: { id: string }) => r.id)).toEqual([w.ann.id, w.bob.id]);
  const second = await list({ size: 2, page: 2, sort: 'name', order: 'ASC' });
  expect(second.body).toEqual({ content: [expect.objectContaining({ id: w.cara.id })], pages: { page: 2, size: 2, total: 3 } });
  const past = await list({ size: 2, page: 5, tier_code: w.bronze.code });
  expect(past.body).toEqual({ content: [], pages: { page: 5, size: 2, total: 1 } });
});

test('bad input is 400 naming the parameter; unknown references too', async () => {
  expectError(await list({ sort: 'balance' }), 400, 'INVALID_REQUEST', 'sort');
  expectError(await list({ size: 101 }), 400, 'INVALID_REQUEST', 'size');
  expectError(await list({ page: 0 }), 400, 'INVALID_REQUEST', 'page');
  expectError(await list({ order: 'up' }), 400, 'INVALID_REQUEST', 'order');
  expectError(await list({ tier_id: 'gold' }), 400, 'INVALID_REQUEST', 'tier_id');
  expectError(await list({ tier: 'gold' }), 400, 'INVALID_REQUEST', 'tier');
  expectError(await list({ tier_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'tier_id');
  expectError(await list({ category_code: 'NO-SUCH' }), 400, 'INVALID_REQUEST', 'category_code');
});

test("another organisation's members are never listed, and its categories and tiers are not found", async () => {
  const theirs = await list({}, other.secretKey);
  expect(theirs.status).toBe(200);
  expect(theirs.body.pages.total).toBe(1);
  expect(theirs.body.content[0].name).toBe('Zed Other');
  expectError(await list({ category_id: w.retail.id }, other.secretKey), 400, 'INVALID_REQUEST', 'category_id');
  expectError(await list({ tier_id: w.silver.id }, other.secretKey), 400, 'INVALID_REQUEST', 'tier_id');
});

test('401 without a credential; 403 without the reports scope', async () => {
  expectError(await api('GET', '/contact_rewards_analysis'), 401, 'INVALID_CREDENTIAL');
  expectError(await list({}, await keyWith(w.key, ['contacts', 'rewards'])), 403, 'FORBIDDEN');
  expect((await list({}, await keyWith(w.key, ['reports:read']))).status).toBe(200);
});
