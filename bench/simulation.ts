/**
 * A HISTORY simulation over BENCH_SIMULATION_EVENTS (100,000) registrations beside a hand-written
 * peer (issue 35): `npm run bench:simulation`. The service child on a data directory of its own
 * (PGlite and the embedded Temporal server); contacts written straight into the table with
 * generate_series, registered over 10 days; an automation with two webhook actions whose filters
 * split them. The service replays it as it always does (POST .../simulations: its workflow, pages of
 * SIMULATION_PAGE_EVENTS judged in read-only transactions and checkpointed); the peer is the least
 * a replay must do on the same database: the same keyset pages of the same rebuilt events (the
 * record's facts and the contact's snapshot, one statement a page), the two filters written out
 * by hand, the counts kept in memory and one checkpoint row written per page. Printed: events/s
 * of each, and their ratio, beside the engine path's automation runs/s (docs/benchmarks.md).
 */
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { contactSnapshotSql } from '../src/domain/events/contact-snapshot';
import { startChild } from './children';
import { postJson } from './http';
import { tenant } from './tenant';

const env = process.env;
const EVENTS = Number(env.BENCH_SIMULATION_EVENTS ?? 100_000);
const PAGE = Number(env.SIMULATION_PAGE_EVENTS ?? 500);
const DAYS = 10;
const log = (line: string) => process.stdout.write(`${line}\n`);

type Ready = { url: string; databaseUrl: string };

function request<T>(method: string, url: string, key: string, body?: object): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers: { api_key: key, 'content-type': 'application/json' }, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as T) : (undefined as T) }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

async function seed(pool: Pool, organisationId: string): Promise<void> {
  await pool.query(
    `INSERT INTO contacts (id, organisation_id, code, contact_type, first_name, last_name, search_text, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'SIM-' || g, 'PERSON', CASE WHEN g % 3 = 0 THEN 'Anna' ELSE 'Ben' END || g, 'Replay' || g, 'replay' || g,
       now() - make_interval(secs => (g % ($3::int * 86400))::float8), now()
     FROM generate_series(1, $2::int) g`,
    [organisationId, EVENTS, DAYS],
  );
  await pool.query('ANALYZE contacts');
}

/** The peer: the same pages and events, the filters by hand, the counts in memory, a checkpoint a page. */
async function peer(pool: Pool, organisationId: string, from: Date, to: Date): Promise<{ events: number; first: number; second: number; seconds: number }> {
  const started = Date.now();
  await pool.query('CREATE TABLE IF NOT EXISTS bench_peer_checkpoints (id int PRIMARY KEY, at timestamptz, last uuid, counts jsonb)');
  const page = `SELECT r.id, r.created_at, jsonb_build_object('contact_id', r.id, 'contact_type', r.contact_type) || ${contactSnapshotSql('r.id')} AS payload
    FROM contacts r WHERE r.organisation_id = $1 AND r.created_at >= $2 AND r.created_at < $3 AND (r.created_at, r.id) > ($4, $5::uuid)
    ORDER BY r.created_at, r.id LIMIT $6`;
  let cursor: [Date, string] = [new Date(0), '00000000-0000-0000-0000-000000000000'];
  const counts = { events: 0, first: 0, second: 0, byDay: new Map<number, number>() };
  for (;;) {
    const { rows } = await pool.query<{ id: string; created_at: Date; payload: { contact: { first_name: string | null; contact_type: string } } }>(page, [organisationId, from, to, cursor[0], cursor[1], PAGE]);
    if (!rows.length) break;
    for (const r of rows) {
      counts.events++;
      if ((r.payload.contact.first_name ?? '').toLowerCase().startsWith('anna')) counts.first++;
      if (r.payload.contact.contact_type === 'PERSON') counts.second++;
      const day = Math.floor(r.created_at.getTime() / 86_400_000);
      counts.byDay.set(day, (counts.byDay.get(day) ?? 0) + 1);
    }
    const last = rows[rows.length - 1];
    cursor = [last.created_at, last.id];
    await pool.query(
      `INSERT INTO bench_peer_checkpoints VALUES (1, $1, $2, $3) ON CONFLICT (id) DO UPDATE SET at = $1, last = $2, counts = $3`,
      [cursor[0], cursor[1], JSON.stringify({ ...counts, byDay: Object.fromEntries(counts.byDay) })],
    );
  }
  return { events: counts.events, first: counts.first, second: counts.second, seconds: (Date.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-simulation-'));
  const service = await startChild<Ready>('service-child.ts', {
    PATH: env.PATH, HOME: env.HOME, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_EMBEDDED_PORT: '0', LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000', SIMULATION_PAGE_EVENTS: String(PAGE), ...(env.NODE_OPTIONS ? { NODE_OPTIONS: env.NODE_OPTIONS } : {}),
  });
  const pool = new Pool({ connectionString: service.ready.databaseUrl, max: 1 });
  try {
    const { organisationId, key } = await tenant(service.ready.databaseUrl);
    const base = service.ready.url;
    const headers = { api_key: key, 'content-type': 'application/json' };
    let t = Date.now();
    await seed(pool, organisationId);
    log(`seeded ${EVENTS} contacts over ${DAYS} days in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const webhook = await postJson(`${base}/webhooks`, headers, { name: 'Nowhere', method: 'POST', url_endpoint: 'https://hooks.example.com/in', url_auth: 'NO_AUTH' });
    const automation = await postJson(`${base}/automations`, headers, { name: 'Replay bench', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
    const hook = (order: number, filters: object[]) => ({
      order, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhook }], action_filters: [{ filters }],
    });
    await postJson(`${base}/automations/${automation}/actions`, headers, {
      content: [hook(1, [{ attribute: 'FIRST_NAME', operator: 'STARTS_WITH', value: 'anna' }]), hook(2, [{ attribute: 'CONTACT_TYPE', operator: 'EQUAL', value: 'PERSON' }])],
    });
    const now = Math.floor(Date.now() / 1000);
    const window = { from_date: now - (DAYS + 1) * 86_400, to_date: now + 60 };

    t = Date.now();
    const accepted = await request<{ id: string }>('POST', `${base}/automations/${automation}/simulations`, key, window);
    if (accepted.status !== 202) throw new Error(`POST simulations: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    type Sim = { state: string; progress: { events_done: number }; summary: { events: number; by_action: Array<{ would_run: number }> } };
    let sim: Sim;
    for (;;) {
      sim = (await request<Sim>('GET', `${base}/automations/${automation}/simulations/${accepted.body.id}`, key)).body;
      if (sim.state !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const serviceSeconds = (Date.now() - t) / 1000;
    if (sim.state !== 'COMPLETED') throw new Error(`the replay ended ${sim.state}`);
    const p = await peer(pool, organisationId, new Date(window.from_date * 1000), new Date((window.to_date + 1) * 1000));
    const agree = p.events === sim.summary.events && p.first === sim.summary.by_action[0].would_run && p.second === sim.summary.by_action[1].would_run;
    log('');
    log(`| run | events | seconds | events/s | would run (action 1 / 2) |`);
    log(`|---|---:|---:|---:|---|`);
    log(`| service (POST → COMPLETED, pages of ${PAGE}) | ${sim.summary.events} | ${serviceSeconds.toFixed(1)} | ${Math.round(sim.summary.events / serviceSeconds)} | ${sim.summary.by_action.map((a) => a.would_run).join(' / ')} |`);
    log(`| peer (hand-written, same pages) | ${p.events} | ${p.seconds.toFixed(1)} | ${Math.round(p.events / p.seconds)} | ${p.first} / ${p.second} |`);
    log('');
    log(`service / peer events/s: ${((sim.summary.events / serviceSeconds) / (p.events / p.seconds)).toFixed(2)}; the counts ${agree ? 'agree' : 'DISAGREE'}`);
    log('Beside: the engine path runs 128-143 automation runs/s on this shape (docs/benchmarks.md "Engine path", 2026-12-03).');
    if (!agree) process.exitCode = 1;
  } finally {
    await pool.end();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
