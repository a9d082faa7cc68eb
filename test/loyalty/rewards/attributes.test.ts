// PUT and GET /accounts/{id}/rewards over HTTPS: defaults without a row, partial updates, the
// spending block's date and author (user or API key), automatic spend, the preferred payment
// method, the sign-up organisation, the tier from the account's own value units, and the
// refusals (primary only, terminated, other organisations, scopes) that leave nothing behind.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { Money } from '../../../src/domain/money';
import { addAccount, contactWithAddresses, createId, expectError, keyWith, markTerminated, openDatabase, UNKNOWN_ID } from '../../accounts/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

const A_NAME = `Rewards attributes A ${process.pid}`;
let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
let contactId: string;
let primary: string;
let secondary: string;
let merchantUnit: string;
let otherTenantUnit: string;

const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const card = { brand: 'VISA', card_number: '411111******1111', first6: '411111', last4: '1111', expiration_month: 12, expiration_year: NEXT_YEAR };
const now = () => Math.floor(Date.now() / 1000);

const put = (id: string, body: object, opts: { key?: string; token?: string } = { key: a.secretKey }) => api('PUT', `/accounts/${id}/rewards`, { ...opts, body });
const get = (id: string, key = a.secretKey) => api('GET', `/accounts/${id}/rewards`, { key });
async function read(id: string) {
  const res = await get(id);
  expect(res.status).toBe(200);
  return res.body;
}
const rewardRow = (id: string) => db.accountReward.findFirst({ where: { accountId: id } });

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(A_NAME), createTenant('Rewards attributes B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const contact = await contactWithAddresses(a.secretKey, db);
  contactId = contact.id;
  primary = await addAccount(a.secretKey, contactId, { name: 'Main', currency_code: 'EUR' });
  secondary = await addAccount(a.secretKey, contactId, { name: 'Side', currency_code: 'EUR' });
  merchantUnit = await createId(a.secretKey, '/organisations', { code: `RA-M-${process.pid}`, name: 'Corner Cafe', type: 'MERCHANT' });
  otherTenantUnit = await createId(b.secretKey, '/organisations', { code: `RA-B-${process.pid}`, name: 'Elsewhere', type: 'MERCHANT' });
});

afterAll(async () => {
  await root?.$disconnect();
});

test('an account never written to reads with the defaults', async () => {
  const account = await db.account.findFirstOrThrow({ where: { id: primary } });
  expect(await read(primary)).toEqual({
    name: 'Main',
    number: account.number,
    currency_code: 'EUR',
    signed_up_on: null,
    sign_up_organisation: null,
    spending_blocked_status: false,
    spending_blocked_date: null,
    spending_blocked_user: null,
    automatic_spend_settings: { enable_automatic_spend: false, automatic_spend_preference: null, minimum_wallet_balance: null, from_purchase_amount: null, allowed_merchants: [] },
    reward_tier: null,
    joined_reward_schemes: [],
    preferred_payment_method: null,
  });
  expect(await rewardRow(primary)).toBeNull();
});

test('a full update answers {id}, creates the row, and reads back; it is audited', async () => {
  const pm = await createId(a.secretKey, `/contacts/${contactId}/payment_methods`, { payment_method_type: 'CARD', card });
  const res = await put(primary, {
    signed_up_on: 1735689600,
    signed_up_organisation_id: a.organisationId.replace(/-/g, '').toUpperCase(),
    automatic_spend_settings: { enable_automatic_spend: 'true', automatic_spend_preference: 'ALL_MERCHANT_PURCHASE', minimum_wallet_balance: '10.5', from_purchase_amount: 25 },
    preferred_payment_method_id: pm,
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: primary });
  const body = await read(primary);
  expect(body).toMatchObject({
    signed_up_on: 1735689600,
    sign_up_organisation: { id: a.organisationId, name: A_NAME },
    spending_blocked_status: false,
    automatic_spend_settings: { enable_automatic_spend: true, automatic_spend_preference: 'ALL_MERCHANT_PURCHASE', minimum_wallet_balance: 10.5, from_purchase_amount: 25, allowed_merchants: [] },
    preferred_payment_method: { id: pm, type: 'CARD', first6: '411111', last4: '1111', iban: null },
  });
  expect(await db.auditEntry.count({ where: { entityType: 'account_rewards', entityId: primary, action: 'UPDATE' } })).toBe(1);
});

test('partial: only the fields given change; a unit of the network can be the sign-up organisation; null clears', async () => {
  expect((await put(primary, { signed_up_organisation_id: merchantUnit })).status).toBe(200);
  let body = await read(primary);
  expect(body.sign_up_organisation).toEqual({ id: merchantUnit, name: 'Corner Cafe' });
  expect(body.signed_up_on).toBe(1735689600);
  expect(body.automatic_spend_settings.minimum_wallet_balance).toBe(10.5);

  expect((await put(primary, { automatic_spend_settings: { automatic_spend_preference: 'NEXT_MERCHANT_PURCHASE', from_purchase_amount: null } })).status).toBe(200);
  body = await read(primary);
  expect(body.automatic_spend_settings).toMatchObject({ enable_automatic_spend: true, automatic_spend_preference: 'NEXT_MERCHANT_PURCHASE', minimum_wallet_balance: 10.5, from_purchase_amount: null });

  expect((await put(primary, { signed_up_on: null, signed_up_organisation_id: null, preferred_payment_method_id: null })).status).toBe(200);
  body = await read(primary);
  expect(body).toMatchObject({ signed_up_on: null, sign_up_organisation: null, preferred_payment_method: null });
  expect(body.automatic_spend_settings.enable_automatic_spend).toBe(true);
});

test('blocking by an API key records the date and the key; false clears both', async () => {
  const created = await api('POST', '/api_keys', { key: a.secretKey, body: { name: 'blocker', scopes: ['rewards'] } });
  expect(created.status).toBe(200);
  const before = now();
  expect((await put(primary, { spending_blocked_status: true }, { key: created.body.key })).status).toBe(200);
  const body = await read(primary);
  expect(body.spending_blocked_status).toBe(true);
  expect(body.spending_blocked_date).toBeGreaterThanOrEqual(before);
  expect(body.spending_blocked_date).toBeLessThanOrEqual(now());
  expect(body.spending_blocked_user).toEqual({ id: created.body.id, email_address: null, first_name: null, last_name: null });

  expect((await put(primary, { spending_blocked_status: 'false' })).status).toBe(200);
  expect(await read(primary)).toMatchObject({ spending_blocked_status: false, spending_blocked_date: null, spending_blocked_user: null });
  expect(await rewardRow(primary)).toMatchObject({ spendingBlocked: false, spendingBlockedAt: null, spendingBlockedBy: null });
});

test('blocking by a user shows the user; blocking again keeps the first date and author', async () => {
  const login = await api('POST', '/users/login', { body: { username: a.admin.username, password: a.admin.password } });
  expect(login.status).toBe(200);
  const user = await db.user.findFirstOrThrow({ where: { username: a.admin.username } });
  await db.user.update({ where: { id: user.id }, data: { email: 'admin@example.com', firstName: 'Ada', lastName: 'Admin' } });
  expect((await put(primary, { spending_blocked_status: true }, { token: login.body.access_token })).status).toBe(200);
  const first = await read(primary);
  expect(first.spending_blocked_user).toEqual({ id: user.id, email_address: 'admin@example.com', first_name: 'Ada', last_name: 'Admin' });
  await new Promise((r) => setTimeout(r, 1100));
  expect((await put(primary, { spending_blocked_status: true })).status).toBe(200);
  const again = await read(primary);
  expect(again.spending_blocked_user.id).toBe(user.id);
  expect(again.spending_blocked_date).toBe(first.spending_blocked_date);
  expect((await put(primary, { spending_blocked_status: false })).status).toBe(200);
});

test('automatic spend: enabling needs a preference; amounts are exact and not negative', async () => {
  const fresh = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
  expectError(await put(fresh, { automatic_spend_settings: { enable_automatic_spend: true } }), 400, 'INVALID_REQUEST', 'automatic_spend_settings.automatic_spend_preference');
  expectError(await put(fresh, { automatic_spend_settings: { minimum_wallet_balance: -1 } }), 400, 'INVALID_REQUEST', 'automatic_spend_settings.minimum_wallet_balance');
  expectError(await put(fresh, { automatic_spend_settings: { from_purchase_amount: '1.23456' } }), 400, 'INVALID_REQUEST', 'automatic_spend_settings.from_purchase_amount');
  expectError(await put(fresh, { automatic_spend_settings: { automatic_spend_preference: 'SOMETIMES' } }), 400, 'INVALID_REQUEST', 'automatic_spend_settings.automatic_spend_preference');
  expectError(await put(fresh, { automatic_spend_settings: { colour: 'red' } }), 400, 'INVALID_REQUEST', 'automatic_spend_settings.colour');
  expect(await rewardRow(fresh)).toBeNull();
  expect((await put(fresh, { automatic_spend_settings: { enable_automatic_spend: true, automatic_spend_preference: 'ALL_MERCHANT_PURCHASE', minimum_wallet_balance: '0.0001' } })).status).toBe(200);
  expect((await rewardRow(fresh))?.autoSpendMinimumBalance?.toFixed()).toBe('0.0001');
  // A preference cannot be removed while automatic spend stays on; both together can.
  expectError(await put(fresh, { automatic_spend_settings: { automatic_spend_preference: null } }), 400, 'INVALID_REQUEST', 'automatic_spend_settings.automatic_spend_preference');
  expect((await put(fresh, { automatic_spend_settings: { enable_automatic_spend: false, automatic_spend_preference: null } })).status).toBe(200);
  expect(await rewardRow(fresh)).toMatchObject({ autoSpendEnabled: false, autoSpendPreference: null });
});

test('preferred payment method: a CARD or BANK of the own contact; others are refused naming the field', async () => {
  const bank = await createId(a.secretKey, `/contacts/${contactId}/payment_methods`, { payment_method_type: 'BANK', bank: { iban: 'GB82 WEST 1234 5698 7654 32' } });
  expect((await put(primary, { preferred_payment_method_id: bank })).status).toBe(200);
  expect((await read(primary)).preferred_payment_method).toEqual({ id: bank, type: 'BANK', first6: null, last4: null, iban: 'GB82WEST12345698765432' });

  const paypal = await createId(a.secretKey, `/contacts/${contactId}/payment_methods`, { payment_method_type: 'PAYPAL', payment_gateway_token: 'ann@example.com' });
  expectError(await put(primary, { preferred_payment_method_id: paypal }), 400, 'INVALID_REQUEST', 'preferred_payment_method_id');
  const stranger = await contactWithAddresses(a.secretKey, db);
  const theirs = await createId(a.secretKey, `/contacts/${stranger.id}/payment_methods`, { payment_method_type: 'CARD', card });
  expectError(await put(primary, { preferred_payment_method_id: theirs }), 400, 'INVALID_REQUEST', 'preferred_payment_method_id');
  const bContact = await createId(b.secretKey, '/contacts', { contact_type: 'PERSON', first_name: 'Bo', last_name: 'B' });
  const otherOrg = await createId(b.secretKey, `/contacts/${bContact}/payment_methods`, { payment_method_type: 'CARD', card });
  expectError(await put(primary, { preferred_payment_method_id: otherOrg }), 400, 'INVALID_REQUEST', 'preferred_payment_method_id');
  expectError(await put(primary, { preferred_payment_method_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'preferred_payment_method_id');
  expect((await read(primary)).preferred_payment_method.id).toBe(bank);

  // A deleted payment method is no longer shown, nor accepted.
  expect((await api('DELETE', `/contacts/${contactId}/payment_methods/${bank}`, { key: a.secretKey })).status).toBe(200);
  expect((await read(primary)).preferred_payment_method).toBeNull();
  expectError(await put(primary, { preferred_payment_method_id: bank }), 400, 'INVALID_REQUEST', 'preferred_payment_method_id');
});

test("another organisation's unit or the other organisation itself is no sign-up organisation: 400 naming the field", async () => {
  expectError(await put(primary, { signed_up_organisation_id: otherTenantUnit }), 400, 'INVALID_REQUEST', 'signed_up_organisation_id');
  expectError(await put(primary, { signed_up_organisation_id: b.organisationId }), 400, 'INVALID_REQUEST', 'signed_up_organisation_id');
  expectError(await put(primary, { signed_up_organisation_id: 'not-a-guid' }), 400, 'INVALID_REQUEST', 'signed_up_organisation_id');
});

test('a refused update writes nothing: no row for a fresh account, no change and no audit on an existing one', async () => {
  const fresh = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
  expectError(await put(fresh, { spending_blocked_status: true, signed_up_on: 1700000000, preferred_payment_method_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'preferred_payment_method_id');
  expect(await rewardRow(fresh)).toBeNull();
  const before = await rewardRow(primary);
  const audits = await db.auditEntry.count({ where: { entityId: primary } });
  expectError(await put(primary, { spending_blocked_status: true, signed_up_on: 1700000000, signed_up_organisation_id: otherTenantUnit }), 400, 'INVALID_REQUEST', 'signed_up_organisation_id');
  expect(await rewardRow(primary)).toEqual(before);
  expect(await db.auditEntry.count({ where: { entityId: primary } })).toBe(audits);
});

test('a non-primary account answers 409 NOT_PRIMARY_ACCOUNT, a terminated one refuses writes but reads', async () => {
  expectError(await get(secondary), 409, 'NOT_PRIMARY_ACCOUNT');
  expectError(await put(secondary, { spending_blocked_status: true }), 409, 'NOT_PRIMARY_ACCOUNT');
  expect(await rewardRow(secondary)).toBeNull();

  const other = await contactWithAddresses(a.secretKey, db);
  const ended = await addAccount(a.secretKey, other.id, { name: 'Ended' });
  await markTerminated(root, a.organisationId, ended);
  expectError(await put(ended, { spending_blocked_status: true }), 409, 'ACCOUNT_TERMINATED');
  expect((await get(ended)).body).toMatchObject({ name: 'Ended', spending_blocked_status: false });
});

test("another organisation's account and unknown ids are 404; credentials and scopes are checked", async () => {
  expectError(await get(primary, b.secretKey), 404, 'NOT_FOUND');
  expectError(await put(primary, { spending_blocked_status: true }, { key: b.secretKey }), 404, 'NOT_FOUND');
  expectError(await get(UNKNOWN_ID), 404, 'NOT_FOUND');
  expectError(await put(UNKNOWN_ID, {}), 404, 'NOT_FOUND');
  expectError(await api('GET', `/accounts/${primary}/rewards`), 401, 'INVALID_CREDENTIAL');
  expectError(await api('PUT', `/accounts/${primary}/rewards`, { body: {} }), 401, 'INVALID_CREDENTIAL');
  const accountsOnly = await keyWith(a.secretKey, ['accounts']);
  expectError(await get(primary, accountsOnly), 403, 'FORBIDDEN');
  const reader = await keyWith(a.secretKey, ['rewards:read']);
  expect((await get(primary, reader)).status).toBe(200);
  expectError(await put(primary, { spending_blocked_status: true }, { key: reader }), 403, 'FORBIDDEN');
  expect((await rewardRow(primary))?.spendingBlocked).toBe(false);
});

describe('reward_tier', () => {
  const year = new Date().getUTCFullYear();
  let account: string;
  const tiers: Record<string, string> = {};

  beforeAll(async () => {
    account = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
    const rows = [
      { name: 'Bronze', color: '#CD7F32', position: 1, period: 100, lifetime: 1000 },
      { name: 'Silver', color: '#C0C0C0', position: 2, period: 500, lifetime: 5000 },
      { name: 'Gold', color: '#FFD700', position: 3, period: 2000, lifetime: 20000 },
    ];
    for (const t of rows) {
      tiers[t.name] = newId();
      await db.rewardTier.create({
        data: { id: tiers[t.name], organisationId: a.organisationId, name: t.name, color: t.color, position: t.position, periodValueUnits: new Money(t.period), lifetimeValueUnits: new Money(t.lifetime) },
      });
    }
  });

  const units = async (lifetime: number, period: number, periodYear: number | null) => {
    await db.accountReward.upsert({
      where: { accountId: account },
      create: { accountId: account, organisationId: a.organisationId, lifetimeValueUnits: new Money(lifetime), periodValueUnits: new Money(period), periodYear },
      update: { lifetimeValueUnits: new Money(lifetime), periodValueUnits: new Money(period), periodYear },
    });
    return (await read(account)).reward_tier;
  };

  test('without value units: below the first tier, nothing reached yet', async () => {
    expect((await read(account)).reward_tier).toEqual({ id: null, name: null, color: null, period_value_units: 0, lifetime_value_units: 0, next_tier_progression: 0 });
  });

  test("the tier the account's own units reach, and the share of the way to the next one", async () => {
    expect(await units(1200, 300, year)).toEqual({ id: tiers.Bronze, name: 'Bronze', color: '#CD7F32', period_value_units: 300, lifetime_value_units: 1200, next_tier_progression: 60 });
    expect(await units(50, 20, year)).toEqual({ id: null, name: null, color: null, period_value_units: 20, lifetime_value_units: 50, next_tier_progression: 20 });
    expect(await units(12345.5, 0, year)).toMatchObject({ id: tiers.Silver, lifetime_value_units: 12345.5, next_tier_progression: 61.72 });
    expect(await units(25000, 10, year)).toMatchObject({ id: tiers.Gold, name: 'Gold', next_tier_progression: 100 });
  });

  test("last year's period units no longer count", async () => {
    expect(await units(1200, 450, year - 1)).toEqual({ id: tiers.Bronze, name: 'Bronze', color: '#CD7F32', period_value_units: 0, lifetime_value_units: 1200, next_tier_progression: 24 });
    expect(await units(10, 150, year - 1)).toMatchObject({ id: null, period_value_units: 0, next_tier_progression: 1 });
  });
});
