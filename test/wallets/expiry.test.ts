// Expiry runs as a Temporal workflow on the service's worker (docs/money.md "Expiry"): the daily
// cron run exists, and a run expires what is past valid_to exactly once.
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { openDatabase } from '../money/helpers';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, credit, expectLedgerHolds, newWallet, walletOf } from './setup';

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
afterAll(async () => {
  await connection?.close();
  await db?.$disconnect();
});

const runExpiry = async () => client.workflow.execute('ledgerExpiryWorkflow', { taskQueue: 'backoffice', workflowId: `expiry-test-${Date.now()}-${Math.random()}` });

test('the daily expiry workflow is scheduled once, under its fixed id', async () => {
  const described = await client.workflow.getHandle('ledger-expiry').describe();
  expect(described.status.name).toBe('RUNNING');
  expect(described.type).toBe('ledgerExpiryWorkflow');
});

test('a run expires what remains of lots past valid_to, once; spent parts and live lots stay', async () => {
  const key = tenant.secretKey;
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const past = Math.floor(Date.now() / 1000) - 5;
  await credit(key, walletId, 10, { valid_to: past });
  await credit(key, walletId, 4);
  expect((await walletOf(key, contactId, walletId)).balance).toBe(14);
  expect(await runExpiry()).toBeGreaterThanOrEqual(1);
  expect(await walletOf(key, contactId, walletId)).toMatchObject({ balance: 4, commerce_balance: 4 });
  const expiries = await db.walletTransaction.findMany({ where: { walletId, classification: 'EXPIRY' } });
  expect(expiries.map((t) => t.amount.toFixed())).toEqual(['10']);
  await runExpiry();
  expect(await db.walletTransaction.count({ where: { walletId, classification: 'EXPIRY' } })).toBe(1);
  await expectLedgerHolds(db, tenant.organisationId);
});
