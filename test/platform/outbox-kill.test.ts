// The outbox is the only road from a commit to Temporal (docs/DEVELOPING.md "From a commit to a
// workflow"). A service whose dispatcher is held (OUTBOX_DISPATCHER=false) commits one write of
// each kind below with its workflow intent; it is killed with SIGKILL before anything started;
// after the restart each workflow runs once and its effect happens once. Automation runs and the
// deliveries of their webhook requests: test/automation-runs/restart.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { eventually, startReceiver } from '../automation-runs/helpers';
import { startSmtpSink } from '../communications/helpers';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { connectTemporal } from '../support/temporal';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-outbox-kill-'));
// On PostgreSQL a database of its own: the shared service's dispatcher would perform its intents.
const own = ownDatabase('outbox_kill');
let service: ServiceProcess | undefined;
let db: Db | undefined;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(() => own.create());

afterAll(async () => {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  for (const close of closers) await close();
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

async function start(dispatcher: boolean) {
  service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, OUTBOX_DISPATCHER: String(dispatcher) }));
  db = own.connect(dataDir);
}

/** What each kind's write left to check: its workflow, and whether its effect happened (how many times). */
interface Written {
  kind: string;
  workflowId: string;
  effects(): Promise<number>;
}

test('a kill between the commit and the start: after the restart every kind runs once, with one effect', async () => {
  const sink = await startSmtpSink();
  closers.push(() => sink.close());
  const receiver = await startReceiver();
  closers.push(() => receiver.close());
  await start(false);
  const tenant = await createTenant('outbox kill', dataDir, own.url);
  const call = async (method: string, route: string, body?: object, auth: { key?: string; token?: string } = { key: tenant.secretKey }) => {
    const res = await api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), ...auth, body });
    expect([method, route, res.status, res.status === 200 ? '' : res.text]).toEqual([method, route, 200, '']);
    return res.body;
  };
  const admin = (await call('GET', `/users?username=${encodeURIComponent(tenant.admin.username)}`)).content[0].id;
  await call('PUT', `/users/${admin}`, { email: 'reports@kill.test' });
  const integration = (await call('POST', '/integrations', {
    name: 'Sink', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'kill@kill.test' },
  })).id;
  const webhook = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const contact = async (code: string) => {
    const id = (await call('POST', '/contacts', { contact_type: 'PERSON', code, first_name: code, last_name: 'Kill', email_address: `${code.toLowerCase()}@kill.test`, accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] })).id;
    return { id, accountId: (await db!.account.findFirstOrThrow({ where: { contactId: id } })).id };
  };
  const [source, target, topper] = [await contact('SRC'), await contact('DST'), await contact('TOP')];
  const sourceWallet = (await call('POST', `/accounts/${source.accountId}/wallets`, {})).id;
  await call('POST', '/journals', { wallet_id: sourceWallet, amount: 10, type: 'CREDIT' });
  const topped = (await call('POST', `/accounts/${topper.accountId}/wallets`, { auto_topup: { threshold: 10, amount: 50, payment_method: 'CARD' } })).id;
  await call('POST', '/journals', { wallet_id: topped, amount: 20, type: 'CREDIT' });
  const segment = (await call('POST', '/segments', { name: 'Kill', type: 'STATIC', contact_ids: [topper.id] })).id;
  const mails = (subject: string) => sink.mails.filter((m) => m.subject === subject).length;

  // The writes, each committed with its intent while no dispatcher runs.
  const written: Written[] = [];
  const communication = (await call('POST', '/communications', { name: 'Kill', contact_id: source.id, channel: 'EMAIL', recipient: 'one@kill.test', integration_id: integration, subject: 'Kill communication', content: 'Once' })).id;
  written.push({ kind: 'communication send', workflowId: `communication:${communication}`, effects: async () => mails('Kill communication') });
  const login = await call('POST', '/users/login', { username: tenant.admin.username, password: tenant.admin.password }, {});
  const run = (await call('POST', '/reports/contacts', { format: 'CSV', columns_set: [{ order: 1, key: 'code' }] }, { token: login.access_token })).id;
  written.push({ kind: 'report run', workflowId: `report-run:${run}`, effects: async () => sink.mails.filter((m) => m.to && JSON.stringify(m.to).includes('reports@kill.test')).length });
  const request = (await call('POST', `/webhooks/${webhook}/test`)).id;
  written.push({ kind: 'webhook delivery', workflowId: `webhook-request:${request}`, effects: async () => receiver.received.filter((r) => r.body.includes(webhook)).length });
  const plan = (await call('POST', '/communication_plans', {
    name: 'Kill plan', start_date: Math.floor(Date.now() / 1000) - 60, preferred_channel: 'EMAIL', frequency: '*/2 * * * * *',
    segments: [segment], integrations: [integration], life_cycle_state: 'POSTED',
    contents: [{ language: 'eng', subject: 'Kill tick', plain_content: 'Tick' }],
  })).id;
  // A plan's effect is its ticks: at least one, and never one contact twice in a tick.
  written.push({
    kind: 'communication plan', workflowId: `communication-plan:${plan}`, effects: async () => {
      const rows = await db!.communication.findMany({ where: { planId: plan }, select: { planTick: true, contactId: true } });
      const keys = rows.map((r) => `${r.planTick?.getTime()}:${r.contactId}`);
      return new Set(keys).size === keys.length ? Math.min(keys.length, 1) : keys.length;
    },
  });
  const debit = (await call('POST', '/journals', { wallet_id: topped, amount: 15, type: 'DEBIT' })).id;
  written.push({ kind: 'top-up', workflowId: `wallet-topup:${debit}`, effects: () => db!.walletTransaction.count({ where: { walletId: topped, classification: 'TOPUP' } }) });
  // The termination's request waits for its run, which no dispatcher starts: it dies with the service.
  const terminating = api('POST', `/accounts/${source.accountId}/life_cycle_state`, {
    baseUrl: service!.url, ca: serviceCa(dataDir), key: tenant.secretKey, body: { life_cycle_state: 'TERMINATED', transfer_to_account_id: target.accountId },
  }).catch((err: Error) => err);
  written.push({
    kind: 'account termination', workflowId: `account-termination:${source.accountId}`,
    effects: async () => (await db!.wallet.findMany({ where: { accountId: target.accountId } })).filter((w) => !w.balance.isZero()).length,
  });

  const intents = async () => db!.$queryRawUnsafe<Array<{ workflow_id: string; dispatched: boolean }>>(
    'SELECT workflow_id, dispatched_at IS NOT NULL AS dispatched FROM workflow_intents WHERE workflow_id = ANY($1)', written.map((w) => w.workflowId));
  await eventually(async () => (await intents()).length === written.length, 20_000, 'every intent committed');
  await new Promise((r) => setTimeout(r, 1500));
  expect((await intents()).filter((i) => i.dispatched)).toEqual([]);
  for (const w of written) expect([w.kind, await w.effects()]).toEqual([w.kind, 0]);

  await db!.$disconnect().catch(() => undefined);
  await service!.stop('SIGKILL');
  await terminating;
  await start(true);

  for (const w of written) await eventually(async () => (await w.effects()) > 0, 60_000, `the effect of the ${w.kind}`);
  // Room for a second start or effect, were there one.
  await new Promise((r) => setTimeout(r, 2000));
  const connection = await connectTemporal(service!.temporalAddress, dataDir);
  try {
    const client = new Client({ connection });
    for (const w of written) {
      const runs = [];
      for await (const r of client.workflow.list({ query: `WorkflowId = "${w.workflowId}"` })) runs.push(r.runId);
      expect([w.kind, runs.length, await w.effects()]).toEqual([w.kind, 1, 1]);
    }
  } finally {
    await connection.close();
  }
  expect((await intents()).every((i) => i.dispatched)).toBe(true);
  expect((await db!.wallet.findUniqueOrThrow({ where: { id: topped } })).balance.toFixed()).toBe('55');
  expect((await db!.account.findUniqueOrThrow({ where: { id: source.accountId } })).lifeCycleState).toBe('TERMINATED');
  await call('DELETE', `/communication_plans/${plan}`);
  // Two service starts on the embedded database, and a plan's ticks.
}, 240_000);
