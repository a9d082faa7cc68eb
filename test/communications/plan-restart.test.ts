// A plan ticking every 2 seconds survives a SIGKILL of the whole service (docs/communications.md
// "Plans"): after the restart it sends the ticks missed while it was down once, as the latest,
// then goes on ticking; no contact gets a tick twice and no mail is sent twice.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { eventually, startSmtpSink } from './helpers';

const CONTACTS = 5;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-plan-restart-'));
// On PostgreSQL a database of its own: the shared service's dispatcher would perform its intents.
const own = ownDatabase('plan_restart');
let service: ServiceProcess | undefined;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(() => own.create());

afterAll(async () => {
  await service?.stop('SIGKILL');
  await sink?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

test('a plan killed with the service resumes after the restart: missed ticks sent once, nothing twice', async () => {
  sink = await startSmtpSink();
  service = await startServiceProcess(serviceEnv(dataDir, own.env));
  const { secretKey: key } = await createTenant('plan restart', dataDir, own.url);
  const call = async (method: string, route: string, body?: object) => {
    const res = await api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), key, body });
    expect([method, route, res.status]).toEqual([method, route, 200]);
    return res.body;
  };
  const contacts: string[] = [];
  for (let i = 0; i < CONTACTS; i++) {
    contacts.push((await call('POST', '/contacts', { contact_type: 'PERSON', first_name: `R${i}`, last_name: 'Restart', email_address: `r${i}@restart.test` })).id);
  }
  const segment = (await call('POST', '/segments', { name: 'Restart', type: 'STATIC', contact_ids: contacts })).id;
  const integration = (await call('POST', '/integrations', {
    name: 'Sink', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'plans@restart.test' },
  })).id;
  const plan = (await call('POST', '/communication_plans', {
    name: 'Restart plan', start_date: Math.floor(Date.now() / 1000) - 60, preferred_channel: 'EMAIL', frequency: '*/2 * * * * *',
    segments: [segment], integrations: [integration], life_cycle_state: 'POSTED',
    contents: [{ language: 'eng', subject: 'Tick for {{contact.first_name}}', plain_content: 'Hello' }],
  })).id;

  let db = own.connect(dataDir);
  const ticks = async () => {
    const rows = await db.communication.findMany({ where: { planId: plan }, select: { id: true, planTick: true, contactId: true, lifeCycleState: true } });
    const byTick = new Map<number, typeof rows>();
    for (const r of rows) byTick.set(r.planTick!.getTime(), [...(byTick.get(r.planTick!.getTime()) ?? []), r]);
    return { rows, byTick };
  };
  // Kill as soon as a whole tick is sent, between ticks.
  await eventually(async () => [...(await ticks()).byTick.values()].some((rs) => rs.length === CONTACTS && rs.every((r) => r.lifeCycleState === 'SENT')), 60_000, 'a sent tick');
  await service.stop('SIGKILL');
  const killedAt = Date.now();
  await db.$disconnect().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 5000));

  // Ticks up to the spawn were all missed (no worker ran them); after it the worker may resume and
  // tick on time before the service answers HTTP (a real Temporal server wakes the plan at once).
  const spawnedAt = Date.now();
  service = await startServiceProcess(serviceEnv(dataDir, own.env));
  const restartedAt = Date.now();
  db = own.connect(dataDir);
  try {
    // Two ticks after the restart, whole and sent; then DRAFT stops it.
    await eventually(async () => {
      const after = [...(await ticks()).byTick.entries()].filter(([t]) => t > restartedAt);
      return after.length >= 1 && after.every(([, rs]) => rs.length === CONTACTS && rs.every((r) => r.lifeCycleState === 'SENT'));
    }, 60_000, 'ticks after the restart');
    await call('PUT', `/communication_plans/${plan}`, { life_cycle_state: 'DRAFT' });

    const { rows, byTick } = await ticks();
    for (const [tick, rs] of byTick) {
      expect([tick, rs.length, new Set(rs.map((r) => r.contactId)).size]).toEqual([tick, CONTACTS, CONTACTS]);
    }
    // The cron had at least 2 ticks while the service was down; at most one of them (the latest) was sent.
    expect(Math.floor(spawnedAt / 2000) - Math.floor(killedAt / 2000)).toBeGreaterThanOrEqual(2);
    const whileDown = [...byTick.keys()].filter((t) => t > killedAt && t <= spawnedAt);
    expect(whileDown.length).toBeLessThanOrEqual(1);
    expect([...byTick.keys()].some((t) => t > killedAt)).toBe(true);

    // Every row reached the SMTP server exactly once. A tick in flight when DRAFT landed may still
    // be sending its rows: wait for them all to be SENT, then count.
    await eventually(async () => (await ticks()).rows.every((r) => r.lifeCycleState === 'SENT'), 10_000, 'every row sent');
    await eventually(async () => rows.every((r) => sink.mails.some((m) => m.messageId === `<communication-${r.id}@backoffice>`)), 10_000, 'every mail');
    const ours = sink.mails.map((m) => m.messageId).filter((m) => rows.some((r) => m === `<communication-${r.id}@backoffice>`));
    expect(ours.length).toBe(rows.length);
    expect(new Set(ours).size).toBe(ours.length);
  } finally {
    await db.$disconnect();
  }
}, 240_000);
