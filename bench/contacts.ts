/**
 * Contacts benchmark: `npm run bench` (issue 2, part 9). Not part of the tests.
 *
 * 1. Ceiling: a bare node:https server (same certificate type) under the same load.
 * 2. The service in a child process (temporary data directory; DATABASE_URL when set).
 * 3. Seeds BENCH_CONTACTS contacts (default 100,000) straight through SQL, timed.
 * 4. Loads GET /contacts/{id}, GET /contacts?search_value=..., POST /contacts with autocannon.
 *    Right before GET /contacts/{id}, the hand-written peer (bench/peer.ts: node:https + pg, one
 *    statement) serves the same ids on the same connections, and the two are compared.
 * 5. Prints the peak RSS of each server per scenario and of every child process.
 *
 * Knobs: BENCH_CONNECTIONS (50), BENCH_SECONDS (12), BENCH_WARMUP (2), BENCH_CONTACTS (100000),
 * BENCH_ONLY (comma list of: ceiling,health,baseline,peer,get,search,create,purchase,plan,automation,reports,analytics; or engine alone: bench/engine.ts), BENCH_BUYERS (500),
 * BENCH_ANALYTICS_PURCHASES (1000000), BENCH_ANALYTICS_CONTACTS (20000), BENCH_ANALYTICS_CONNECTIONS (1,4),
 * BENCH_AUTOMATION_CONTACTS (2000), BENCH_AUTOMATION_CLIENTS (20), BENCH_REPORT_ROWS (100000),
 * BENCH_PLAN_CONTACTS (10000), BENCH_PLAN_LEAD_SECONDS (8), BENCH_PLAN_TIMEOUT_SECONDS (600), DATABASE_POOL_SIZE (50 on
 * PostgreSQL, 20 embedded), BENCH_PEER_POOL (the peer's pool: DATABASE_POOL_SIZE on PostgreSQL, 4
 * embedded), METRICS_PORT / TEMPORAL_METRICS_PORT / OTEL_EXPORTER_OTLP_ENDPOINT (passed on; metrics on a free port by default), BENCH_OTLP=1 (traces exported to
 * an OTLP/HTTP listener in this process, bench/otlp-sink.ts; spans received printed), BENCH_API_ONLY=1 (the Temporal server in a child of its own, the service with
 * TEMPORAL_ADDRESS and RUN_WORKER=false), BENCH_PROFILE=1 (CPU profile of each measured service
 * run into ./bench-profiles).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild, startLineChild, type Child, type PlainChild } from './children';
import { runLoad, type LoadResult, type LoadSpec } from './load';
import { pick, rng, seedContacts } from './seed';
import { printAutomation, runAutomationScenario, type AutomationResult } from './automation';
import { startAtScale, type AtScale, type WorkerChild } from './at-scale';
import { startOtlpSink, type OtlpSink } from './otlp-sink';
import { analyticsSpecs, printAnalytics, seedAnalytics, type AnalyticsSeed } from './analytics';
import { printPlan, runPlanScenario, type PlanResult } from './plan';
import { printReports, runReportScenario, type ReportResult } from './reports';
import { purchaseBody, seedBuyers } from './purchases';
import { AIMS, printComparison, printProcesses, printTable, type ProcessMemory } from './report';
import { procCpuMs, procStatusBytes, RssSampler, type MemoryStats } from './rss';
import { tenant } from './tenant';

const env = process.env;
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(env.BENCH_SECONDS ?? 12);
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
const CONTACTS = Number(env.BENCH_CONTACTS ?? 100_000);
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;
const POSTGRES = Boolean(env.DATABASE_URL);
const SEARCH_CONNECTIONS = Number(env.BENCH_SEARCH_CONNECTIONS ?? 10);
const PURCHASE_BUYERS = Number(env.BENCH_BUYERS ?? 500);
const PLAN_CONTACTS = Number(env.BENCH_PLAN_CONTACTS ?? 10_000);
const PLAN_LEAD_SECONDS = Number(env.BENCH_PLAN_LEAD_SECONDS ?? 8);
const PLAN_TIMEOUT_SECONDS = Number(env.BENCH_PLAN_TIMEOUT_SECONDS ?? 600);
const AUTOMATION_CONTACTS = Number(env.BENCH_AUTOMATION_CONTACTS ?? 2000);
const AUTOMATION_CLIENTS = Number(env.BENCH_AUTOMATION_CLIENTS ?? 20);
const ANALYTICS_PURCHASES = Number(env.BENCH_ANALYTICS_PURCHASES ?? 1_000_000);
const ANALYTICS_CONTACTS = Number(env.BENCH_ANALYTICS_CONTACTS ?? 20_000);
const ANALYTICS_CONNECTIONS = (env.BENCH_ANALYTICS_CONNECTIONS ?? '1,4').split(',').map(Number);
const REPORT_ROWS = Number(env.BENCH_REPORT_ROWS ?? 100_000);
const POOL = env.DATABASE_POOL_SIZE ?? (POSTGRES ? '50' : '20');
/**
 * The peer's own pool. On PostgreSQL the service's pool size (max_connections must then allow
 * both pools: the service's idle connections stay open for 10 s). The embedded wire server
 * accepts only DATABASE_POOL_SIZE + 5 connections and the service may still hold its pool;
 * its single backend serves one statement at a time whatever the pool size.
 */
const PEER_POOL = env.BENCH_PEER_POOL ?? (POSTGRES ? POOL : '4');
/** The service as an API process only: the Temporal server in a child of its own, no worker. */
const API_ONLY = env.BENCH_API_ONLY === '1';
/** The at-scale shape (bench/at-scale.ts): Temporal's dev server, the API process, BENCH_WORKERS workers. */
const AT_SCALE = env.BENCH_AT_SCALE === '1';
const WORKERS = Number(env.BENCH_WORKERS ?? 2);
const PROFILE = env.BENCH_PROFILE === '1';
/** Set with BENCH_OTLP=1: the service exports its traces here. */
let otlp: OtlpSink | undefined;
const PROFILE_DIR = path.resolve('bench-profiles');
const wanted = (name: string) => !ONLY || ONLY.has(name);
const log = (line: string) => process.stdout.write(`${line}\n`);
/** Set when the communication-plan scenario ran. */
let planResult: PlanResult | undefined;
/** Set when the automation scenario ran. */
let automationResult: AutomationResult | undefined;
/** CPU seconds of each process of the shape over the automation scenario (from /proc). */
let automationCpu: Array<{ name: string; seconds: number }> = [];
/** SQL statements the service process (the API process at scale) sent over the automation scenario. */
let automationStatements = 0;
/** Set when the analytics scenario ran. */
let analytics: { seed: AnalyticsSeed; results: LoadResult[] } | undefined;
/** Set when the report scenario ran. */
let reportResult: ReportResult | undefined;
/** Set when both the peer and the service's GET /contacts/{id} ran. */
let comparison: { peer: LoadResult; service: LoadResult } | undefined;
/** Other processes on the machine skew every figure: each run records how busy it was. */
const loadAverage = () => os.loadavg()[0].toFixed(1);

type Service = Child<{ url: string; databaseUrl: string }>;
type Stats = { cpuMicros: number; statements?: number } & Partial<MemoryStats>;

/** RSS of every child process, collected before each stops (printed at the end). */
const processes: ProcessMemory[] = [];

/** Records a child's memory before it stops: its own samples and the kernel's high-water mark. */
async function retire(name: string, child: Child<unknown>): Promise<void> {
  const stats = await child.ask<Stats>({ cmd: 'stats' });
  processes.push({ name, pid: child.process.pid, rss: stats.rss, peakRss: stats.peakRssTotal, hwm: procStatusBytes(child.process.pid, 'VmHWM') });
}

/**
 * A short warm-up (JIT, pools, caches) before each measured run. The run also records the
 * server's CPU time, SQL statements per request and peak RSS and, for the service with
 * BENCH_PROFILE=1, a CPU profile of it. `cpuAlso`: another process whose CPU time during the
 * run counts as the server's (the service hosting the embedded database the peer reads).
 */
async function measure(spec: LoadSpec, server: Child<unknown>, opts: { service?: boolean; cpuAlso?: Child<unknown> } = {}): Promise<LoadResult> {
  const service = opts.service === true;
  if (WARMUP > 0) await runLoad({ ...spec, seconds: WARMUP });
  log(`  measuring ${spec.name} (${spec.connections} connections, ${spec.seconds} s; load average ${loadAverage()})`);
  const before = await server.ask<Stats>({ cmd: 'stats' });
  const alsoBefore = opts.cpuAlso && (await opts.cpuAlso.ask<Stats>({ cmd: 'stats' }));
  if (PROFILE && service) await server.ask({ cmd: 'profile-start' });
  const result = await runLoad(spec);
  if (PROFILE && service) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = path.join(PROFILE_DIR, `${spec.name.replace(/[^a-z0-9]+/gi, '_')}.cpuprofile`);
    await server.ask({ cmd: 'profile-stop', file });
    log(`  CPU profile: ${file} (summary: npx tsx bench/profile-summary.ts ${path.relative(process.cwd(), file)})`);
  }
  const after = await server.ask<Stats>({ cmd: 'stats' });
  const alsoAfter = opts.cpuAlso && (await opts.cpuAlso.ask<Stats>({ cmd: 'stats' }));
  const alsoMicros = alsoBefore && alsoAfter ? alsoAfter.cpuMicros - alsoBefore.cpuMicros : 0;
  const per = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !result.requests ? undefined : (a - b) / result.requests);
  return {
    ...result,
    statementsPerRequest: per(after.statements, before.statements),
    cpuMsPerRequest: per((after.cpuMicros + alsoMicros) / 1000, before.cpuMicros / 1000),
    peakRssBytes: after.peakRss,
  };
}

async function ceiling(): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-hello-'));
  const hello = await startChild<{ url: string }>('hello-server.ts', { PATH: env.PATH, HOME: env.HOME, DATA_DIR: dir });
  try {
    const result = await measure({ name: 'ceiling: bare node:https', url: `${hello.ready.url}/`, connections: CONNECTIONS, seconds: SECONDS }, hello);
    await retire('ceiling: bare node:https', hello);
    return result;
  } finally {
    await hello.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function serviceEnv(dataDir: string, temporalAddress?: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
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
    // The automation scenario's webhook receiver and the SMTP sinks listen on 127.0.0.1.
    OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32',
    // Metrics as in production, on a free port; METRICS_PORT=off measures the service without them (docs/operations.md "Overhead").
    METRICS_PORT: '0',
    TEMPORAL_METRICS_PORT: 'off',
  };
  for (const k of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'RUN_WORKER', 'AUTH_CACHE_SECONDS', 'NODE_OPTIONS', 'METRICS_PORT', 'TEMPORAL_METRICS_PORT', 'OTEL_EXPORTER_OTLP_ENDPOINT']) if (env[k]) out[k] = env[k];
  if (otlp) out.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
  if (temporalAddress) {
    out.TEMPORAL_ADDRESS = temporalAddress;
    out.TEMPORAL_API_KEY = TEMPORAL_CHILD_KEY;
    out.RUN_WORKER = 'false';
  }
  return { ...out, ...extra };
}

/** The door of the BENCH_API_ONLY server (docs/security.md "The engine's door"): loopback, the clear. */
const TEMPORAL_CHILD_KEY = 'bench-temporal-child-key-0123456789abcdef';

/** BENCH_API_ONLY=1: `npm run temporal` (temporal/server/main.ts) alone, on a free port, its RSS sampled from /proc. */
async function startTemporalChild(dataDir: string): Promise<{ child: PlainChild; rss: RssSampler }> {
  const child = await startLineChild('temporal/server/main.ts', {
    PATH: env.PATH, HOME: env.HOME, DATA_DIR: dataDir, TEMPORAL_PORT: '0', TEMPORAL_HOST: '127.0.0.1', TEMPORAL_UI_PORT: 'off', TEMPORAL_API_KEY: TEMPORAL_CHILD_KEY,
  }, 'TEMPORAL_READY');
  return { child, rss: new RssSampler(() => procStatusBytes(child.process.pid, 'VmRSS')) };
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

  if (env.BENCH_OTLP === '1') {
    otlp = await startOtlpSink();
    log(`BENCH_OTLP=1: the service exports traces to ${otlp.url} (this process)`);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-service-'));
  const temporalDir = API_ONLY || AT_SCALE ? mkdtempSync(path.join(os.tmpdir(), 'bench-temporal-')) : undefined;
  let temporal: { child: PlainChild; rss: RssSampler } | undefined;
  let atScale: AtScale | undefined;
  let workers: WorkerChild[] = [];
  let service: Service | undefined;
  let seedLine = '';
  try {
    if (AT_SCALE) {
      if (!POSTGRES) throw new Error('BENCH_AT_SCALE=1 needs DATABASE_URL (a throw-away PostgreSQL database)');
      atScale = await startAtScale(temporalDir!);
      log(`BENCH_AT_SCALE=1: Temporal dev server (the real one) in pid ${atScale.temporal.child.pid} at ${atScale.temporal.address}`);
      service = await startChild('service-child.ts', serviceEnv(dataDir, atScale.temporal.address, atScale.sharedEnv));
      // Pools within max_connections (100 by default) beside the API process's.
      const workerEnv: NodeJS.ProcessEnv = { ...serviceEnv(dataDir, atScale.temporal.address, atScale.sharedEnv), DATABASE_URL: service.ready.databaseUrl, DATABASE_POOL_SIZE: env.BENCH_WORKER_POOL ?? '10' };
      delete workerEnv.RUN_WORKER;
      workers = await atScale.startWorkers(workerEnv, WORKERS);
      log(`${workers.length} worker processes (npm run worker): pids ${workers.map((w) => w.process.pid).join(', ')}`);
    } else if (temporalDir) {
      temporal = await startTemporalChild(temporalDir);
      log(`BENCH_API_ONLY=1: Temporal server alone in pid ${temporal.child.process.pid} at ${temporal.child.ready}; the service runs with RUN_WORKER=false`);
    }
    service ??= await startChild('service-child.ts', serviceEnv(dataDir, temporal?.child.ready));
    const base = service.ready.url;
    const shape = atScale ? `API process + ${workers.length} workers + Temporal dev server` : temporal ? 'API only (external Temporal, no worker)' : 'API + embedded Temporal server + worker in one process';
    log(`Service at ${base} (pid ${service.process.pid}; ${shape}) on ${POSTGRES ? 'PostgreSQL' : 'the embedded database (PGlite)'}, pool ${POOL}`);
    const { organisationId, key } = await tenant(service.ready.databaseUrl);
    const headers = { api_key: key, 'content-type': 'application/json' };
    if (wanted('health')) results.push(await measure({ name: 'GET /health (no auth; DB + Temporal ping)', url: `${base}/health`, connections: CONNECTIONS, seconds: SECONDS }, service, { service: true }));

    // The framework's floor: authentication (cached key), routing, validation, one small query.
    if (wanted('baseline')) {
      results.push(await measure({ name: 'GET /name_display_settings (auth + 1 query)', url: `${base}/name_display_settings`, connections: CONNECTIONS, seconds: SECONDS, headers }, service, { service: true }));
    }
    const probe = await fetchStatus(`${base}/contacts?size=1`, key);
    if (probe === 404) {
      log('GET /contacts answers 404: the contacts API is not there yet; contact scenarios skipped.');
    } else if (wanted('peer') || wanted('get') || wanted('search') || wanted('create')) {
      log(`Seeding ${CONTACTS} contacts (batches of 5,000)...`);
      const seed = await seedContacts(service.ready.databaseUrl, organisationId, CONTACTS, 5000, log);
      seedLine = `Seeded ${CONTACTS} contacts (+ a phone, e-mail and address each) in ${seed.seconds.toFixed(1)} s (${Math.round(CONTACTS / seed.seconds)} contacts/s).`;
      log(seedLine);
      const random = rng(7);
      const url = (p: string) => `${base}${p}`;
      const basePath = new URL(base).pathname;
      // The peer and the service get the very same sequence of ids.
      const idSequence = () => rng(11);
      let peerResult: LoadResult | undefined;
      let getResult: LoadResult | undefined;
      if (wanted('peer')) {
        const peer = await startChild<{ url: string }>('peer.ts', {
          PATH: env.PATH,
          HOME: env.HOME,
          DATA_DIR: dataDir, // the service's certificate, through the same loadTls
          DATABASE_URL: service.ready.databaseUrl,
          DATABASE_POOL_SIZE: PEER_POOL,
          ...(env.AUTH_CACHE_SECONDS ? { AUTH_CACHE_SECONDS: env.AUTH_CACHE_SECONDS } : {}),
        });
        try {
          const ids = idSequence();
          const peerPath = new URL(peer.ready.url).pathname;
          log(`Peer at ${peer.ready.url} (pid ${peer.process.pid}; node:https + pg, pool ${PEER_POOL})`);
          // On the embedded database the statements run in the service process: its CPU counts too.
          peerResult = await measure({
            name: 'peer: node:https + pg, GET /contacts/{id}', url: `${peer.ready.url}/contacts/${seed.ids[0]}`, connections: CONNECTIONS, seconds: SECONDS, headers,
            next: () => ({ path: `${peerPath}/contacts/${pick(ids, seed.ids)}` }),
          }, peer, { cpuAlso: POSTGRES ? undefined : service });
          results.push(peerResult);
          await retire('peer: node:https + pg', peer);
        } finally {
          await peer.stop();
        }
      }
      if (wanted('get')) {
        const ids = idSequence();
        getResult = await measure({
          name: 'GET /contacts/{id}', url: url(`/contacts/${seed.ids[0]}`), connections: CONNECTIONS, seconds: SECONDS, headers,
          next: () => ({ path: `${basePath}/contacts/${pick(ids, seed.ids)}` }),
        }, service, { service: true });
        results.push(getResult);
      }
      if (peerResult && getResult) comparison = { peer: peerResult, service: getResult };
      if (wanted('search')) {
        results.push(await measure({
          // The aim is stated for 10 connections: a search is a heavier statement, not a hot path.
          name: 'GET /contacts?search_value= (10 connections)', url: url('/contacts?search_value=lind'), connections: SEARCH_CONNECTIONS, seconds: SECONDS, headers,
          next: () => ({ path: `${basePath}/contacts?search_value=${encodeURIComponent(pick(random, seed.searchTerms))}` }),
        }, service, { service: true }));
      }
      if (wanted('create')) {
        const run = Date.now().toString(36);
        let n = 0;
        results.push(await measure({
          name: 'POST /contacts', url: url('/contacts'), method: 'POST', connections: CONNECTIONS, seconds: SECONDS, headers,
          next: () => ({ body: contactBody(run, n++, random) }),
        }, service, { service: true }));
      }
    }
    if (wanted('purchase')) {
      const buyers = await seedBuyers(base, headers, service.ready.databaseUrl, organisationId, PURCHASE_BUYERS);
      log(`Seeded ${buyers.length} buyers (primary account, funded wallet, one scheme with a 10% offer).`);
      const random = rng(13);
      const run = Date.now().toString(36);
      let n = 0;
      results.push(await measure({
        name: 'POST /purchases (1 spend + 1 award)', url: `${base}/purchases`, method: 'POST', connections: CONNECTIONS, seconds: SECONDS, headers,
        next: () => ({ body: purchaseBody(run, n++, pick(random, buyers)) }),
      }, service, { service: true }));
    }
    if (wanted('plan')) {
      if (temporal) {
        log('BENCH_API_ONLY=1: no worker runs, so no plan ticks; the plan scenario is skipped.');
      } else {
        // A fresh organisation: its FILTER segment with filters {} is exactly the seeded contacts.
        const planTenant = await tenant(service.ready.databaseUrl);
        log(`Communication plan: one tick to ${PLAN_CONTACTS} contacts through an SMTP sink (load average ${loadAverage()})`);
        const s = service;
        planResult = await runPlanScenario({
          base, databaseUrl: service.ready.databaseUrl, organisationId: planTenant.organisationId, key: planTenant.key,
          contacts: PLAN_CONTACTS, leadSeconds: PLAN_LEAD_SECONDS, timeoutSeconds: PLAN_TIMEOUT_SECONDS,
          stats: () => s.ask<Stats>({ cmd: 'stats' }), log,
          profile: PROFILE
            ? {
                start: async () => void (await s.ask({ cmd: 'profile-start' })),
                stop: async () => {
                  mkdirSync(PROFILE_DIR, { recursive: true });
                  const file = path.join(PROFILE_DIR, 'communication_plan_tick.cpuprofile');
                  await s.ask({ cmd: 'profile-stop', file });
                  log(`  CPU profile: ${file} (summary: npx tsx bench/profile-summary.ts ${path.relative(process.cwd(), file)})`);
                },
              }
            : undefined,
        });
      }
    }
    if (wanted('automation')) {
      if (temporal) {
        log('BENCH_API_ONLY=1: no worker runs, so no automation runs; the automation scenario is skipped.');
      } else {
        const t = await tenant(service.ready.databaseUrl);
        log(`Automations: ${AUTOMATION_CONTACTS} registrations by ${AUTOMATION_CLIENTS} clients, each posting a webhook (load average ${loadAverage()})`);
        if (PROFILE) await service.ask({ cmd: 'profile-start' });
        const shapePids: Array<[string, number | undefined]> = [
          [atScale ? 'API process' : 'service', service.process.pid],
          ...workers.map((w, i): [string, number | undefined] => [`worker ${i + 1}`, w.process.pid]),
          ...(atScale ? [['Temporal dev server', atScale.temporal.child.pid] as [string, number | undefined]] : []),
        ];
        const cpuBefore = shapePids.map(([, pid]) => (pid === undefined ? undefined : procCpuMs(pid)));
        const statementsBefore = (await service.ask<Stats>({ cmd: 'stats' })).statements ?? 0;
        automationResult = await runAutomationScenario({ base, key: t.key, contacts: AUTOMATION_CONTACTS, clients: AUTOMATION_CLIENTS, timeoutSeconds: 300, log });
        automationStatements = ((await service.ask<Stats>({ cmd: 'stats' })).statements ?? 0) - statementsBefore;
        automationCpu = shapePids.flatMap(([name, pid], i) => {
          const after = pid === undefined ? undefined : procCpuMs(pid);
          return after === undefined || cpuBefore[i] === undefined ? [] : [{ name, seconds: (after - cpuBefore[i]!) / 1000 }];
        });
        if (PROFILE) {
          mkdirSync(PROFILE_DIR, { recursive: true });
          const file = path.join(PROFILE_DIR, 'automation_runs.cpuprofile');
          await service.ask({ cmd: 'profile-stop', file });
          log(`  CPU profile: ${file} (summary: npx tsx bench/profile-summary.ts ${path.relative(process.cwd(), file)})`);
        }
      }
    }
    if (wanted('reports') && !temporal) {
      log(`Reports: one CSV report of ${REPORT_ROWS} purchases, mailed to an SMTP sink (load average ${loadAverage()})`);
      const s = service;
      reportResult = await runReportScenario({ base, databaseUrl: service.ready.databaseUrl, rows: REPORT_ROWS, timeoutSeconds: 600, stats: () => s.ask<Stats>({ cmd: 'stats' }), log });
    }
    if (wanted('analytics')) {
      const t = await tenant(service.ready.databaseUrl);
      log(`Analytics: seeding ${ANALYTICS_PURCHASES} purchases over a year (load average ${loadAverage()})`);
      const seed = await seedAnalytics(service.ready.databaseUrl, t.organisationId, ANALYTICS_PURCHASES, ANALYTICS_CONTACTS, log);
      analytics = { seed, results: [] };
      for (const spec of analyticsSpecs(base, t.key, seed, ANALYTICS_CONNECTIONS, SECONDS)) analytics.results.push(await measure(spec, service, { service: true }));
      results.push(...analytics.results);
    }
    await retire(`service (${atScale ? 'API process' : temporal ? 'API only' : 'API + Temporal server + worker'})`, service);
    if (temporal) {
      const t = temporal.rss.report();
      processes.push({ name: 'Temporal server (npm run temporal)', pid: temporal.child.process.pid, rss: t.rss, peakRss: t.peakRssTotal, hwm: procStatusBytes(temporal.child.process.pid, 'VmHWM') });
    }
    // Printed before the service stops: its graceful close can take a while after a write load.
    report(results, ceilingRps, seedLine, startLoad);
  } finally {
    log('Stopping the service...');
    await service?.stop();
    await Promise.all(workers.map((w) => w.stop()));
    await atScale?.temporal.stop();
    if (temporal) {
      temporal.rss.stop();
      await temporal.child.stop();
    }
    await otlp?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (temporalDir) rmSync(temporalDir, { recursive: true, force: true });
  }
}

function report(results: LoadResult[], ceilingRps: number | undefined, seedLine: string, startLoad: string) {
  log('');
  log(`Database: ${POSTGRES ? 'PostgreSQL' : 'embedded (PGlite)'}; ${CONNECTIONS} connections; ${os.cpus().length} CPUs shared by load generator, service and database; load average ${startLoad} at start, ${loadAverage()} at end.`);
  if (seedLine) log(seedLine);
  if (otlp) log(`Traces exported (BENCH_OTLP=1): ${otlp.spans()} spans received so far.`);
  if (results.length) printTable(results, { ceiling: ceilingRps, peer: comparison?.peer }, POSTGRES, log);
  if (planResult) {
    log('');
    log(`Communication plan, one tick (${POSTGRES ? 'PostgreSQL' : 'embedded database: the aim is for PostgreSQL'}; the service with its embedded Temporal server and worker):`);
    log('');
    printPlan(planResult, log);
  }
  if (automationResult) {
    log('');
    const shape = AT_SCALE
      ? `the at-scale shape: PostgreSQL, Temporal's dev server, the API process and ${WORKERS} worker processes`
      : `${POSTGRES ? 'PostgreSQL' : 'embedded shape'}; the service with its embedded Temporal server and worker`;
    log(`Automations, a webhook per registration (${shape}):`);
    log('');
    printAutomation(automationResult, AUTOMATION_CLIENTS, log, AT_SCALE ? { runsPerSecond: 200 } : { runsPerSecond: 100, p99Ms: 2000 });
    if (automationCpu.length) {
      log('');
      log(`Over the scenario: ${(automationStatements / automationResult!.received).toFixed(1)} SQL statements per run from the ${AT_SCALE ? 'API process' : 'service'}; CPU (from /proc): ${automationCpu.map((c) => `${c.name} ${c.seconds.toFixed(1)} s (${((1000 * c.seconds) / automationResult!.received).toFixed(1)} ms/run)`).join('; ')}`);
    }
  }
  if (reportResult) {
    log('');
    log(`Reports, one CSV run (${POSTGRES ? 'PostgreSQL' : 'embedded database'}; the service with its embedded Temporal server and worker):`);
    log('');
    printReports(reportResult, log);
  }
  if (analytics) {
    log('');
    log(`Analytics (${POSTGRES ? 'PostgreSQL' : 'embedded database: the aim is for PostgreSQL'}):`);
    log('');
    printAnalytics(analytics.results, analytics.seed, log);
  }
  if (comparison) {
    log('');
    log(`Hand-written peer against the service, same ids and ${CONNECTIONS} connections, one after the other${POSTGRES ? '' : " (embedded database: the peer's CPU includes the service process, which hosts PGlite)"}:`);
    log('');
    printComparison(comparison.peer, comparison.service, log);
  }
  log('');
  log("Memory of every child process (RSS sampled every 100 ms by the process itself; the Temporal server's from /proc by this one):");
  log('');
  printProcesses(processes, log);
  log('');
  for (const aim of AIMS) log(`Aim (PostgreSQL): ${aim.text}`);
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

// BENCH_ONLY=engine is its own bench (bench/engine.ts, `npm run bench:engine`): it runs on import.
if (ONLY?.has('engine')) void import('./engine');
else {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
