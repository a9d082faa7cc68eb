// GET /accounts/{id}/financials: the account's figures, every wallet with the ledger's figures
// and the settings' defaults where it sets none, and the latest closed accounting period.
import { checkLedger } from '../../src/domain/money/ledger/check';
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { addAccount, contactWithAddresses, createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Financials A'), createTenant('Financials B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const settings = { default_wallet_minimum_balance: -20, limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', maximum_amount: 300 }] };
  expect((await api('PUT', '/settings', { key: a.secretKey, body: settings })).status).toBe(200);
});

// Every money test ends with the ledger's invariants (docs/money.md "Proof").
afterEach(async () => expect(await checkLedger(root, a.organisationId)).toEqual([]));

afterAll(async () => {
  await root?.$disconnect();
});

const financials = (id: string, key = a.secretKey) => api('GET', `/accounts/${id}/financials`, { key });
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

test('an account without wallets, before any period is closed', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const cls = await createId(a.secretKey, '/account_classifications', { code: `FIN-${Date.now()}`, name: 'Business' });
  const id = await addAccount(a.secretKey, c.id, { name: 'Main', classification_id: cls, credit_limit: 150.5 });
  const res = await financials(id);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    name: 'Main', number: expect.stringMatching(/^\d{10}$/), is_primary: true, life_cycle_state: 'ACTIVE', currency_code: 'EUR',
    balance: 0, overdue_amount: 0, credit_limit: 150.5, accounting_period_id: null, accounting_period_name: null, opening_balance: 0,
    classification: { id: cls, name: 'Business' }, wallet: [],
    billing_address: { id: c.addressIds[0], address_line_1: '1 Main St', address_line_2: null, state_province_county: null, town_city: 'Nicosia', postal_code: '1000', country_code: 'CYP' },
    custom_fields: [],
  });
});

test("every wallet with its figures; a wallet's own minimum and rules, else the settings'", async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const id = await addAccount(a.secretKey, c.id, { billing_address_id: null });
  const plain = await createId(a.secretKey, `/accounts/${id}/wallets`, {});
  const own = await createId(a.secretKey, `/accounts/${id}/wallets`, {
    minimum_balance: 5, limit_rules: [{ period: 'ANNUAL', transaction_type: 'TRANSFER', minimum_amount: 1, limit_amount: 1000 }],
    auto_topup: { threshold: 10.5, amount: 50, payment_method: 'CARD' },
  });
  const gone = await createId(a.secretKey, `/accounts/${id}/wallets`, {});
  expect((await api('POST', `/wallets/${gone}/cancel`, { key: a.secretKey, body: {} })).status).toBe(200);
  await createId(a.secretKey, '/journals', { wallet_id: plain, amount: 40, type: 'CREDIT' });
  await createId(a.secretKey, '/journals', { wallet_id: plain, amount: '2.5', type: 'CREDIT', valid_from: now() + 10 * DAY });
  await createId(a.secretKey, '/journals', { wallet_id: own, amount: 7, type: 'CREDIT' });

  const res = await financials(id);
  expect(res.status).toBe(200);
  expect(res.body.billing_address).toBeNull();
  const codes = new Map((await db.wallet.findMany({ where: { accountId: id } })).map((w) => [w.id, w.code]));
  expect(res.body.wallet).toEqual([
    {
      id: plain, code: codes.get(plain), balance: 42.5, commerce_balance: 40, open_balance: 2.5, life_cycle_state: 'EFFECTIVE', minimum_balance: -20,
      limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: null, maximum_amount: 300 }], auto_topup: null,
    },
    {
      id: own, code: codes.get(own), balance: 7, commerce_balance: 7, open_balance: 0, life_cycle_state: 'EFFECTIVE', minimum_balance: 5,
      limit_rules: [{ period: 'ANNUAL', transaction_type: 'TRANSFER', minimum_amount: 1, maximum_amount: 1000 }],
      auto_topup: { threshold: 10.5, amount: 50, payment_method: 'CARD', payment_method_id: null },
    },
    expect.objectContaining({ id: gone, life_cycle_state: 'CANCELLED', balance: 0 }),
  ]);
});

test('the latest closed period and the balance brought forward from it', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const id = await addAccount(a.secretKey, c.id);
  const start = now() - 40 * DAY;
  const period = await createId(a.secretKey, '/accounting_periods', { name: 'Last month', start_date: start, end_date: start + 30 * DAY });
  expect((await api('POST', `/accounting_periods/${period}/close`, { key: a.secretKey })).status).toBe(200);
  expect((await financials(id)).body).toMatchObject({ accounting_period_id: period, accounting_period_name: 'Last month', opening_balance: 0 });
});

test('404 for another organisation and unknown ids; 403 without accounts:read', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const id = await addAccount(a.secretKey, c.id);
  expectError(await financials(id, b.secretKey), 404, 'NOT_FOUND');
  expectError(await financials(UNKNOWN_ID), 404, 'NOT_FOUND');
  expectError(await financials(id, await keyWith(a.secretKey, ['contacts', 'wallets'])), 403, 'FORBIDDEN');
});
