// Auto top-up (docs/money.md "Auto top-up"): a debit under the threshold starts the top-up
// workflow (its intent commits with the debit) on the service's worker, which charges the test
// gateway and credits the wallet once.
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { openDatabase } from '../money/helpers';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, credit, expectLedgerHolds, journal, newWallet, walletOf } from './setup';
import { connectTemporal } from '../support/temporal';

let tenant: Tenant;
let db: Db;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  tenant = await createTenant();
  db = openDatabase();
  connection = await connectTemporal();
  client = new Client({ connection });
});
afterEach(async () => expectLedgerHolds(db, tenant.organisationId));
afterAll(async () => {
  await connection?.close();
  await db?.$disconnect();
});

/** The top-up's result; the outbox dispatcher starts it right after the debit's commit, which the answer may precede. */
async function outcome(debitId: string): Promise<unknown> {
  const handle = client.workflow.getHandle(`wallet-topup:${debitId}`);
  for (const until = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 50))) {
    try {
      return await handle.result();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError) || Date.now() > until) throw err;
    }
  }
}

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
