// Journals, lots, balances and refusals (docs/money.md), over HTTPS; the ledger check after each.
import type { Db } from '../../src/db/client';
import { txSql } from '../../src/db/sql';
import { postJournal } from '../../src/domain/money/ledger/journal';
import { Money } from '../../src/domain/money';
import { getSettingsSql } from '../../src/domain/money/settings';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { contactWithAccount, credit, expectLedgerHolds, journal, newWallet, walletOf } from './setup';

let tenant: Tenant;
let other: Tenant;
let db: Db;
let key: string;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  key = tenant.secretKey;
  db = openDatabase();
});
afterEach(async () => expectLedgerHolds(db, tenant.organisationId));
afterAll(async () => db?.$disconnect());

test('a wallet gets a 16-digit code and its account\'s currency; credits and debits move its balance', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db, 'USD');
  const walletId = await newWallet(key, accountId);
  const stored = await db.wallet.findUniqueOrThrow({ where: { id: walletId } });
  expect(stored.code).toMatch(/^[1-9]\d{15}$/);
  expect(stored.currencyCode).toBe('USD');

  await credit(key, walletId, 100.25);
  const debit = await journal(key, { wallet_id: walletId, amount: '40.1', type: 'debit' });
  expect(debit.status).toBe(200);
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: 60.15, unconditional_balance: 60.15, conditional_balance: 0, commerce_balance: 60.15, currency_code: 'USD', number: stored.code });
  // 0.1 + 0.2 in binary floats is not 0.3; in the ledger it is.
  await credit(key, walletId, 0.1);
  await credit(key, walletId, 0.2);
  expect((await walletOf(key, contactId, walletId)).balance).toBe(60.45);
});

test('a debit below the minimum balance is refused unless allow_negative_balance; a later credit pays the debt first', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  await credit(key, walletId, 10);
  expectError(await journal(key, { wallet_id: walletId, amount: 10.01, type: 'DEBIT' }), 409, 'INSUFFICIENT_BALANCE', 'amount');
  expect((await journal(key, { wallet_id: walletId, amount: 15, type: 'DEBIT', allow_negative_balance: true })).status).toBe(200);
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: -5, commerce_balance: -5 });
  await credit(key, walletId, 8);
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: 3, commerce_balance: 3 });
  // A wallet with a negative minimum may go below zero on its own.
  const overdraft = await newWallet(key, accountId, { minimum_balance: -20 });
  expect((await journal(key, { wallet_id: overdraft, amount: 20, type: 'DEBIT' })).status).toBe(200);
  expectError(await journal(key, { wallet_id: overdraft, amount: 0.01, type: 'DEBIT' }), 409, 'INSUFFICIENT_BALANCE', 'amount');
});

test('restricted lots: a debit spends its spend condition\'s lots first, soonest-expiring first; others cannot touch them', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const condition = await createId(key, '/spend_conditions', { name: `Cafe ${Date.now()}`, timings: [] });
  const soon = Math.floor(Date.now() / 1000) + 10 * 86400;
  const later = Math.floor(Date.now() / 1000) + 45 * 86400;
  await credit(key, walletId, 30, { spend_condition_id: condition, valid_to: later });
  await credit(key, walletId, 20, { spend_condition_id: condition, valid_to: soon });
  await credit(key, walletId, 5);
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: 55, conditional_balance: 50, unconditional_balance: 5 });
  // Without the condition only the 5 unrestricted are spendable.
  expectError(await journal(key, { wallet_id: walletId, amount: 6, type: 'DEBIT' }), 409, 'INSUFFICIENT_BALANCE', 'amount');
  expect((await journal(key, { wallet_id: walletId, amount: 25, type: 'DEBIT', spend_condition_id: condition })).status).toBe(200);
  const lots = await db.lot.findMany({ where: { walletId }, orderBy: { validTo: 'asc' } });
  expect(lots.map((l) => [l.validTo === null ? null : Math.round(l.validTo.getTime() / 1000), l.remaining.toFixed()])).toEqual([[soon, '0'], [later, '25'], [null, '5']]);

  const balances = await api('GET', `/wallets/${walletId}/balances?include_expiration=true`, { key });
  expect(balances.status).toBe(200);
  expect(balances.body).toEqual([
    expect.objectContaining({ id: condition, amount: 25, expiration: { zero_to_thirty: 0, thirty_to_sixty: 25, sixty_to_ninety: 0, ninety_plus: 0 } }),
    expect.objectContaining({ id: null, name: null, amount: 5, expiration: { zero_to_thirty: 0, thirty_to_sixty: 0, sixty_to_ninety: 0, ninety_plus: 5 } }),
  ]);
  expect(balances.body[0].name).toMatch(/^Cafe/);
  const only = await api('GET', `/wallets/${walletId}/balances?spend_condition_id=${condition}`, { key });
  expect(only.body.map((b: { id: string }) => b.id)).toEqual([condition]);
  expect(only.body[0].expiration).toBeUndefined();
});

test('a credit not valid yet is open balance, not commerce balance; a window must end after it starts', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const from = Math.floor(Date.now() / 1000) + 86400;
  await credit(key, walletId, 12, { valid_from: from });
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: 12, open_balance: 12, commerce_balance: 0 });
  expectError(await journal(key, { wallet_id: walletId, amount: 12, type: 'DEBIT' }), 409, 'INSUFFICIENT_BALANCE', 'amount');
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'CREDIT', valid_from: from, valid_to: from }), 400, 'INVALID_REQUEST', 'valid_to');
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT', valid_to: from }), 400, 'INVALID_REQUEST', 'valid_to');
});

test('limit rules: the wallet\'s own, else the settings\' global ones; a breach names the rule', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId, { limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: 2, maximum_amount: 50 }] });
  await credit(key, walletId, 200);
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' }), 409, 'LIMIT_EXCEEDED', 'limit_rules.0');
  expect((await journal(key, { wallet_id: walletId, amount: 30, type: 'DEBIT' })).status).toBe(200);
  expectError(await journal(key, { wallet_id: walletId, amount: 21, type: 'DEBIT' }), 409, 'LIMIT_EXCEEDED', 'limit_rules.0');
  expect((await journal(key, { wallet_id: walletId, amount: 20, type: 'DEBIT' })).status).toBe(200);

  const own = await contactWithAccount(other.secretKey, db);
  const globalWallet = await newWallet(other.secretKey, own.accountId);
  expect((await api('PUT', '/settings', { key: other.secretKey, body: { limit_rules: [{ period: 'ANNUAL', transaction_type: 'DEBIT', limit_amount: 5 }] } })).status).toBe(200);
  await credit(other.secretKey, globalWallet, 10);
  expectError(await journal(other.secretKey, { wallet_id: globalWallet, amount: 6, type: 'DEBIT' }), 409, 'LIMIT_EXCEEDED', 'limit_rules.0');
  await expectLedgerHolds(db, other.organisationId);
});

test('wallet life cycle: suspended takes credits only, cancelled takes nothing and is final', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  await credit(key, walletId, 10);
  expect((await api('POST', `/wallets/${walletId}/actions`, { key, body: { action: 'SUSPENDED' } })).status).toBe(200);
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' }), 409, 'WALLET_SUSPENDED', 'wallet_id');
  expect((await journal(key, { wallet_id: walletId, amount: 1, type: 'CREDIT' })).status).toBe(200);
  expect((await api('POST', `/wallets/${walletId}/actions`, { key, body: { action: 'EFFECTIVE' } })).status).toBe(200);
  expect((await api('POST', `/wallets/${walletId}/cancel`, { key, body: { custom_fields: [{ key: 'reason', value: 'test' }] } })).status).toBe(200);
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'CREDIT' }), 409, 'WALLET_CANCELLED', 'wallet_id');
  expectError(await api('POST', `/wallets/${walletId}/actions`, { key, body: { action: 'EFFECTIVE' } }), 409, 'INVALID_STATE_TRANSITION', 'action');
  expectError(await api('PUT', `/wallets/${walletId}`, { key, body: { minimum_balance: 1 } }), 409, 'WALLET_CANCELLED', undefined);
  expect((await api('POST', `/wallets/${walletId}/cancel`, { key, body: {} })).status).toBe(200);
});

test('another organisation\'s wallet is not found; bad input names the field; scopes apply', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  expectError(await journal(other.secretKey, { wallet_id: walletId, amount: 1, type: 'CREDIT' }), 400, 'INVALID_REQUEST', 'wallet_id');
  expectError(await api('GET', `/wallets/${walletId}/balances`, { key: other.secretKey }), 404, 'NOT_FOUND', undefined);
  expectError(await api('POST', `/accounts/${accountId}/wallets`, { key: other.secretKey, body: {} }), 404, 'NOT_FOUND', undefined);
  expectError(await journal(key, { wallet_id: UNKNOWN_ID, amount: 1, type: 'CREDIT' }), 400, 'INVALID_REQUEST', 'wallet_id');
  expectError(await journal(key, { wallet_id: walletId, amount: 0, type: 'CREDIT' }), 400, 'INVALID_REQUEST', 'amount');
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'SIDEWAYS' }), 400, 'INVALID_REQUEST', 'type');
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'CREDIT', spend_condition_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'spend_condition_id');
  const readOnly = await keyWith(key, ['wallets:read']);
  expectError(await journal(readOnly, { wallet_id: walletId, amount: 1, type: 'CREDIT' }), 403, 'FORBIDDEN', undefined);
  expect(await db.walletTransaction.count({ where: { walletId } })).toBe(0);
});

test('entries are append-only: the database refuses to change or delete one', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  await credit(key, walletId, 1);
  await expect(db.$executeRawUnsafe('UPDATE ledger_entries SET amount = 2 WHERE wallet_id = $1::uuid', walletId)).rejects.toThrow(/append-only/);
  await expect(db.$executeRawUnsafe('DELETE FROM ledger_entries WHERE wallet_id = $1::uuid', walletId)).rejects.toThrow(/append-only/);
});

test('the contact read and search show the money: total_spend of the last 12 months, primary account and wallet', async () => {
  const { contactId, code, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  await credit(key, walletId, 100);
  await journal(key, { wallet_id: walletId, amount: 30.5, type: 'DEBIT' });
  const voided = (await journal(key, { wallet_id: walletId, amount: 9, type: 'DEBIT' })).body.id;
  expect((await api('POST', `/contacts/${contactId}/wallet_transactions/${voided}`, { key, body: {} })).status).toBe(200);
  expect((await api('GET', `/contacts/${code}`, { key })).body.total_spend).toBe(30.5);
  const found = await api('GET', `/contacts?code=${encodeURIComponent(code)}&financials=true`, { key });
  expect(found.body.contacts[0].financials).toEqual({
    account: expect.objectContaining({ id: accountId, balance: 0, overdue_amount: 0 }),
    wallet: expect.objectContaining({ id: walletId, balance: 69.5, wallet_currency_code: 'EUR', alternative_balance: null }),
  });
});

test('a journal retried with the same Idempotency-Key is written once and answered the same', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const body = { wallet_id: walletId, amount: 3, type: 'CREDIT' };
  const headers = { 'idempotency-key': `journal-${Date.now()}` };
  const first = await api('POST', '/journals', { key, body, headers });
  const again = await api('POST', '/journals', { key, body, headers });
  expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
  expect(again.body.id).toBe(first.body.id);
  expect(await db.walletTransaction.count({ where: { walletId } })).toBe(1);
  // A refusal is remembered too, and nothing is half-written.
  const refused = { wallet_id: walletId, amount: 99, type: 'DEBIT' };
  const h2 = { 'idempotency-key': `refused-${Date.now()}` };
  expectError(await api('POST', '/journals', { key, body: refused, headers: h2 }), 409, 'INSUFFICIENT_BALANCE', 'amount');
  expectError(await api('POST', '/journals', { key, body: refused, headers: h2 }), 409, 'INSUFFICIENT_BALANCE', 'amount');
  expect(await db.walletTransaction.count({ where: { walletId } })).toBe(1);
});

test('a debit that waited for the wallet\'s lock spends the credit committed meanwhile', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const { organisationId } = tenant;
  let debit: ReturnType<typeof journal> | undefined;
  await db.$transaction(async (tx) => {
    // This transaction credits the wallet and holds its lock until it commits.
    const sql = txSql(tx, organisationId);
    await postJournal({ sql, actor: { organisationId, actorType: 'system', actorId: 'test' }, settings: () => getSettingsSql(sql) }, { wallet_id: walletId, amount: new Money(5), type: 'CREDIT' });
    debit = journal(key, { wallet_id: walletId, amount: 5, type: 'DEBIT' });
    // On PostgreSQL the debit now waits for the lock (the embedded database serialises whole transactions).
    for (let i = 0; i < 50; i++) {
      const [{ waiting }] = await tx.$queryRawUnsafe<Array<{ waiting: number }>>('SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted');
      if (waiting > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  }, { timeout: 20_000 });
  // Its lots are read after the lock, so it sees the credit: a read of the lots taken before
  // the lock was granted would find none and refuse it.
  expect((await debit!).status).toBe(200);
  expect((await walletOf(key, contactId, walletId)).balance).toBe(0);
});

test('concurrent credits and debits on one wallet: no overspend, every accepted journal counted once', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const bodies = Array.from({ length: 60 }, (_, i) => ({ wallet_id: walletId, amount: 1, type: i % 2 ? 'DEBIT' : 'CREDIT' }));
  const results = await Promise.all(bodies.map((body) => journal(key, body)));
  const accepted = (type: string) => results.filter((r, i) => bodies[i].type === type && r.status === 200).length;
  expect(results.every((r) => r.status === 200 || (r.status === 409 && r.body.code === 'INSUFFICIENT_BALANCE'))).toBe(true);
  expect(accepted('CREDIT')).toBe(30);
  expect((await walletOf(key, contactId, walletId)).balance).toBe(30 - accepted('DEBIT'));
  expect(await db.walletTransaction.count({ where: { walletId } })).toBe(30 + accepted('DEBIT'));
});
