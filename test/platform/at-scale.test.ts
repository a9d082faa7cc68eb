// The shape that scales, as processes (ARCHITECTURE.md "at scale"; temporal/docker-compose.yml
// wires the same): a PostgreSQL database of its own, the real Temporal dev server, two API
// replicas (RUN_WORKER=false) and two worker processes (`npm run worker`) on one task queue, all
// with the same JWT_SECRET, VOUCHER_SECRET and SECRETS_KEY. Requests alternate between the
// replicas: contacts (each runs an automation whose webhook reaches a local receiver), purchases
// earning points, a communication plan ticking every 3 s, an account termination. The worker
// running a step of that termination is killed with SIGKILL; the other one finishes everything,
// exactly once, and the ledger check holds.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import pg from 'pg';
import { createPrismaClient, type Db } from '../../src/db/client';
import { checkLedger } from '../../src/domain/money/ledger/check';
import { automation, caller, eventually, json, postWebhook, signatureValid, startReceiver } from '../automation-runs/helpers';
import { startSmtpSink } from '../communications/helpers';
import { purchaseBody } from '../loyalty/purchases/setup';
import { api, serviceCa } from '../support/api';
import { serviceEnv, startServiceProcess, startWorkerProcess, type ServiceProcess, type WorkerProcess } from '../support/service-process';
import { startTemporalCli, type TemporalCli } from '../support/temporal-cli';
import { createTenant } from '../support/tenants';

const postgres = process.env.DATABASE_URL;
const bin = process.env.TEMPORAL_CLI;
const missing = [postgres ? '' : 'DATABASE_URL (a PostgreSQL server)', bin ? '' : 'TEMPORAL_CLI (a temporal binary)'].filter(Boolean);
const TASK_QUEUE = 'at-scale';
const POINTS = 5;
const SOURCE_WALLETS = 16;
const STARTED = proto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

let root = '';
const database = `at_scale_${process.pid}_${Date.now().toString(36)}`;
const databaseUrl = postgres ? Object.assign(new URL(postgres), { pathname: `/${database}` }).toString() : '';
let cli: TemporalCli | undefined;
let replicas: ServiceProcess[] = [];
let workers: WorkerProcess[] = [];
let connection: Connection | undefined;
let db: Db | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  if (!root) return;
  await Promise.all([...replicas, ...workers].map((p) => p.stop('SIGKILL')));
  await connection?.close();
  await db?.$disconnect();
  await cli?.stop();
  await receiver?.close();
  await sink?.close();
  await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  rmSync(root, { recursive: true, force: true });
});

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

if (missing.length) {
  console.log(`test/platform/at-scale.test.ts: not run, it needs ${missing.join(' and ')}; CI's real-Temporal pass sets both (docs/temporal.md)`);
  describe.skip(`the at-scale shape (needs ${missing.join(' and ')})`, () => test('not run', () => undefined));
} else {
  test('two replicas and two workers: a worker killed mid-saga, everything finished once by the other', async () => {
    const began = Date.now();
    root = mkdtempSync(path.join(os.tmpdir(), 'backoffice-at-scale-'));
    await onServer(`CREATE DATABASE ${database}`);
    cli = await startTemporalCli(bin!, root);
    const shared = { JWT_SECRET: randomBytes(32).toString('base64url'), VOUCHER_SECRET: randomBytes(32).toString('base64url') };
    // serviceEnv adds the suite's SECRETS_KEY on PostgreSQL: the admin command line seals with it too.
    const env = (name: string, extra: Record<string, string> = {}) => {
      const dir = path.join(root, name);
      mkdirSync(dir, { mode: 0o700 });
      return serviceEnv(dir, { DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: cli!.address, TEMPORAL_TASK_QUEUE: TASK_QUEUE, OUTBOX_DISPATCHER: 'true', ...shared, ...extra });
    };
    const shapeFrom = Date.now();
    [replicas, workers] = await Promise.all([
      Promise.all(['api-1', 'api-2'].map((n) => startServiceProcess(env(n, { RUN_WORKER: 'false' })))),
      Promise.all(['worker-1', 'worker-2'].map((n) => startWorkerProcess(env(n)))),
    ]);
    const shapeMs = Date.now() - shapeFrom;
    const identities = workers.map((w) => `${w.child.pid}@${os.hostname()}`);
    connection = await Connection.connect({ address: cli.address });
    const temporal = new Client({ connection });
    db = createPrismaClient(databaseUrl, { poolSize: 2 });

    // Every call goes to the other replica than the one before.
    const tenant = await createTenant('at scale', path.join(root, 'api-1'), databaseUrl);
    const callers = replicas.map((r, i) => caller(tenant.secretKey, { baseUrl: r.url, ca: serviceCa(path.join(root, `api-${i + 1}`)) }));
    const served = [0, 0];
    let turn = 0;
    const call = (method: string, route: string, body?: object) => {
      const i = turn++ % 2;
      served[i]++;
      return callers[i](method, route, body);
    };

    receiver = await startReceiver();
    sink = await startSmtpSink();
    const webhook = await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' });
    const onRegister = await automation(call, 'REGISTER_CONTACT', [postWebhook(webhook.id)]);
    const scheme = (await call('POST', '/reward_schemes', { name: 'Scale club', code: 'SCALE', sign_up_option: 'OPEN' })).id;
    await call('POST', '/reward_offers', { reward_scheme_id: scheme, name: 'Points per purchase', award_type: 'FIXED', award_value: POINTS });

    const contacts: string[] = [];
    const customer = async (code: string) => {
      const id = (await call('POST', '/contacts', {
        contact_type: 'PERSON', code, first_name: 'Scale', last_name: code, email_address: `${code.toLowerCase()}@scale.test`,
        accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }],
      })).id as string;
      contacts.push(id);
      const account = (await call('GET', `/contacts?code=${code}&financials=true`)).contacts[0].financials.account.id as string;
      return { id, account };
    };
    const buyers: Array<{ id: string; account: string; wallet: string }> = [];
    const buyer = async (code: string) => {
      const c = await customer(code);
      await call('POST', `/accounts/${c.account}/reward_schemes`, { reward_scheme_id: scheme });
      const wallet = (await call('POST', `/accounts/${c.account}/wallets`, {})).id as string;
      await call('POST', '/purchases', purchaseBody(c.id, 40));
      const b = { ...c, wallet };
      buyers.push(b);
      return b;
    };

    // Before the kill: buyers, a plan ticking to four of them, the termination's source and target.
    for (let i = 1; i <= 10; i++) await buyer(`B${i}`);
    const integration = (await call('POST', '/integrations', {
      name: 'Sink', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'plans@scale.test' },
    })).id;
    const segment = (await call('POST', '/segments', { name: 'Plan', type: 'STATIC', contact_ids: buyers.slice(0, 4).map((b) => b.id) })).id;
    const plan = (await call('POST', '/communication_plans', {
      name: 'Every 3 s', start_date: Math.floor(Date.now() / 1000) - 60, preferred_channel: 'EMAIL', frequency: '*/3 * * * * *',
      segments: [segment], integrations: [integration], life_cycle_state: 'POSTED',
      contents: [{ language: 'eng', subject: 'Tick for {{contact.first_name}}', plain_content: 'Hello' }],
    })).id;
    const source = await buyer('SRC');
    for (let i = 1; i < SOURCE_WALLETS; i++) {
      const wallet = (await call('POST', `/accounts/${source.account}/wallets`, {})).id;
      await call('POST', '/journals', { wallet_id: wallet, amount: i, type: 'CREDIT' });
    }
    const moved = POINTS + (SOURCE_WALLETS * (SOURCE_WALLETS - 1)) / 2;
    const target = await customer('DST');
    const ticks = async () => db!.communication.findMany({ where: { planId: plan }, select: { id: true, planTick: true, contactId: true, lifeCycleState: true } });
    await eventually(async () => (await ticks()).filter((r) => r.lifeCycleState === 'SENT').length >= 4, 30_000, 'a sent tick');

    // The kill: more buyers arrive while the termination runs; the worker running one of its
    // steps dies (the server gives that step to the other worker once its 2-minute start-to-close
    // timeout has passed: a dead worker tells nobody).
    const burst = Promise.all([1, 2, 3, 4, 5, 6].map((i) => buyer(`K${i}`)));
    const i = turn++ % 2;
    const terminating = api('POST', `/accounts/${source.account}/life_cycle_state`, {
      baseUrl: replicas[i].url, ca: serviceCa(path.join(root, `api-${i + 1}`)), key: tenant.secretKey,
      body: { life_cycle_state: 'TERMINATED', transfer_to_account_id: target.account },
    });
    const termination = temporal.workflow.getHandle(`account-termination:${source.account}`);
    const runningStep = async () => {
      const described = await termination.describe().catch(() => undefined);
      if (described && described.status.name !== 'RUNNING') throw new Error(`the termination ended (${described.status.name}) before a step of it was seen running`);
      const step = described?.raw.pendingActivities?.find((a) => a.state === STARTED && a.lastWorkerIdentity);
      return step && { activityId: step.activityId, identity: step.lastWorkerIdentity! };
    };
    // Frozen first (SIGSTOP), so the step cannot finish while we look: killed only once the
    // server still shows the step running on it; otherwise thawed, and the next step is tried.
    let victim = -1;
    for (const until = Date.now() + 30_000; victim < 0; await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > until) throw new Error('no step of the termination was caught running');
      const step = await runningStep();
      if (!step) continue;
      const worker = workers[identities.indexOf(step.identity)];
      if (!worker) throw new Error(`a step ran on ${step.identity}, not on one of the test's workers`);
      worker.child.kill('SIGSTOP');
      await new Promise((r) => setTimeout(r, 200));
      const still = await runningStep();
      if (still && still.activityId === step.activityId && still.identity === step.identity) victim = identities.indexOf(step.identity);
      else worker.child.kill('SIGCONT');
    }
    const victimIdentity = identities[victim];
    const survivor = identities[1 - victim];
    await workers[victim].stop('SIGKILL');
    const killedAt = Date.now();
    await burst;

    // After the kill: more buyers through both replicas, one worker left.
    for (let i = 1; i <= 6; i++) await buyer(`A${i}`);
    const answered = await terminating;
    // 503: still running after the request's 20 s wait; it completes on its own.
    expect([200, 503]).toContain(answered.status);
    await termination.result();
    const terminatedAt = Date.now();

    // Every automation run and its webhook, the plan still ticking on the survivor; then the plan ends.
    await eventually(async () => (await temporal.workflow.count(`AutomationId = "${onRegister}" AND ExecutionStatus = "Completed"`)).count >= contacts.length, 150_000, 'every automation run');
    await eventually(async () => (await db!.webhookRequest.count({ where: { automationId: onRegister, state: 'SUCCESS' } })) >= contacts.length, 60_000, 'every webhook request');
    await eventually(async () => {
      const after = (await ticks()).filter((r) => r.planTick!.getTime() > terminatedAt);
      return after.length >= 4 && after.every((r) => r.lifeCycleState === 'SENT');
    }, 60_000, 'a tick after the termination');
    await call('PUT', `/communication_plans/${plan}`, { life_cycle_state: 'DRAFT' });
    await temporal.workflow.getHandle(`communication-plan:${plan}`).result();
    const settledAt = Date.now();

    // Automation runs: one per registration, each completed, its one action once.
    const runs: Array<{ workflowId: string; status: string }> = [];
    for await (const w of temporal.workflow.list({ query: `AutomationId = "${onRegister}" AND WorkflowType = "automationRunWorkflow"` })) runs.push({ workflowId: w.workflowId, status: w.status.name });
    expect(runs.length).toBe(contacts.length);
    expect(new Set(runs.map((r) => r.workflowId)).size).toBe(contacts.length);
    expect(runs.every((r) => r.status === 'COMPLETED')).toBe(true);
    for (const r of runs) expect(await temporal.workflow.getHandle(r.workflowId).result()).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'COMPLETED' }] });
    const records = await db.adaptorActionRecord.findMany({ where: { automationId: onRegister } });
    expect(records.length).toBe(contacts.length);
    expect(new Set(records.map((r) => r.eventId)).size).toBe(contacts.length);
    expect(records.every((r) => r.status === 'COMPLETED')).toBe(true);

    // Webhooks: one request per run, delivered; by webhook-id, the receiver got each exactly once.
    const requests = await db.webhookRequest.findMany({ where: { automationId: onRegister } });
    expect(requests.map((r) => r.state)).toEqual(contacts.map(() => 'SUCCESS'));
    expect(new Set(requests.map((r) => r.entityId))).toEqual(new Set(contacts));
    const delivered = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(new Set(delivered)).toEqual(new Set(requests.map((r) => r.id)));
    expect(receiver.received.every((r) => signatureValid(r, webhook.secret_key) && json(r).id === r.headers['webhook-id'])).toBe(true);

    // The termination moved everything once.
    const wallets = await db.wallet.findMany({ where: { accountId: { in: [source.account, target.account] } } });
    expect(wallets.filter((w) => w.accountId === source.account).map((w) => [w.lifeCycleState, w.balance.toFixed()])).toEqual(
      Array.from({ length: SOURCE_WALLETS }, () => ['CANCELLED', '0']),
    );
    expect(wallets.filter((w) => w.accountId === target.account).map((w) => w.balance.toFixed())).toEqual([String(moved)]);
    expect((await db.account.findUniqueOrThrow({ where: { id: source.account } })).lifeCycleState).toBe('TERMINATED');
    // Its step lost with the killed worker ran again on the survivor.
    const retried = (await termination.fetchHistory()).events!.flatMap((e) => {
      const started = e.activityTaskStartedEventAttributes;
      return started && (started.attempt ?? 1) > 1 ? [started.identity] : [];
    });
    expect(retried).toEqual([survivor]);

    // Points: every other buyer earned its purchase's points once.
    for (const b of buyers.filter((x) => x.id !== source.id)) {
      expect([b.id, (await db.wallet.findUniqueOrThrow({ where: { id: b.wallet } })).balance.toFixed()]).toEqual([b.id, String(POINTS)]);
    }

    // Plan: every tick once per segment contact, all sent, also after the kill; each mail reached
    // the SMTP server, by Message-ID once.
    const rows = await ticks();
    const byTick = new Map<number, string[]>();
    for (const r of rows) byTick.set(r.planTick!.getTime(), [...(byTick.get(r.planTick!.getTime()) ?? []), r.contactId!]);
    for (const [tick, cs] of byTick) expect([tick, cs.length, new Set(cs).size]).toEqual([tick, 4, 4]);
    expect(rows.every((r) => r.lifeCycleState === 'SENT')).toBe(true);
    expect([...byTick.keys()].filter((t) => t > killedAt).length).toBeGreaterThanOrEqual(2);
    const messageIds = await eventually(async () => {
      const ids = new Set(sink!.mails.map((m) => m.messageId));
      return rows.every((r) => ids.has(`<communication-${r.id}@backoffice>`)) && ids;
    }, 20_000, 'every mail');
    expect(messageIds.size).toBe(rows.length);

    expect(await checkLedger(db, tenant.organisationId)).toEqual([]);
    // The replicas bootstrapped the empty database once between them.
    expect(await db.organisation.count()).toBe(2);

    // Which workflows the killed worker had a hand in, and which of those finished after the kill.
    const touched = { all: 0, byVictim: 0, takenOver: 0 };
    for await (const w of temporal.workflow.list({ query: `TaskQueue = "${TASK_QUEUE}"` })) {
      touched.all++;
      const events = (await temporal.workflow.getHandle(w.workflowId, w.runId).fetchHistory()).events ?? [];
      const hands = events.map((e) => e.workflowTaskStartedEventAttributes?.identity ?? e.activityTaskStartedEventAttributes?.identity);
      if (!hands.includes(victimIdentity)) continue;
      touched.byVictim++;
      if (w.closeTime && w.closeTime.getTime() > killedAt) touched.takenOver++;
    }
    expect(touched.takenOver).toBeGreaterThanOrEqual(1);
    console.log([
      `at-scale shape: ${seconds(shapeMs)} to start 2 API replicas + 2 workers (dev server and database before: ${seconds(shapeFrom - began)})`,
      `requests per replica ${served.join(' / ')}; ${contacts.length} contacts, ${buyers.length} purchases, ${runs.length} automation runs, ${requests.length} webhook requests ` +
        `(${receiver.received.length} received, ${delivered.length - new Set(delivered).size} repeats by webhook-id), ${byTick.size} plan ticks, ${rows.length} plan mails ` +
        `(${sink.mails.length} received), termination moved ${moved} from ${SOURCE_WALLETS} wallets (HTTP ${answered.status})`,
      `worker ${victim + 1} killed mid-termination (its step lost with it, redone by the other); termination done ${seconds(terminatedAt - killedAt)} after the kill, everything settled after ${seconds(settledAt - killedAt)}`,
      `workflows on the queue ${touched.all}, touched by the killed worker ${touched.byVictim}, finished by the other after the kill ${touched.takenOver}; test ${seconds(Date.now() - began)}`,
    ].join('\n'));
  }, 300_000);
}
