// Voids, the contact's transaction list, and concurrency on one wallet (docs/money.md), over
// HTTPS; the ledger check after each test.
import type { Db } from '../../src/db/client';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { contactWithAccount, credit, expectLedgerHolds, journal, newWallet, walletOf } from './setup';

let tenant: Tenant;
let db: Db;
let key: string;

beforeAll(async () => {
  tenant = await createTenant();
  key = tenant.secretKey;
  db = openDatabase();
});
afterEach(async () => expectLedgerHolds(db, tenant.organisationId));
afterAll(async () => db?.$disconnect());

const voidOf = (contact: string, transaction: string) => api('POST', `/contacts/${contact}/wallet_transactions/${transaction}`, { key, body: { custom_fields: [{ key: 'reason', value: 'test' }] } });

test('voiding a debit gives its lots back with their conditions; a second void is refused', async () => {
  const { contactId, code, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const condition = (await api('POST', '/spend_conditions', { key, body: { name: `Void ${Date.now()}` } })).body.id;
  await credit(key, walletId, 10, { spend_condition_id: condition });
  const debit = (await journal(key, { wallet_id: walletId, amount: 7, type: 'DEBIT', spend_condition_id: condition })).body.id;
  expect((await voidOf(code, debit)).status).toBe(200);
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: 10, conditional_balance: 10 });
  expectError(await voidOf(contactId, debit), 409, 'ALREADY_VOID', undefined);
  const list = await api('GET', `/contacts/${contactId}/wallet_transactions?sort=number&order=ASC`, { key });
  expect(list.body.content.map((t: any) => [t.classification, t.life_cycle_state, t.amount])).toEqual([
    ['CREDIT', 'POSTED', 10], ['DEBIT', 'VOID', 7], ['VOID', 'POSTED', 7],
  ]);
  expect(list.body.paging).toEqual({ page: 1, size: 20, total: 3 });
  const voided = await db.walletTransaction.findUniqueOrThrow({ where: { id: debit } });
  expect(voided.customFields).toEqual([{ key: 'reason', value: 'test' }]);
});

test('voiding a credit takes it back; once part of it is spent the void is refused', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const whole = await credit(key, walletId, 5);
  expect((await voidOf(contactId, whole)).status).toBe(200);
  expect((await walletOf(key, contactId, walletId)).balance).toBe(0);
  const spent = await credit(key, walletId, 5);
  await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' });
  expectError(await voidOf(contactId, spent), 409, 'INSUFFICIENT_BALANCE', undefined);
  expect(await db.walletTransaction.count({ where: { walletId, classification: 'VOID' } })).toBe(1);
  expectError(await voidOf(contactId, UNKNOWN_ID), 404, 'NOT_FOUND');
  const { contactId: stranger } = await contactWithAccount(key, db);
  expectError(await voidOf(stranger, spent), 404, 'NOT_FOUND');
});

test('the transaction list filters by classification, state and creation date', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const before = Math.floor(Date.now() / 1000) - 1;
  await credit(key, walletId, 3, { valid_to: before + 86400 * 400 });
  await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' });
  const q = (s: string) => api('GET', `/contacts/${contactId}/wallet_transactions?${s}`, { key }).then((r) => r.body.content.map((t: any) => t.classification));
  expect(await q('classification=DEBIT')).toEqual(['DEBIT']);
  expect(await q('life_cycle_state=VOID')).toEqual([]);
  expect(await q(`created_on_to=${before - 1}`)).toEqual([]);
  expect((await q(`created_on_from=${before}&sort=created_on&order=DESC`)).sort()).toEqual(['CREDIT', 'DEBIT']);
  const first = (await api('GET', `/contacts/${contactId}/wallet_transactions?classification=CREDIT`, { key })).body.content[0];
  expect(first).toMatchObject({ wallet_id: walletId, account_id: accountId, amount: 3, currency_code: 'EUR', created_by: { id: expect.any(String) } });
  expect(first.expiration_date).toBe(before + 86400 * 400);
  expectError(await api('GET', `/contacts/${contactId}/wallet_transactions?kind=x`, { key }), 400, 'INVALID_REQUEST', 'kind');
});

test('100 concurrent debits on one wallet never overspend', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  await credit(key, walletId, 50);
  const results = await Promise.all(Array.from({ length: 100 }, () => journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' })));
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(50);
  expect(statuses.filter((s) => s === 409)).toHaveLength(50);
  expect((await walletOf(key, contactId, walletId)).balance).toBe(0);
});

test('two racing voids of one transaction: one wins, the other is ALREADY_VOID', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const t = await credit(key, walletId, 9);
  const [a, b] = await Promise.all([voidOf(contactId, t), voidOf(contactId, t)]);
  expect([a.status, b.status].sort()).toEqual([200, 409]);
  expect([a.body.code, b.body.code]).toContain('ALREADY_VOID');
  expect((await walletOf(key, contactId, walletId)).balance).toBe(0);
});
