/**
 * The engine path beside a hand-written peer (issue 32 item 1): `npm run bench:engine`, or
 * `BENCH_ONLY=engine npm run bench`. In one run, on one database and one Temporal server, the
 * service and bench/engine-peer.ts take turns (service, peer, service, peer: BENCH_ENGINE_ROUNDS
 * rounds), each registering BENCH_ENGINE_CONTACTS (1,500) contacts from BENCH_ENGINE_CLIENTS (20)
 * clients, each registration's automation posting one webhook to a receiver in this process.
 *
 * Shapes: embedded (default): the service child on its own data directory (PGlite and the
 * embedded Temporal server in its process); the peer on its database (the wire server) and its
 * Temporal server. `DATABASE_URL` + `BENCH_AT_SCALE=1`: PostgreSQL, Temporal's dev server, the
 * service as BENCH_API_REPLICAS (1) API processes + BENCH_WORKERS (2) workers (bench/at-scale.ts),
 * the peer beside them.
 *
 * Each run's window lasts from its first request to BENCH_ENGINE_SETTLE_SECONDS (11) after its
 * last webhook, so the tail of the runs and PostgreSQL's statistics flush fall inside it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newSecret } from '../src/domain/webhooks/signing';
import { startAtScale, type AtScale, type WorkerChild } from './at-scale';
import { awaitWebhooks, latencies, registerContacts, setUpWebhookAutomation, startReceiver, type Receiver } from './automation';
import { askChild, startChild, type Child } from './children';
import { openDatabaseProbe, postgresCpuMs, type DatabaseCounters, type DatabaseProbe } from './database-stats';
import { printEngine, type EngineRun } from './engine-report';
import { procCpuMs } from './rss';
import { tenant } from './tenant';
import { threadCpuMs } from './threads';

const env = process.env;
const CONTACTS = Number(env.BENCH_ENGINE_CONTACTS ?? 1500);
const CLIENTS = Number(env.BENCH_ENGINE_CLIENTS ?? 20);
const ROUNDS = Number(env.BENCH_ENGINE_ROUNDS ?? 2);
const SETTLE_SECONDS = Number(env.BENCH_ENGINE_SETTLE_SECONDS ?? 11);
const TIMEOUT_SECONDS = Number(env.BENCH_ENGINE_TIMEOUT_SECONDS ?? 300);
const POSTGRES = Boolean(env.DATABASE_URL);
const AT_SCALE = env.BENCH_AT_SCALE === '1';
const WORKERS = Number(env.BENCH_WORKERS ?? 2);
/** At scale: API processes (replicas, each with its dispatcher), the clients taking them in turn. */
const API_REPLICAS = Number(env.BENCH_API_REPLICAS ?? 1);
const POOL = env.DATABASE_POOL_SIZE ?? '20';
/** The embedded wire server takes DATABASE_POOL_SIZE + 5 connections: the peer's pool and this bench's probe fit in the 5. */
const PEER_POOL = env.BENCH_PEER_POOL ?? (POSTGRES ? POOL : '4');
/** The embedded server's door (docs/security.md "The engine's door"), known to the service and the peer alike. */
const TEMPORAL_KEY = 'bench-engine-temporal-key-0123456789abcdef';
const THREAD_NAMES = ['--require', path.join(__dirname, 'thread-names.cjs')];
const log = (line: string) => process.stdout.write(`${line}\n`);
const loadAverage = () => os.loadavg()[0].toFixed(1);

type Stats = { cpuMicros: number; statements: number; threads: Record<string, string> };
type Ready = { url: string; databaseUrl: string; temporalAddress: string };

interface Shape {
  service: Child<Ready>;
  /** At scale, the API replicas beyond `service`. */
  replicas: Array<Child<Ready>>;
  workers: Array<WorkerChild & { ask<R>(msg: object): Promise<R> }>;
  peer: Child<{ url: string }>;
  atScale?: AtScale;
  postmaster?: number;
}

/** CPU ms so far of each part of the shape, statements so far of each engine. */
interface Snapshot {
  cpu: Record<string, number>;
  serviceStatements: number;
  peerStatements: number;
  db: DatabaseCounters;
}

async function snapshot(shape: Shape, probe: DatabaseProbe): Promise<Snapshot> {
  const service = await shape.service.ask<Stats>({ cmd: 'stats' });
  const workers = await Promise.all([...shape.replicas, ...shape.workers].map((w) => w.ask<Stats>({ cmd: 'stats' })));
  const peer = await shape.peer.ask<Stats>({ cmd: 'stats' });
  const cpu: Record<string, number> = {};
  const servicePid = shape.service.process.pid!;
  if (shape.atScale) {
    cpu['API process'] = procCpuMs(servicePid) ?? 0;
    shape.replicas.forEach((r, i) => (cpu[`API process ${i + 2}`] = procCpuMs(r.process.pid!) ?? 0));
    shape.workers.forEach((w, i) => (cpu[`worker ${i + 1}`] = procCpuMs(w.process.pid!) ?? 0));
    cpu['Temporal dev server'] = procCpuMs(shape.atScale.temporal.child.pid!) ?? 0;
  } else {
    // One process: PGlite (with its wire server) and the Temporal server are threads of their own.
    const threads = threadCpuMs(servicePid, service.threads);
    const total = procCpuMs(servicePid) ?? 0;
    cpu['Temporal server (thread)'] = threads['embedded-server-thread'] ?? 0;
    cpu['database (PGlite thread)'] = threads['embedded-thread'] ?? 0;
    cpu['service: main thread'] = threads.main ?? 0;
    cpu['service: workflow thread'] = threads['workflow-worker-thread'] ?? 0;
    cpu['service'] = total - cpu['Temporal server (thread)'] - cpu['database (PGlite thread)'];
    cpu['service: other threads'] = cpu['service'] - cpu['service: main thread'] - cpu['service: workflow thread'];
  }
  if (shape.postmaster !== undefined) cpu['database (PostgreSQL)'] = postgresCpuMs(shape.postmaster);
  cpu['peer'] = procCpuMs(shape.peer.process.pid!) ?? 0;
  const self = process.cpuUsage();
  cpu['bench (clients + receiver)'] = (self.user + self.system) / 1000;
  return {
    cpu,
    serviceStatements: service.statements + workers.reduce((n, w) => n + w.statements, 0),
    peerStatements: peer.statements,
    db: await probe.counters(),
  };
}

async function measureRun(engine: 'service' | 'peer', round: number, shape: Shape, receiver: Receiver, key: string, probe: DatabaseProbe): Promise<EngineRun> {
  receiver.reset();
  const load = loadAverage();
  log(`  ${engine} run ${round}: ${CONTACTS} registrations from ${CLIENTS} clients (load average ${load})`);
  const before = await snapshot(shape, probe);
  const base = engine === 'service' ? [shape.service, ...shape.replicas].map((s) => s.ready.url) : shape.peer.ready.url;
  const { committed, start, seconds } = await registerContacts(base, key, CONTACTS, CLIENTS, `${engine}${round}.`);
  const complete = await awaitWebhooks(receiver, CONTACTS, TIMEOUT_SECONDS);
  const last = Math.max(...receiver.arrived.values());
  await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
  const after = await snapshot(shape, probe);
  const cpu = Object.fromEntries(Object.keys(after.cpu).map((k) => [k, after.cpu[k] - (before.cpu[k] ?? 0)]));
  const over = (counts: Map<string, number>) => [...counts.values()].filter((n) => n > 1).length;
  return {
    engine, round, contacts: CONTACTS, received: receiver.arrived.size, timedOut: !complete,
    createSeconds: seconds, endToEndSeconds: (last - start) / 1000,
    latenciesMs: latencies(committed, receiver.arrived),
    cpuMs: cpu,
    statements: engine === 'service' ? after.serviceStatements - before.serviceStatements : after.peerStatements - before.peerStatements,
    commits: after.db.commits - before.db.commits,
    rowsWritten: after.db.rowsWritten - before.db.rowsWritten,
    duplicateContacts: over(receiver.perContact),
    duplicateWebhookIds: over(receiver.perWebhookId),
    webhooks: [...receiver.perContact.values()].reduce((a, b) => a + b, 0),
    loadAverage: `${load} → ${loadAverage()}`,
  };
}

function serviceEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: env.PATH, HOME: env.HOME, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_EMBEDDED_PORT: '0',
    LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000', DATABASE_POOL_SIZE: POOL,
    // The receiver listens on 127.0.0.1.
    OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32',
    ...(POSTGRES ? { DATABASE_URL: env.DATABASE_URL } : {}),
    ...(AT_SCALE ? {} : { TEMPORAL_API_KEY: TEMPORAL_KEY }),
    ...(env.NODE_OPTIONS ? { NODE_OPTIONS: env.NODE_OPTIONS } : {}),
    ...extra,
  };
}

/** Starts the shape; `started` collects each part as it comes up, so a failure half-way stops what runs. */
async function startShape(dataDir: string, temporalDir: string, started: Partial<Shape>): Promise<Shape> {
  if (AT_SCALE) {
    const atScale = (started.atScale = await startAtScale(temporalDir));
    log(`Temporal dev server (the real one) in pid ${atScale.temporal.child.pid} at ${atScale.temporal.address}`);
    const service = (started.service = await startChild<Ready>('service-child.ts', serviceEnv(dataDir, { ...atScale.sharedEnv, RUN_WORKER: 'false' }), THREAD_NAMES));
    started.replicas = [];
    for (let i = 1; i < API_REPLICAS; i++) {
      // A data directory of its own (its TLS certificate); the database and the secrets are shared.
      const own = path.join(dataDir, `api-${i + 1}`);
      mkdirSync(own);
      started.replicas.push(await startChild<Ready>('service-child.ts', serviceEnv(own, { ...atScale.sharedEnv, RUN_WORKER: 'false' }), THREAD_NAMES));
    }
    const workerEnv = serviceEnv(dataDir, { ...atScale.sharedEnv, DATABASE_URL: service.ready.databaseUrl, DATABASE_POOL_SIZE: env.BENCH_WORKER_POOL ?? '10' });
    const stats = ['--require', path.join(__dirname, 'worker-stats.cjs'), ...THREAD_NAMES];
    started.workers = [];
    for (let i = 0; i < WORKERS; i++) {
      const [w] = await atScale.startWorkers(workerEnv, 1, stats);
      started.workers.push({ ...w, ask: <R>(msg: object) => askChild<R>(w.process, msg) });
    }
  } else {
    started.service = await startChild<Ready>('service-child.ts', serviceEnv(dataDir), THREAD_NAMES);
    started.replicas = [];
    started.workers = [];
  }
  const ready = started.service.ready;
  started.peer = await startChild<{ url: string }>('engine-peer.ts', {
    PATH: env.PATH, HOME: env.HOME,
    DATA_DIR: dataDir, // the service's certificate, through the same loadTls
    DATABASE_URL: ready.databaseUrl, DATABASE_POOL_SIZE: PEER_POOL,
    TEMPORAL_ADDRESS: ready.temporalAddress,
    ...(AT_SCALE ? {} : { TEMPORAL_API_KEY: TEMPORAL_KEY }),
  }, THREAD_NAMES);
  return started as Shape;
}

async function main() {
  if (AT_SCALE && !POSTGRES) throw new Error('BENCH_AT_SCALE=1 needs DATABASE_URL (a throw-away PostgreSQL database)');
  const shapeName = AT_SCALE
    ? `at scale: PostgreSQL, Temporal's dev server, ${API_REPLICAS} API process${API_REPLICAS > 1 ? 'es' : ''} + ${WORKERS} workers; the peer beside them`
    : POSTGRES ? 'PostgreSQL, the service with its embedded Temporal server and worker; the peer on both'
    : 'embedded: one service process (API, PGlite, Temporal server, worker); the peer on its database and Temporal server';
  log(`Engine bench (${shapeName}): ${ROUNDS} rounds of service then peer, ${CONTACTS} contacts from ${CLIENTS} clients each, ${os.cpus().length} CPUs, Node ${process.version}`);
  if (POSTGRES) log('WARNING: DATABASE_URL is set: this run WRITES into that database. Use a throw-away database.');
  const startLoad = loadAverage();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-engine-'));
  const temporalDir = mkdtempSync(path.join(os.tmpdir(), 'bench-engine-temporal-'));
  const receiver = await startReceiver();
  const started: Partial<Shape> = {};
  let probe: DatabaseProbe | undefined;
  try {
    const shape = await startShape(dataDir, temporalDir, started);
    log(`Service at ${shape.service.ready.url} (pid ${shape.service.process.pid}), Temporal at ${shape.service.ready.temporalAddress}; peer at ${shape.peer.ready.url} (pid ${shape.peer.process.pid})`);
    const labels = (await shape.service.ask<Stats>({ cmd: 'stats' })).threads;
    log(`Threads of the service process (CPU ms so far): ${Object.entries(threadCpuMs(shape.service.process.pid!, labels)).map(([name, ms]) => `${name} ${ms}`).join(', ')}`);
    probe = await openDatabaseProbe(shape.service.ready.databaseUrl);
    if (POSTGRES) shape.postmaster = await probe.postmasterPid();
    const { organisationId, key } = await tenant(shape.service.ready.databaseUrl);
    await setUpWebhookAutomation(shape.service.ready.url, key, receiver.url);
    const peerAutomation = await shape.peer.ask<{ error?: string }>({ cmd: 'automation', organisationId, url: receiver.url, secret: newSecret(), contactType: 'PERSON' });
    if (peerAutomation.error) throw new Error(`the peer's automation: ${peerAutomation.error}`);
    const runs: EngineRun[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const engine of ['service', 'peer'] as const) runs.push(await measureRun(engine, round, shape, receiver, key, probe));
    }
    log('');
    log(`Engine path (${shapeName}); load average ${startLoad} at start, ${loadAverage()} at end:`);
    log('');
    printEngine(runs, { atScale: AT_SCALE, postgres: POSTGRES }, log);
  } finally {
    log('Stopping...');
    await probe?.close();
    await started.peer?.stop();
    await started.service?.stop();
    await Promise.all([...(started.replicas ?? []), ...(started.workers ?? [])].map((w) => w.stop()));
    await started.atScale?.temporal.stop();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(temporalDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
