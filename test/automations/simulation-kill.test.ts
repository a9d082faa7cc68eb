// A HISTORY replay survives a kill of the whole service (the in-process worker with it) mid-way
// (docs/automations.md "Simulations"): a service of its own, judging 5 events a page, is killed
// with SIGKILL once some pages are checkpointed; after the restart the replay resumes at its
// cursor and ends with every event counted exactly once. Its cancel is the row's: a replay
// cancelled before its workflow started finds it so and does nothing; one whose workflow an
// operator cancels mid-way ends CANCELLED by its settlement.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { connectTemporal } from '../support/temporal';
import { eventually } from '../automation-runs/helpers';

const CONTACTS = 300;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-simulation-kill-'));
// On PostgreSQL a database of its own: the shared service's dispatcher would perform its intents.
const own = ownDatabase('simulation_kill');
let service: ServiceProcess | undefined;
let db: Db | undefined;

beforeAll(() => own.create());

afterAll(async () => {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

const start = async (dispatcher: boolean, pageEvents = 5) => {
  service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, SIMULATION_PAGE_EVENTS: String(pageEvents), OUTBOX_DISPATCHER: String(dispatcher), WORKFLOW_RECONCILE_MS: '500' }));
  db = own.connect(dataDir);
};

async function stop(): Promise<void> {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
}

test('cancelled before its start: nothing runs; killed mid-replay: resumes and counts every event once; cancelled in Temporal: CANCELLED', async () => {
  await start(false);
  const { secretKey: key } = await createTenant('simulation kill', dataDir, own.url);
  const call = async (method: string, route: string, body?: object) => {
    const res = await api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), key, body });
    expect([method, route, res.status < 300, res.text]).toEqual([method, route, true, expect.any(String)]);
    return res.body;
  };
  const webhook = (await call('POST', '/webhooks', { name: 'Nowhere', method: 'POST', url_endpoint: 'https://hooks.example.com/in', url_auth: 'NO_AUTH' })).id;
  const auto = (await call('POST', '/automations', { name: 'Replayed', entity: 'CONTACTS', event: 'REGISTER_CONTACT' })).id;
  await call('POST', `/automations/${auto}/actions`, {
    content: [{
      order: 1, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhook }],
      action_filters: [{ filters: [{ attribute: 'FIRST_NAME', operator: 'STARTS_WITH', value: 'even' }] }],
    }],
  });
  for (let i = 0; i < CONTACTS; i++) await call('POST', '/contacts', { contact_type: 'PERSON', first_name: `${i % 2 ? 'odd' : 'even'}${i}`, last_name: 'Kill' });
  const now = Math.floor(Date.now() / 1000);
  const window = { from_date: now - 3600, to_date: now + 3600 };

  // The dispatcher is held: the row is RUNNING and its workflow not started.
  const cancelled = (await call('POST', `/automations/${auto}/simulations`, window)).id;
  expect(await call('POST', `/automations/${auto}/simulations/${cancelled}/cancel`)).toEqual({ id: cancelled, state: 'CANCELLED' });
  const replayed = (await call('POST', `/automations/${auto}/simulations`, window)).id;
  await stop();

  await start(true);
  const read = () => db!.automationSimulation.findUniqueOrThrow({ where: { id: replayed } });
  let done = 0;
  while (done === 0) {
    done = (await read()).eventsDone;
    if (!done) await new Promise((r) => setTimeout(r, 10));
  }
  await stop();
  // Mid-replay: some pages checkpointed, not all.
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(CONTACTS);

  await start(true);
  const connection = await connectTemporal(service!.temporalAddress, dataDir);
  try {
    const client = new Client({ connection });
    expect(await client.workflow.getHandle(`automation-simulation:${replayed}`).result()).toBe('COMPLETED');
    expect(await client.workflow.getHandle(`automation-simulation:${cancelled}`).result()).toBe('ALREADY_DONE');
  } finally {
    await connection.close();
  }
  const sim = await call('GET', `/automations/${auto}/simulations/${replayed}`);
  expect([sim.state, sim.progress]).toEqual(['COMPLETED', { events_done: CONTACTS, events_total: CONTACTS }]);
  expect([sim.summary.events, sim.summary.would_run]).toEqual([CONTACTS, CONTACTS / 2]);
  expect(sim.summary.by_action.map((x: any) => [x.would_run, x.skipped])).toEqual([[CONTACTS / 2, CONTACTS / 2]]);
  expect(sim.summary.by_day.reduce((n: number, d: any) => n + d.events, 0)).toBe(CONTACTS);
  expect(sim.samples).toHaveLength(20);
  const gone = await call('GET', `/automations/${auto}/simulations/${cancelled}`);
  expect([gone.state, gone.progress.events_done, gone.error]).toEqual(['CANCELLED', 0, expect.stringMatching(/^cancelled by api_key:/)]);

  // Cancelled in the Temporal UI mid-replay: the workflow ends cancelled, the row CANCELLED with its progress so far.
  // One event a page (300 pages) and a connection made beforehand, so the cancel lands mid-way
  // even on a real Temporal server that runs five-event pages faster than a poll.
  await stop();
  await start(true, 1);
  const connection2 = await connectTemporal(service!.temporalAddress, dataDir);
  try {
    const third = (await call('POST', `/automations/${auto}/simulations`, window)).id;
    await eventually(async () => (await db!.automationSimulation.findUniqueOrThrow({ where: { id: third } })).eventsDone > 0, 60_000, 'the third replay under way');
    await new Client({ connection: connection2 }).workflow.getHandle(`automation-simulation:${third}`).cancel();
    const stopped = await eventually(async () => {
      const r = await call('GET', `/automations/${auto}/simulations/${third}`);
      return r.state !== 'RUNNING' && r;
    }, 30_000, 'the cancelled replay settled');
    expect(stopped).toMatchObject({ state: 'CANCELLED', error: "the replay's workflow was cancelled by an operator" });
    expect(stopped.progress.events_done).toBeLessThan(CONTACTS);
  } finally {
    await connection2.close();
  }
  expect(await db!.webhookRequest.count()).toBe(0);
  expect(await db!.adaptorActionRecord.count()).toBe(0);
}, 300_000);
