// The world both analysis lists are checked against, built through the API in a tenant of the
// calling file. Every figure the tests expect follows from the comments here.
//
// Tiers are reached by lifetime units only (period thresholds out of reach), so the tests hold
// whatever day of the year they run on.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId } from '../money/helpers';
import { merchant } from '../loyalty/purchases/setup';

export const DAY = 86_400;
export const now = () => Math.floor(Date.now() / 1000);
const uniq = (p: string) => `${p}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function post(key: string, path: string, body: object): Promise<any> {
  const res = await api('POST', path, { key, body });
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A contact with a primary account in `currency` (and its first wallet unless `wallet: false`). */
async function customer(key: string, first: string, last: string, extra: Record<string, unknown> = {}, currency = 'EUR', wallet = true) {
  const code = uniq(first.toUpperCase());
  const id = await createId(key, '/contacts', { contact_type: 'PERSON', code, first_name: first, last_name: last, accounts: [{ name: 'Main', is_primary: true, currency_code: currency }], ...extra });
  const accounts = await api('GET', `/contacts/${id}/accounts`, { key });
  const accountId = accounts.body.accounts[0].id as string;
  const walletId = wallet ? await createId(key, `/accounts/${accountId}/wallets`, {}) : null;
  return { id, code, accountId, walletId };
}

async function card(key: string, contactId: string, last4: string, fingerprint: string, brand: string, fundingType: string): Promise<string> {
  return createId(key, `/contacts/${contactId}/payment_methods`, {
    payment_method_type: 'CARD',
    card: { card_number: `411111******${last4}`, first6: '411111', last4, fingerprint, expiration_month: 12, expiration_year: 2040, brand, funding_type: fundingType },
  });
}

/** One line of `total` (net + tax exact), performed `daysAgo` days ago. */
async function buy(key: string, contactId: string, total: string, daysAgo: number, extra: Record<string, unknown> = {}): Promise<{ id: string; reference: string }> {
  const reference = uniq('REF');
  const cents = Math.round(Number(total) * 100);
  const tax = Math.floor(cents / 10);
  const body = {
    contact_id: contactId, reference_number: reference, performed_on: now() - daysAgo * DAY,
    products: [{ product_sku: 'SKU-1', net_amount: (cents - tax) / 100, tax_amount: tax / 100, total_amount: Number(total) }],
    ...extra,
  };
  return { id: (await post(key, '/purchases', body)).id, reference };
}

export interface World {
  tenant: Tenant;
  key: string;
  retail: { id: string; code: string };
  corporate: { id: string; code: string };
  bronze: { id: string; code: string };
  silver: { id: string; code: string };
  shop1: string;
  shop2: string;
  ann: { id: string; code: string; walletId: string; cardA: string; cardB: string };
  bob: { id: string; code: string; walletId: string };
  cara: { id: string; code: string };
  dan: { id: string; code: string; card: string };
  fay: { id: string; code: string };
  annSignUp: number;
  bobSignUp: number;
  caraSignUp: number;
}

export async function buildWorld(name: string): Promise<World> {
  const tenant = await createTenant(name);
  const key = tenant.secretKey;
  const reference = async (path: string, label: string) => {
    const code = uniq(label);
    return { id: await createId(key, path, { code, name: label }), code };
  };
  const retail = await reference('/contact_categories', 'Retail');
  const corporate = await reference('/contact_categories', 'Corporate');
  const tier = async (label: string, position: number, lifetime: number) => {
    const code = uniq(label);
    return { id: await createId(key, '/reward_tiers', { code, name: label, color: '#AA7733', position, period_value_units: 1_000_000_000, lifetime_value_units: lifetime }), code };
  };
  const bronze = await tier('Bronze', 1, 100);
  const silver = await tier('Silver', 2, 500);
  await tier('Gold', 3, 1000);
  const schemeId = await createId(key, '/reward_schemes', { name: 'Club', sign_up_option: 'OPEN' });
  await createId(key, '/reward_offers', { reward_scheme_id: schemeId, name: 'Ten percent', award_type: 'PERCENTAGE', award_value: 10 });
  const shop1 = await merchant(key, { name: 'Shop one' });
  const shop2 = await merchant(key, { name: 'Shop two' });
  const join = (accountId: string, signedUpOn: number) => post(key, `/accounts/${accountId}/reward_schemes`, { reward_scheme_id: schemeId, signed_up_on: signedUpOn });

  // Ann (Retail), in the scheme since 10 days: a journal of 30; P1 100 at shop one 3 days ago
  // (card A, award 10), P2 50 at shop two 1 day ago spending 10 (card B, award 10% of 40 = 4),
  // P3 30 at shop one 5 days ago (card A, award 3), cancelled; 20 of P1 returned (2 of its award
  // taken back). Purchases 2 / 130, awards 2 / 14, spends 1 / 10; wallet 30 - 10 + 10 + 4 - 2 = 32.
  // Lifetime units 130: Bronze. Preferred outlet shop two and card B (one order each, latest wins;
  // the cancelled P3 would have tipped both).
  const annSignUp = now() - 10 * DAY;
  const ann = await customer(key, 'Ann', 'Alpha', { category_id: retail.id, loyalty_identifier: uniq('LOY') });
  const cardA = await card(key, ann.id, '1111', uniq('fpA'), 'VISA', 'DEBIT');
  const cardB = await card(key, ann.id, '2222', uniq('fpB'), 'MASTERCARD', 'CREDIT');
  await join(ann.accountId, annSignUp);
  await post(key, '/journals', { wallet_id: ann.walletId, amount: 30, type: 'CREDIT' });
  const p1 = await buy(key, ann.id, '100', 3, { merchant_tap: { code: shop1.tapCode }, payment_medium_identifier: '1111' });
  await buy(key, ann.id, '50', 1, { merchant_tap: { code: shop2.tapCode }, payment_medium_identifier: '2222', spend_request: { amount: 10 } });
  const p3 = await buy(key, ann.id, '30', 5, { merchant_tap: { code: shop1.tapCode }, payment_medium_identifier: '1111' });
  await post(key, `/purchases/${p3.id}/cancel`, {});
  await post(key, '/purchases/ad_hoc_return', { contact_id: ann.id, reference_number: p1.reference, amount: 20 });

  // Bob (Corporate), in the scheme since 20 days: one purchase of 600 two days ago, paid with an
  // unknown medium; award 60. Lifetime 600: Silver.
  const bobSignUp = now() - 20 * DAY;
  const bob = await customer(key, 'Bob', 'Beta', { category_id: corporate.id });
  await join(bob.accountId, bobSignUp);
  await buy(key, bob.id, '600', 2, { payment_medium_identifier: 'cash' });

  // Cara (Retail): signed up to rewards 30 days ago without a scheme; no wallet, no purchase, no tier.
  const caraSignUp = now() - 30 * DAY;
  const cara = await customer(key, 'Cara', 'Gamma', { category_id: retail.id }, 'EUR', false);
  const rewards = await api('PUT', `/accounts/${cara.accountId}/rewards`, { key, body: { signed_up_on: caraSignUp } });
  if (rewards.status !== 200) throw new Error(`rewards: ${rewards.text}`);

  // Dan: never signed up. Orders 5.00 (6 days ago) and 5.01 (4 days ago), both by his card:
  // total 10.01, average 5.005, rounded half up to 5.01.
  const dan = await customer(key, 'Dan', 'Delta');
  const danCard = await card(key, dan.id, '4444', uniq('fpD'), 'VISA', 'PREPAID');
  await buy(key, dan.id, '5.00', 6, { payment_medium_identifier: '4444' });
  await buy(key, dan.id, '5.01', 4, { payment_medium_identifier: '4444' });

  // Eve: joined and left the scheme: not listed among the rewards members.
  const eve = await customer(key, 'Eve', 'Epsilon');
  await join(eve.accountId, now() - 5 * DAY);
  const left = await api('DELETE', `/accounts/${eve.accountId}/reward_schemes/${schemeId}`, { key });
  if (left.status !== 200) throw new Error(`leave: ${left.text}`);

  // Fay buys in USD only: outside the default (system currency, EUR) order analysis.
  const fay = await customer(key, 'Fay', 'Zeta', {}, 'USD');
  await buy(key, fay.id, '70', 1);

  return {
    tenant, key, retail, corporate, bronze, silver, shop1: shop1.unitId, shop2: shop2.unitId,
    ann: { id: ann.id, code: ann.code, walletId: ann.walletId!, cardA, cardB },
    bob: { id: bob.id, code: bob.code, walletId: bob.walletId! },
    cara: { id: cara.id, code: cara.code },
    dan: { id: dan.id, code: dan.code, card: danCard },
    fay: { id: fay.id, code: fay.code },
    annSignUp, bobSignUp, caraSignUp,
  };
}
