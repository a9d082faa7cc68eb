// The engine's door (docs/security.md "The engine's door"). Before issue 31 any local process
// could call the embedded Temporal frontend with no credential, and a forged
// accountTerminationWorkflow start (actor: system) closed an account and moved its wallet's
// 500.00 to another account. Now the frontend takes only callers holding its API key, over gRPC
// and HTTP, and independent of any door the activities that move money act only for what the API
// committed: a forged start on any server, embedded or real, moves nothing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { startTemporalServer } from '@backoffice/temporal-server';
import type { Db } from '../../src/db/client';
import { newId } from '../../src/domain/ids';
import { api } from '../support/api';
import { openDatabase } from '../money/helpers';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { connectTemporal, runOutcome } from '../support/temporal';
import { contactWithAccount, credit, expectLedgerHolds, journal, newWallet } from '../wallets/setup';

let tenant: Tenant;
let db: Db;
let connection: Connection;
let client: Client;
const started: WorkflowHandle[] = [];

beforeAll(async () => {
  tenant = await createTenant('Engine door');
  db = openDatabase();
  connection = await connectTemporal();
  client = new Client({ connection });
});

afterAll(async () => {
  for (const h of started) await h.terminate('test over').catch(() => undefined);
  await connection?.close();
  await db?.$disconnect();
});

afterEach(async () => expectLedgerHolds(db, tenant.organisationId));

const UNAUTHENTICATED = 16;

/** The gRPC status a call with these options gets (0 when it is let in). */
async function grpcStatus(options: { address: string; apiKey?: string; tls?: false }): Promise<number> {
  try {
    const c = await Connection.connect({ ...options, connectTimeout: 5_000 });
    try {
      await c.workflowService.listWorkflowExecutions({ namespace: 'default', pageSize: 1 });
      return 0;
    } finally {
      await c.close();
    }
  } catch (err) {
    // Connection.connect wraps the status of its first call.
    const e = err as { code?: number; cause?: { code?: number } };
    return e.code ?? e.cause?.code ?? -1;
  }
}

describe('the frontend takes only callers holding its key', () => {
  const KEY = 'engine-door-test-key-0123456789abcdef0123';
  let server: Awaited<ReturnType<typeof startTemporalServer>>;
  beforeAll(async () => {
    server = await startTemporalServer({ port: 0, httpPort: 0, apiKey: KEY });
  });
  afterAll(() => server?.close());

  test('gRPC: none or a wrong key is UNAUTHENTICATED, the key is let in', async () => {
    expect(await grpcStatus({ address: server.address })).toBe(UNAUTHENTICATED);
    expect(await grpcStatus({ address: server.address, apiKey: `${KEY}x`, tls: false })).toBe(UNAUTHENTICATED);
    expect(await grpcStatus({ address: server.address, apiKey: KEY, tls: false })).toBe(0);
  });

  test('HTTP API: 401 without the key, and no cross-origin grants to any origin', async () => {
    const url = `http://${server.httpAddress}/api/v1/namespaces/default/workflows`;
    const none = await fetch(url);
    expect([none.status, ((await none.json()) as { code: number }).code]).toEqual([401, UNAUTHENTICATED]);
    expect((await fetch(url, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
    // A page on a loopback origin (the attack of the audit) gets nothing, with or without the key.
    const preflight = await fetch(url, { method: 'OPTIONS', headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-credentials')]).toEqual([403, null, null]);
    const fromPage = await fetch(url, { headers: { Origin: 'http://127.0.0.1:8233', Authorization: `Bearer ${KEY}` } });
    expect([fromPage.status, fromPage.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  test("the service's own embedded server has the door: its key sits in the data directory", async () => {
    const keyFile = path.join(testState().dataDir, 'temporal-api-key');
    if (!existsSync(keyFile)) {
      // The real-Temporal pass: the service connects to TEMPORAL_ADDRESS and starts no server of its own.
      console.log(`engine-door: the shared service runs on ${testState().temporalAddress} (TEMPORAL_ADDRESS), not the embedded server: its door is checked in the embedded pass`);
      expect(process.env.TEMPORAL_ADDRESS).toBeTruthy();
      return;
    }
    expect(await grpcStatus({ address: testState().temporalAddress })).toBe(UNAUTHENTICATED);
  });
});

async function start(type: string, workflowId: string, input: object): Promise<WorkflowHandle> {
  const handle = await client.workflow.start(type, { taskQueue: 'backoffice', workflowId, args: [input] });
  started.push(handle);
  return handle;
}

describe('a forged start moves no money, whoever holds the frontend', () => {
  test('an account termination nobody asked for: refused, the account open, its 500.00 where it was', async () => {
    const key = tenant.secretKey;
    const victim = await contactWithAccount(key, db);
    const thief = await contactWithAccount(key, db);
    const walletId = await newWallet(key, victim.accountId);
    await credit(key, walletId, 500);
    const before = await db.wallet.findUniqueOrThrow({ where: { id: walletId } });

    // The audit's start, on its deterministic id and on any other.
    const input = { organisationId: tenant.organisationId, accountId: victim.accountId, targetAccountId: thief.accountId, actor: { type: 'system', id: 'forged' } };
    expect(await runOutcome(await start('accountTerminationWorkflow', `account-termination:${victim.accountId}`, input))).toBe('REFUSED NOT_REQUESTED true');
    expect(await runOutcome(await start('accountTerminationWorkflow', `forged:${newId()}`, input))).toBe('REFUSED NOT_REQUESTED true');

    const account = await db.account.findUniqueOrThrow({ where: { id: victim.accountId } });
    expect([account.lifeCycleState, account.terminatingToAccountId]).toEqual(['ACTIVE', null]);
    const wallet = await db.wallet.findUniqueOrThrow({ where: { id: walletId } });
    expect([wallet.lifeCycleState, wallet.balance.toFixed(2)]).toEqual([before.lifeCycleState, '500.00']);
    expect(wallet.lifeCycleState).not.toBe('CANCELLED');
    expect(await db.wallet.count({ where: { accountId: thief.accountId } })).toBe(0);

    // The API's own termination still goes through (its claim is the request).
    const res = await api('POST', `/accounts/${victim.accountId}/life_cycle_state`, { key, body: { life_cycle_state: 'TERMINATED', transfer_to_account_id: thief.accountId } });
    expect([res.status, res.body]).toEqual([200, expect.anything()]);
    const moved = await db.wallet.findFirstOrThrow({ where: { accountId: thief.accountId } });
    expect(moved.balance.toFixed(2)).toBe('500.00');
  });

  test('a top-up for a debit that asked for none: refused, nothing charged or credited', async () => {
    const key = tenant.secretKey;
    const { accountId } = await contactWithAccount(key, db);
    const walletId = await newWallet(key, accountId);
    await credit(key, walletId, 20);
    // Two debits without auto top-up (none asked for one), then the wallet gets one: under its threshold now.
    const debit = (await journal(key, { wallet_id: walletId, amount: 5, type: 'DEBIT' })).body.id as string;
    expect((await journal(key, { wallet_id: walletId, amount: 12, type: 'DEBIT' })).status).toBe(200);
    expect((await api('PUT', `/wallets/${walletId}`, { key, body: { auto_topup: { threshold: 10, amount: 50, payment_method: 'CARD' } } })).status).toBe(200);

    const input = { organisationId: tenant.organisationId, causeId: debit, currencyCode: 'EUR' };
    expect(await runOutcome(await start('walletTopupWorkflow', `wallet-topup:${debit}`, input))).toBe('REFUSED NOT_REQUESTED true');
    expect(await db.walletTransaction.count({ where: { walletId, classification: 'TOPUP' } })).toBe(0);
    expect((await db.wallet.findUniqueOrThrow({ where: { id: walletId } })).balance.toFixed(2)).toBe('3.00');
  });
});
