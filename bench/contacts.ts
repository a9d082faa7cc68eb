/**
 * Contacts benchmark: `npm run bench` (issue 2, part 9). Not part of the tests.
 *
 * 1. Ceiling: a bare node:https server (same certificate type) under the same load.
 * 2. The service in a child process (temporary data directory; DATABASE_URL when set).
 * 3. Seeds BENCH_CONTACTS contacts (default 100,000) straight through SQL, timed.
 * 4. Loads GET /contacts/{id}, GET /contacts?search_value=..., POST /contacts with autocannon.
 *
 * Knobs: BENCH_CONNECTIONS (50), BENCH_SECONDS (12), BENCH_WARMUP (2), BENCH_CONTACTS (100000),
 * BENCH_ONLY (comma list of: ceiling,health,baseline,get,search,create), DATABASE_POOL_SIZE (50 on
 * PostgreSQL, 20 embedded), BENCH_PROFILE=1 (CPU profile of each measured service run into ./bench-profiles).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPrismaClient } from '../src/db/client';
import { createApiKey } from '../src/domain/identity/api-keys';
import { createOrganisation } from '../src/domain/identity/organisations';
import { startChild, type Child } from './children';
import { runLoad, type LoadResult, type LoadSpec } from './load';
import { pick, rng, seedContacts } from './seed';
import { AIMS, printTable } from './report';

const env = process.env;
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(env.BENCH_SECONDS ?? 12);
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
const CONTACTS = Number(env.BENCH_CONTACTS ?? 100_000);
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;
const POSTGRES = Boolean(env.DATABASE_URL);
const POOL = env.DATABASE_POOL_SIZE ?? (POSTGRES ? '50' : '20');
const PROFILE = env.BENCH_PROFILE === '1';
const PROFILE_DIR = path.resolve('bench-profiles');
const wanted = (name: string) => !ONLY || ONLY.has(name);
const log = (line: string) => process.stdout.write(`${line}\n`);
/** Other processes on the machine skew every figure: each run records how busy it was. */
const loadAverage = () => os.loadavg()[0].toFixed(1);

type Service = Child<{ url: string; databaseUrl: string }>;
type Stats = { cpuMicros: number; statements?: number };

/**
 * A short warm-up (JIT, pools, caches) before each measured run. The run also records the
 * server's CPU time and SQL statements per request and, for the service with BENCH_PROFILE=1,
 * a CPU profile of it.
 */
async function measure(spec: LoadSpec, server: Child<unknown>, service = false): Promise<LoadResult> {
  if (WARMUP > 0) await runLoad({ ...spec, seconds: WARMUP });
  log(`  measuring ${spec.name} (${spec.connections} connections, ${spec.seconds} s; load average ${loadAverage()})`);
  const before = await server.ask<Stats>({ cmd: 'stats' });
  if (PROFILE && service) await server.ask({ cmd: 'profile-start' });
  const result = await runLoad(spec);
  if (PROFILE && service) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = path.join(PROFILE_DIR, `${spec.name.replace(/[^a-z0-9]+/gi, '_')}.cpuprofile`);
    await server.ask({ cmd: 'profile-stop', file });
    log(`  CPU profile: ${file} (summary: npx tsx bench/profile-summary.ts ${path.relative(process.cwd(), file)})`);
  }
  const after = await server.ask<Stats>({ cmd: 'stats' });
  const per = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !result.requests ? undefined : (a - b) / result.requests);
  return {
    ...result,
    statementsPerRequest: per(after.statements, before.statements),
    cpuMsPerRequest: per(after.cpuMicros / 1000, before.cpuMicros / 1000),
  };
}

async function ceiling(): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-hello-'));
  const hello = await startChild<{ url: string }>('hello-server.ts', { PATH: env.PATH, HOME: env.HOME, DATA_DIR: dir });
  try {
    return await measure({ name: 'ceiling: bare node:https', url: `${hello.ready.url}/`, connections: CONNECTIONS, seconds: SECONDS }, hello);
  } finally {
    await hello.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function serviceEnv(dataDir: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    HOME: env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TEMPORAL_EMBEDDED_PORT: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    DATABASE_POOL_SIZE: POOL,
  };
  for (const k of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'RUN_WORKER']) if (env[k]) out[k] = env[k];
  return out;
}

/** An organisation of the benchmark's own and a secret key with every scope. */
async function tenant(databaseUrl: string): Promise<{ organisationId: string; key: string }> {
  const db = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    const org = await createOrganisation(db, `Benchmark ${new Date().toISOString()}`);
    const { secret } = await createApiKey(db, { organisationId: org.id, kind: 'SECRET', name: 'bench', createdBy: 'bench' });
    return { organisationId: org.id, key: secret };
  } finally {
    await db.$disconnect();
  }
}

function contactBody(run: string, n: number, random: () => number): string {
  const last = pick(random, ['Andersen', 'Bergmann', 'Lindqvist', 'Steinfeld', 'Vogelsang']);
  return JSON.stringify({
    contact_type: 'PERSON',
    code: `P-${run}-${n}`,
    first_name: pick(random, ['Ann', 'Ben', 'Carla', 'David']),
    last_name: last,
    email_address: `bench.${run}.${n}@example.com`,
    phones: [{ phone_type: 'MOBILE', country_code: 'GBR', number: `+44 20 7${String(n % 1e6).padStart(6, '0')}` }],
    addresses: [{ address_type: 'HOME', address_line_1: `${n % 300} ${last} Street`, town_city: 'London', country_code: 'GBR' }],
  });
}

async function main() {
  log(`Contacts benchmark: ${CONNECTIONS} connections, ${SECONDS} s per run (+${WARMUP} s warm-up), ${os.cpus().length} CPUs, Node ${process.version}`);
  if (POSTGRES) {
    log(`WARNING: DATABASE_URL is set: this run WRITES ${CONTACTS} contacts and more into that database (${redact(env.DATABASE_URL!)}). Use a throw-away database.`);
  }
  const startLoad = loadAverage();
  const results: LoadResult[] = [];
  let ceilingRps: number | undefined;
  if (wanted('ceiling')) {
    const c = await ceiling();
    results.push(c);
    ceilingRps = c.perSecond;
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-service-'));
  const service: Service = await startChild('service-child.ts', serviceEnv(dataDir));
  let seedLine = '';
  try {
    const base = service.ready.url;
    log(`Service at ${base} on ${POSTGRES ? 'PostgreSQL' : 'the embedded database (PGlite)'}, pool ${POOL}`);
    const { organisationId, key } = await tenant(service.ready.databaseUrl);
    const headers = { api_key: key, 'content-type': 'application/json' };
    if (wanted('health')) results.push(await measure({ name: 'GET /health (no auth; DB + Temporal ping)', url: `${base}/health`, connections: CONNECTIONS, seconds: SECONDS }, service, true));

    // The framework's floor: authentication (cached key), routing, validation, one small query.
    if (wanted('baseline')) {
      results.push(await measure({ name: 'GET /name_display_settings (auth + 1 query)', url: `${base}/name_display_settings`, connections: CONNECTIONS, seconds: SECONDS, headers }, service, true));
    }
    const probe = await fetchStatus(`${base}/contacts?size=1`, key);
    if (probe === 404) {
      log('GET /contacts answers 404: the contacts API is not there yet; contact scenarios skipped.');
    } else if (wanted('get') || wanted('search') || wanted('create')) {
      log(`Seeding ${CONTACTS} contacts (batches of 5,000)...`);
      const seed = await seedContacts(service.ready.databaseUrl, organisationId, CONTACTS, 5000, log);
      seedLine = `Seeded ${CONTACTS} contacts (+ a phone, e-mail and address each) in ${seed.seconds.toFixed(1)} s (${Math.round(CONTACTS / seed.seconds)} contacts/s).`;
      log(seedLine);
      const random = rng(7);
      const url = (p: string) => `${base}${p}`;
      const basePath = new URL(base).pathname;
      if (wanted('get')) {
        results.push(await measure({
          name: 'GET /contacts/{id}', url: url(`/contacts/${seed.ids[0]}`), connections: CONNECTIONS, seconds: SECONDS, headers,
          next: () => ({ path: `${basePath}/contacts/${pick(random, seed.ids)}` }),
        }, service, true));
      }
      if (wanted('search')) {
        results.push(await measure({
          name: 'GET /contacts?search_value=', url: url('/contacts?search_value=lind'), connections: CONNECTIONS, seconds: SECONDS, headers,
          next: () => ({ path: `${basePath}/contacts?search_value=${encodeURIComponent(pick(random, seed.searchTerms))}` }),
        }, service, true));
      }
      if (wanted('create')) {
        const run = Date.now().toString(36);
        let n = 0;
        results.push(await measure({
          name: 'POST /contacts', url: url('/contacts'), method: 'POST', connections: CONNECTIONS, seconds: SECONDS, headers,
          next: () => ({ body: contactBody(run, n++, random) }),
        }, service, true));
      }
    }
    // Printed before the service stops: its graceful close can take a while after a write load.
    report(results, ceilingRps, seedLine, startLoad);
  } finally {
    log('Stopping the service...');
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(results: LoadResult[], ceilingRps: number | undefined, seedLine: string, startLoad: string) {
  log('');
  log(`Database: ${POSTGRES ? 'PostgreSQL' : 'embedded (PGlite)'}; ${CONNECTIONS} connections; ${os.cpus().length} CPUs shared by load generator, service and database; load average ${startLoad} at start, ${loadAverage()} at end.`);
  if (seedLine) log(seedLine);
  printTable(results, ceilingRps, POSTGRES, log);
  log('');
  for (const aim of AIMS) log(`Aim (PostgreSQL, 50 connections): ${aim.text}`);
}

async function fetchStatus(url: string, key: string): Promise<number> {
  // The service's certificate is self-signed: trust it for this one probe only.
  const https = await import('node:https');
  return new Promise((resolve, reject) => {
    https.get(url, { headers: { api_key: key }, rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
