// Several API replicas dispatch the same outbox (docs/automations.md "Dispatch"): two more
// dispatchers run here beside the service's own, against its database and Temporal server.
// Every event is dispatched and starts its run exactly once, whichever dispatcher claims it (a
// claim whose lease runs out under load is claimed again: the duplicate start is refused).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../src/config';
import { openDatabase, type Database } from '../../src/db/client';
import type { DatabaseInfo } from '../../src/db/embedded';
import { newId } from '../../src/domain/ids';
import { createLogger } from '../../src/log';
import { OutboxDispatcher } from '../../src/temporal/dispatcher';
import { testState } from '../support/state';
import { createTenant } from '../support/tenants';
import { caller, eventually } from './helpers';
import { connectTemporal } from '../support/temporal';

const EVENTS = 300;
let database: Database;
let connection: Connection;

afterAll(async () => {
  await connection?.close();
  await database?.close();
});

test('three dispatchers share one outbox: every event dispatched, each run started once', async () => {
  const url = process.env.DATABASE_URL ?? (JSON.parse(readFileSync(path.join(testState().dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
  database = openDatabase(url, { poolSize: 4 });
  connection = await connectTemporal();
  const client = new Client({ connection });
  const tenant = await createTenant('dispatch replicas');
  const call = caller(tenant.secretKey);
  // No actions: each run only reads its automation and completes.
  const automation = (await call('POST', '/automations', { name: 'Replicas', entity: 'CONTACTS', event: 'ANONYMIZE_CONTACT', life_cycle_state: 'ACTIVE' })).id;

  const ids = Array.from({ length: EVENTS }, () => newId());
  await database.pool.query(
    `INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, payload)
     SELECT id, $1, 'ANONYMIZE_CONTACT', 'contact', id, jsonb_build_object('contact_id', id) FROM unnest($2::uuid[]) AS id`,
    [tenant.organisationId, ids],
  );
  const config = loadConfig({});
  const log = createLogger('silent');
  const replicas = [1, 2].map(() => new OutboxDispatcher(database.pool, client, config, log, { pollMs: 1000, leaseSeconds: 30 }));
  const claimed = [0, 0];
  await Promise.all(replicas.map(async (d, i) => {
    for (let n; (n = await d.pass()) > 0;) claimed[i] += n;
  }));

  const rows = await eventually(async () => {
    const { rows: rs } = await database.pool.query<{ dispatched: boolean }>(
      'SELECT dispatched_at IS NOT NULL AS dispatched FROM outbox_events WHERE id = ANY($1::uuid[])', [ids]);
    return rs.every((r) => r.dispatched) && rs;
  }, 30_000, 'every event dispatched');
  expect(rows.length).toBe(EVENTS);
  // Both of the test's replicas took part (the service's own may take some too).
  expect(claimed.every((n) => n > 0)).toBe(true);

  const runs = await eventually(async () => {
    const out: string[] = [];
    for await (const w of client.workflow.list({ query: `AutomationId = "${automation}"` })) out.push(w.workflowId);
    return out.length >= EVENTS && out;
  }, 30_000, 'the runs');
  expect(new Set(runs).size).toBe(EVENTS);
  expect(runs.length).toBe(EVENTS);
}, 120_000);
