// Auto top-up (docs/money.md "Auto top-up"): a debit under the threshold starts the top-up
// workflow on the service's worker, which charges the test gateway and credits the wallet once.
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { openDatabase } from '../money/helpers';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, credit, expectLedgerHolds, journal, newWallet, walletOf } from './setup';

let tenant: Tenant;
let db: Db;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  tenant = await createTenant();
  db = openDatabase();
  connection = await Connection.connect({ address: testState().temporalAddress });
  client = new Client({ connection });
});
afterEach(async () => expectLedgerHolds(db, tenant.organisationId));
afterAll(async () => {
  await connection?.close();
  await db?.$disconnect();
});

const outcome = (debitId: string) => client.workflow.getHandle(`wallet-topup:${debitId}`).result();

test('a debit that leaves the balance under the threshold tops the wallet up once; one above it does not', async () => {
  const key = tenant.secretKey;
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId, { auto_topup: { threshold: 10, amount: 50, payment_method: 'CARD' } });
  await credit(key, walletId, 20);
  const above = (await journal(key, { wallet_id: walletId, amount: 5, type: 'DEBIT' })).body.id;
  const below = (await journal(key, { wallet_id: walletId, amount: 6, type: 'DEBIT' })).body.id;
  expect(await outcome(below)).toBe('CREDITED');
  await expect(client.workflow.getHandle(`wallet-topup:${above}`).describe()).rejects.toThrow();
  expect((await walletOf(key, contactId, walletId)).balance).toBe(59);
  const topups = await db.walletTransaction.findMany({ where: { walletId, classification: 'TOPUP' } });
  expect(topups.map((t) => t.amount.toFixed())).toEqual(['50']);
});

test('a declined charge credits nothing', async () => {
  const key = tenant.secretKey;
  const { contactId, accountId } = await contactWithAccount(key, db);
  // The test gateway declines amounts ending in .13.
  const walletId = await newWallet(key, accountId, { auto_topup: { threshold: 10, amount: 25.13, payment_method: 'CARD' } });
  await credit(key, walletId, 12);
  const debit = (await journal(key, { wallet_id: walletId, amount: 4, type: 'DEBIT' })).body.id;
  expect(await outcome(debit)).toBe('DECLINED');
  expect((await walletOf(key, contactId, walletId)).balance).toBe(8);
  expect(await db.walletTransaction.count({ where: { walletId, classification: 'TOPUP' } })).toBe(0);
});
