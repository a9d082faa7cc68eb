// Expiry runs as a Temporal workflow on the service's worker (docs/money.md "Expiry"): the daily
// schedule exists (and ensuring it again repairs it), and a run expires what is past valid_to exactly once.
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import pino from 'pino';
import { ensureRecurringSchedules } from '../../src/temporal/schedules';
import type { Db } from '../../src/db/client';
import { openDatabase } from '../money/helpers';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, credit, expectLedgerHolds, newWallet, walletOf } from './setup';
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
afterAll(async () => {
  await connection?.close();
  await db?.$disconnect();
});

const runExpiry = async () => client.workflow.execute('ledgerExpiryWorkflow', { taskQueue: 'backoffice', workflowId: `expiry-test-${Date.now()}-${Math.random()}` });

test('the daily expiry is the schedule ledger-expiry; ensuring it undoes a changed spec and an old cron run', async () => {
  const schedule = client.schedule.getHandle('ledger-expiry');
  const described = await schedule.describe();
  expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'ledgerExpiryWorkflow', workflowId: 'ledger-expiry', taskQueue: 'backoffice' });
  expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 2, end: 2, step: 1 }], minute: [{ start: 0, end: 0, step: 1 }] });
  expect(described.info.nextActionTimes[0].toISOString()).toMatch(/T02:00:00\.000Z$/);
  expect(described.policies).toMatchObject({ overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 86_400_000 });

  // What an older deployment left (the cron workflow under the same id) and someone's edit of the time.
  const cron = await client.workflow.start('ledgerExpiryWorkflow', { workflowId: 'ledger-expiry', taskQueue: 'backoffice', cronSchedule: '0 2 * * *' });
  await schedule.update((s) => ({ spec: { cronExpressions: ['0 3 * * *'] }, action: s.action, policies: s.policies, state: s.state }));
  await ensureRecurringSchedules(client, 'backoffice', pino({ level: 'silent' }));
  expect((await cron.describe()).status.name).toBe('TERMINATED');
  const ensured = await schedule.describe();
  expect(ensured.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 2, end: 2, step: 1 }] });
  expect(ensured.info.nextActionTimes[0].getUTCHours()).toBe(2);
  expect(ensured.state.paused).toBe(false);
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
