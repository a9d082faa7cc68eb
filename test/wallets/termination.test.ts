// POST /accounts/{id}/life_cycle_state (docs/money.md "Account termination", docs/accounts.md):
// the moves, the refusals answered before any workflow starts, and a termination end to end.
import type { Db } from '../../src/db/client';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
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

const move = (accountId: string, body: object, k = key) => api('POST', `/accounts/${accountId}/life_cycle_state`, { key: k, body });

test('ACTIVE ⇄ SUSPENDED; a suspended account\'s wallets take credits only', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  await credit(key, walletId, 5);
  expect((await move(accountId, { life_cycle_state: 'SUSPENDED' })).status).toBe(200);
  expectError(await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' }), 409, 'ACCOUNT_SUSPENDED', 'wallet_id');
  expect((await move(accountId, { life_cycle_state: 'SUSPENDED' })).status).toBe(200);
  expect((await move(accountId, { life_cycle_state: 'ACTIVE' })).status).toBe(200);
  expect((await journal(key, { wallet_id: walletId, amount: 1, type: 'DEBIT' })).status).toBe(200);
});

test('refusals before anything moves: no target, itself, unknown, another organisation\'s, another currency', async () => {
  const { accountId } = await contactWithAccount(key, db);
  const { accountId: dollars } = await contactWithAccount(key, db, 'USD');
  const { accountId: theirs } = await contactWithAccount(other.secretKey, db);
  expectError(await move(accountId, { life_cycle_state: 'TERMINATED' }), 400, 'INVALID_REQUEST', 'transfer_to_account_id');
  expectError(await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: accountId }), 400, 'INVALID_REQUEST', 'transfer_to_account_id');
  expectError(await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'transfer_to_account_id');
  expectError(await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: theirs }), 400, 'INVALID_REQUEST', 'transfer_to_account_id');
  expectError(await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: dollars }), 400, 'INVALID_REQUEST', 'transfer_to_account_id');
  expectError(await move(theirs, { life_cycle_state: 'SUSPENDED' }), 404, 'NOT_FOUND', undefined);
  expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).lifeCycleState).toBe('ACTIVE');
});

test('termination moves every wallet lot by lot into the target, cancels them, and is final', async () => {
  const { accountId, contactId } = await contactWithAccount(key, db);
  const { accountId: target, contactId: targetContact } = await contactWithAccount(key, db);
  const condition = (await api('POST', '/spend_conditions', { key, body: { name: `Term ${Date.now()}` } })).body.id;
  const a = await newWallet(key, accountId);
  const b = await newWallet(key, accountId);
  await credit(key, a, 7, { spend_condition_id: condition });
  await credit(key, a, 3);
  await journal(key, { wallet_id: b, amount: 2, type: 'DEBIT', allow_negative_balance: true });
  expect((await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: target })).status).toBe(200);

  const [moved] = await db.wallet.findMany({ where: { accountId: target } });
  expect(await walletOf(key, targetContact, moved.id)).toMatchObject({ balance: 8, conditional_balance: 7, unconditional_balance: 1 });
  for (const w of [a, b]) expect(await walletOf(key, contactId, w)).toMatchObject({ balance: 0, life_cycle_state: 'CANCELLED' });
  const transfers = await api('GET', `/contacts/${targetContact}/wallet_transactions?classification=TRANSFER`, { key });
  expect(transfers.body.paging.total).toBe(2);

  expect((await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: target })).status).toBe(200);
  expect(await db.walletTransaction.count({ where: { accountId: target, classification: 'TRANSFER' } })).toBe(2);
  expectError(await move(accountId, { life_cycle_state: 'ACTIVE' }), 409, 'INVALID_STATE_TRANSITION', 'life_cycle_state');
  const { accountId: elsewhere } = await contactWithAccount(key, db);
  expectError(await move(accountId, { life_cycle_state: 'TERMINATED', transfer_to_account_id: elsewhere }), 409, 'ACCOUNT_TERMINATED', 'life_cycle_state');
  expectError(await journal(key, { wallet_id: a, amount: 1, type: 'CREDIT' }), 409, 'WALLET_CANCELLED', 'wallet_id');
  expectError(await api('POST', `/accounts/${accountId}/wallets`, { key, body: {} }), 409, 'ACCOUNT_TERMINATED', undefined);
});
