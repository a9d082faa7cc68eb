// Account termination survives a kill of the whole service mid-saga (docs/money.md "Account
// termination"): a service of its own is killed with SIGKILL once the first wallet has moved,
// started again on the same data directory, and the workflow finishes without moving any money
// twice.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { checkLedger } from '../../src/domain/money/ledger/check';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { connectTemporal } from '../support/temporal';

const WALLETS = 12;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-termination-'));
// On PostgreSQL a database of its own: the shared service's dispatcher would perform its intents.
const own = ownDatabase('termination_kill');
let service: ServiceProcess | undefined;

beforeAll(() => own.create());

afterAll(async () => {
  await service?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

test('a termination killed after its first wallet resumes after a restart and moves everything exactly once', async () => {
  service = await startServiceProcess(serviceEnv(dataDir, own.env));
  const { secretKey: key, organisationId } = await createTenant('termination', dataDir, own.url);
  const call = (method: string, route: string, body?: object) => api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), key, body });
  const contact = async (code: string) => {
    const created = await call('POST', '/contacts', { contact_type: 'PERSON', code, first_name: code, last_name: 'Kill', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
    expect(created.status).toBe(200);
    const found = await call('GET', `/contacts?code=${code}&financials=true`);
    return found.body.contacts[0].financials.account.id as string;
  };
  const source = await contact('SRC');
  const target = await contact('DST');
  for (let i = 0; i < WALLETS; i++) {
    const wallet = (await call('POST', `/accounts/${source}/wallets`, {})).body.id;
    expect((await call('POST', '/journals', { wallet_id: wallet, amount: i + 1, type: 'CREDIT' })).status).toBe(200);
  }
  const total = (WALLETS * (WALLETS + 1)) / 2;

  let db = own.connect(dataDir);
  const request = call('POST', `/accounts/${source}/life_cycle_state`, { life_cycle_state: 'TERMINATED', transfer_to_account_id: target }).catch((err: Error) => err);
  // Kill as soon as the first wallet has moved, while the others have not.
  let moved = 0;
  while (moved === 0) {
    moved = await db.wallet.count({ where: { accountId: source, lifeCycleState: 'CANCELLED' } });
    if (!moved) await new Promise((r) => setTimeout(r, 10));
  }
  await service.stop('SIGKILL');
  await request;
  // Mid-saga: some wallets moved, not all (the embedded database died with the service).
  expect(moved).toBeLessThan(WALLETS);
  await db.$disconnect().catch(() => undefined);

  service = await startServiceProcess(serviceEnv(dataDir, own.env));
  const connection = await connectTemporal(service.temporalAddress, dataDir);
  try {
    await new Client({ connection }).workflow.getHandle(`account-termination:${source}`).result();
  } finally {
    await connection.close();
  }
  db = own.connect(dataDir);
  try {
    const account = await db.account.findUniqueOrThrow({ where: { id: source } });
    expect([account.lifeCycleState, account.terminatedToAccountId]).toEqual(['TERMINATED', target]);
    expect(await db.wallet.count({ where: { accountId: source, lifeCycleState: { not: 'CANCELLED' } } })).toBe(0);
    const targetWallets = await db.wallet.findMany({ where: { accountId: target } });
    expect(targetWallets.map((w) => w.balance.toFixed())).toEqual([String(total)]);
    const sourceBalances = await db.wallet.findMany({ where: { accountId: source }, select: { balance: true } });
    expect(sourceBalances.every((w) => w.balance.isZero())).toBe(true);
    expect(await checkLedger(db, organisationId)).toEqual([]);
    // Asking again answers 200 and moves nothing more.
    const again = await call('POST', `/accounts/${source}/life_cycle_state`, { life_cycle_state: 'TERMINATED', transfer_to_account_id: target });
    expect(again.status).toBe(200);
    expect((await db.wallet.findFirstOrThrow({ where: { accountId: target } })).balance.toFixed()).toBe(String(total));
  } finally {
    await db.$disconnect();
  }
  // Two service starts on the embedded database: more than the default minute on a busy 2-core machine.
}, 180_000);
