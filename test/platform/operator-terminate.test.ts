// An operator's terminate or cancel settles the workflow's business record (docs/temporal-ui.md
// "Terminate and cancel"). A service of its own, two starts on one data directory:
// 1. no worker, no reconciler: a webhook delivery, an account termination and a top-up are
//    started and terminated before any of their code ran;
// 2. worker and reconciler: the start-up pass settles the terminated delivery FAILED (its intent
//    was performed: nothing starts it again) and finishes the money workflows once; then every
//    other kind is terminated (or cancelled) while it waits, and its record is checked.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { checkLedger } from '../../src/domain/money/ledger/check';
import { automation, caller, eventually, param, startReceiver } from '../automation-runs/helpers';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant, type Tenant } from '../support/tenants';
import { connectTemporal } from '../support/temporal';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-operator-terminate-'));
// On PostgreSQL a database of its own: the shared service's dispatcher would perform its intents.
const own = ownDatabase('operator_terminate');
let service: ServiceProcess | undefined;
let connection: Connection | undefined;
let db: Db | undefined;
let tenant: Tenant;
const closers: Array<() => Promise<unknown>> = [];


async function start(env: Record<string, string>) {
  await connection?.close();
  await db?.$disconnect();
  await service?.stop();
  service = await startServiceProcess(serviceEnv(dataDir, {
    OUTBOX_DISPATCHER: 'true',
    // A delivery that failed its first attempt waits long enough to be terminated meanwhile.
    WEBHOOK_RETRY_SCHEDULE: '0,10m',
    // On a shared Temporal server (TEMPORAL_ADDRESS) no other service's worker takes its tasks.
    TEMPORAL_TASK_QUEUE: `operator-terminate-${process.pid}`,
    ...own.env,
    ...env,
  }));
  connection = await connectTemporal(service.temporalAddress, dataDir);
  db = own.connect(dataDir);
}

const temporal = () => new Client({ connection: connection! });
const call = (method: string, route: string, body?: object) => caller(tenant.secretKey, { baseUrl: service!.url, ca: serviceCa(dataDir) })(method, route, body);
const raw = (method: string, route: string, body?: object) => api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), key: tenant.secretKey, body });
const running = (workflowId: string) =>
  eventually(async () => (await temporal().workflow.getHandle(workflowId).describe().catch(() => null))?.status.name === 'RUNNING', 30_000, `${workflowId} running`);

/** An SMTP server that accepts connections and never greets: every send waits until it times out. */
async function silentSmtp(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => void sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(r))));
  return (server.address() as net.AddressInfo).port;
}

async function contactWithAccount(code: string) {
  const contactId = (await call('POST', '/contacts', { contact_type: 'PERSON', code, first_name: 'Ter', last_name: code, email_address: `${code.toLowerCase()}@term.test`, accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] })).id;
  const account = await db!.account.findFirstOrThrow({ where: { contactId } });
  return { contactId, accountId: account.id };
}

beforeAll(async () => {
  await own.create();
});

afterAll(async () => {
  await connection?.close();
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  for (const close of closers) await close();
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

test('terminate or cancel settles every kind of workflow\'s record, running or after a restart', async () => {
  // 1. Nothing runs workflow code: each is terminated before its first step.
  await start({ RUN_WORKER: 'false', WORKFLOW_RECONCILE_MS: '0' });
  tenant = await createTenant('operator terminate', dataDir, own.url);
  const receiver = await startReceiver(() => ({ status: 500 }));
  closers.push(() => receiver.close());
  const webhook = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const unsent = (await call('POST', `/webhooks/${webhook}/test`)).id;
  await temporal().workflow.getHandle(`webhook-request:${unsent}`).terminate('operator');

  const source = await contactWithAccount(`SRC-${process.pid}`);
  const target = await contactWithAccount(`TGT-${process.pid}`);
  const sourceWallet = (await call('POST', `/accounts/${source.accountId}/wallets`, {})).id;
  await call('POST', '/journals', { wallet_id: sourceWallet, amount: 10, type: 'CREDIT' });
  const terminating = raw('POST', `/accounts/${source.accountId}/life_cycle_state`, { life_cycle_state: 'TERMINATED', transfer_to_account_id: target.accountId });
  await running(`account-termination:${source.accountId}`);
  await temporal().workflow.getHandle(`account-termination:${source.accountId}`).terminate('operator');
  // The waiting request learns the termination was interrupted, not a 500.
  expect((await terminating).body).toMatchObject({ code: 'UNAVAILABLE' });

  const topper = await contactWithAccount(`TOP-${process.pid}`);
  const topped = (await call('POST', `/accounts/${topper.accountId}/wallets`, { auto_topup: { threshold: 10, amount: 50, payment_method: 'CARD' } })).id;
  await call('POST', '/journals', { wallet_id: topped, amount: 20, type: 'CREDIT' });
  const debit = (await call('POST', '/journals', { wallet_id: topped, amount: 15, type: 'DEBIT' })).id;
  await running(`wallet-topup:${debit}`);
  await temporal().workflow.getHandle(`wallet-topup:${debit}`).terminate('operator');

  // An automation's replay (docs/automations.md "Simulations"): it has no effect to finish, so it ends FAILED.
  const replayed = (await call('POST', '/automations', { name: 'Replayed', entity: 'CONTACTS', event: 'REGISTER_CONTACT' })).id;
  const now = Math.floor(Date.now() / 1000);
  const replay = (await raw('POST', `/automations/${replayed}/simulations`, { from_date: now - 3600, to_date: now })).body.id;
  await running(`automation-simulation:${replay}`);
  await temporal().workflow.getHandle(`automation-simulation:${replay}`).terminate('operator');

  // 2. The reconciler's start-up pass settles the terminated delivery and replay, and runs the money workflows again, to the end, once.
  await start({ WORKFLOW_RECONCILE_MS: '500' });
  const ended = await eventually(async () => {
    const r = await call('GET', `/automations/${replayed}/simulations/${replay}`);
    return r.state !== 'RUNNING' && r;
  }, 30_000, 'the terminated replay settled at start');
  expect(ended).toMatchObject({ state: 'FAILED', error: "the replay's workflow was terminated by an operator", progress: { events_done: 0 } });
  const failed = await eventually(async () => {
    const r = (await call('GET', `/webhook_requests/${unsent}`));
    return r.state !== 'PENDING' && r;
  }, 30_000, 'the terminated request settled at start');
  expect(failed).toMatchObject({ state: 'FAILED', failure_reason: 'terminated by an operator', retries: 0, attempts: [] });
  expect(receiver.received).toEqual([]);
  await eventually(async () => (await db!.account.findUniqueOrThrow({ where: { id: source.accountId } })).lifeCycleState === 'TERMINATED', 30_000, 'the account TERMINATED');
  const moved = await db!.wallet.findMany({ where: { accountId: target.accountId } });
  expect(moved.map((w) => w.balance.toFixed())).toEqual(['10']);
  await eventually(async () => (await db!.walletTransaction.count({ where: { walletId: topped, classification: 'TOPUP' } })) === 1, 30_000, 'the top-up credited');
  expect((await db!.wallet.findUniqueOrThrow({ where: { id: topped } })).balance.toFixed()).toBe('55');
  expect(await checkLedger(db!, tenant.organisationId)).toEqual([]);

  // A delivery waiting for its second attempt: FAILED, its first attempt kept.
  const waiting = (await call('POST', `/webhooks/${webhook}/test`)).id;
  await eventually(async () => (await call('GET', `/webhook_requests/${waiting}`)).attempts.length === 1, 30_000, 'the first attempt');
  await temporal().workflow.getHandle(`webhook-request:${waiting}`).terminate('operator');
  const request = await eventually(async () => {
    const r = await call('GET', `/webhook_requests/${waiting}`);
    return r.state !== 'PENDING' && r;
  }, 15_000, 'the request settled');
  expect(request).toMatchObject({ state: 'FAILED', failure_reason: 'terminated by an operator', retries: 0, response_status: 500 });
  expect(request.attempts).toHaveLength(1);
  expect((await call('GET', `/webhooks/${webhook}`)).content[0]).toMatchObject({ pending_requests: 0, failed_requests: 2 });

  // An automation run waiting for an approval: the approval REJECTED, deciding it refused.
  const approval = await automation(call, 'REGISTER_CONTACT', [
    { adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [param('timeout_seconds', 600)] },
  ]);
  const records = `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records?automation_id=${approval}`;
  await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Ada', last_name: 'Approve' });
  const pending = await eventually(async () => (await call('GET', records)).content.find((r: any) => r.status === 'PENDING'), 30_000, 'the PENDING approval');
  await temporal().workflow.getHandle(pending.workflow_id).terminate('operator');
  const rejected = await eventually(async () => (await call('GET', records)).content.find((r: any) => r.id === pending.id && r.status !== 'PENDING'), 15_000, 'the approval settled');
  expect(rejected.status).toBe('REJECTED');
  expect(rejected.record_attributes.find((a: any) => a.key === 'reason').value).toBe('TERMINATED: the run was terminated by an operator');
  expect((await raw('POST', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/${pending.id}`, { key: 'status', value: 'APPROVED' })).status).toBe(409);

  // A report run and a communication whose mail hangs: FAILED with the reason; the report's file removed.
  const smtp = await call('POST', '/integrations', { name: 'Silent SMTP', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: await silentSmtp(), secure: false, from_address: 'ops@term.test' } });
  const adminId = (await call('GET', `/users?username=${encodeURIComponent(tenant.admin.username)}`)).content[0].id;
  await call('PUT', `/users/${adminId}`, { email: 'ops@term.test' });
  const token = (await api('POST', '/users/login', { baseUrl: service!.url, ca: serviceCa(dataDir), body: tenant.admin })).body.access_token;
  const runId = (await api('POST', '/reports/contacts', { baseUrl: service!.url, ca: serviceCa(dataDir), token, body: { format: 'csv' } })).body.id;
  const reportFiles = () => (existsSync(path.join(dataDir, 'reports')) ? readdirSync(path.join(dataDir, 'reports')).filter((f) => f.startsWith(runId)) : []);
  await eventually(async () => (await raw('GET', `/reports/contacts/runs/${runId}`)).body.state === 'RUNNING' && reportFiles().length === 1, 30_000, 'the report file written');
  await temporal().workflow.getHandle(`report-run:${runId}`).cancel();
  const run = await eventually(async () => {
    const r = (await raw('GET', `/reports/contacts/runs/${runId}`)).body;
    return r.state !== 'RUNNING' && r;
  }, 15_000, 'the report run settled');
  expect(run).toMatchObject({ state: 'FAILED', error: 'cancelled by an operator' });
  // The settlement marks the row at once; the activity removes its file when it sees that (after
  // its current page), which a loaded machine can make come after the row reads FAILED.
  await eventually(async () => reportFiles().length === 0, 15_000, "the cancelled run's file removed");
  expect(reportFiles()).toEqual([]);

  const contact = await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Mo', last_name: 'Mail', email_address: 'mail@term.test' });
  const communication = (await call('POST', '/communications', { name: 'Hanging', contact_id: contact.id, channel: 'EMAIL', integration_id: smtp.id, subject: 'Hi', content: 'Hello' })).id;
  await running(`communication:${communication}`);
  await temporal().workflow.getHandle(`communication:${communication}`).terminate('operator');
  const sent = await eventually(async () => {
    const c = await call('GET', `/communications/${communication}`);
    return c.life_cycle_state !== 'PENDING' && c;
  }, 15_000, 'the communication settled');
  expect(sent).toMatchObject({ life_cycle_state: 'FAILED', failure_reason: 'terminated by an operator' });

  // A POSTED plan between ticks: back to DRAFT; posting it again starts it anew and it stays POSTED.
  const segment = (await call('POST', '/segments', { name: 'Terminated plan', type: 'STATIC', contact_ids: [contact.id] })).id;
  const plan = (await call('POST', '/communication_plans', {
    name: 'Yearly', start_date: Math.floor(Date.now() / 1000) - 60, preferred_channel: 'EMAIL', frequency: '0 0 1 1 *', segments: [segment], life_cycle_state: 'POSTED',
    contents: [{ language: 'eng', subject: 'Hello', plain_content: 'Hi' }],
  })).id;
  await running(`communication-plan:${plan}`);
  await temporal().workflow.getHandle(`communication-plan:${plan}`).terminate('operator');
  await eventually(async () => (await call('GET', `/communication_plans/${plan}`)).life_cycle_state === 'DRAFT', 15_000, 'the plan back in DRAFT');
  expect((await call('GET', `/communication_plans/${plan}`)).next_tick_on).toBeNull();
  await call('PUT', `/communication_plans/${plan}`, { life_cycle_state: 'POSTED' });
  await running(`communication-plan:${plan}`);
  await new Promise((r) => setTimeout(r, 1500)); // three passes of the reconciler
  expect((await call('GET', `/communication_plans/${plan}`)).life_cycle_state).toBe('POSTED');

  // The daily expiry is a schedule: a terminate ends that run only (here one under the schedule's id
  // prefix, held back a day so it expires nothing), and the reconciler's settlement ensures the schedule.
  const expiryRun = await temporal().workflow.start('ledgerExpiryWorkflow', { workflowId: `ledger-expiry-${Date.now()}`, taskQueue: `operator-terminate-${process.pid}`, startDelay: '1 day' });
  await expiryRun.terminate('operator');
  await new Promise((r) => setTimeout(r, 1500)); // three passes of the reconciler
  const expiry = await temporal().schedule.getHandle('ledger-expiry').describe();
  expect(expiry.state.paused).toBe(false);
  expect(expiry.info.nextActionTimes.length).toBeGreaterThan(0);
}, 300_000);
