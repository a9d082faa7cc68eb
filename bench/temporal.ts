/**
 * Temporal throughput/latency benchmark: `npm run bench:temporal`.
 * Runs the same load on the embedded server and on the real development server (`temporal server
 * start-dev` of TEMPORAL_CLI, or of .venv-temporal as .ci/run installs it) in one run, each as a
 * process of its own (bench/temporal-servers.ts), and prints them side by side: workflows/s, p99,
 * the server's CPU per workflow and its RSS. A worker in this process and N concurrent starters
 * execute workflows back to back (start → result).
 * Knobs: BENCH_SERVERS (default "embedded,cli"), TEMPORAL_ADDRESS (one external server instead),
 * BENCH_SECONDS (per scenario, default 5), BENCH_MAX (workflows per scenario, default 3000),
 * BENCH_CONCURRENCY (default "1,10,50"), BENCH_GZIP=1 (the SDK default request compression, off here
 * as for loopback in src/temporal/worker.ts), BENCH_WF_THREADS (workflow threads, default min(4, CPUs)),
 * BENCH_MAX_CACHED (sticky cache size), TEMPORAL_API_KEY (the embedded server's key: set one to run it), BENCH_TRACING=1 (the service's tracing interceptors, no exporter).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { mb, procStatusBytes } from './rss';
import { processCpuMs, startCli, startEmbedded, temporalCliBinary, type ServerProcess } from './temporal-servers';
import type { BenchActivities } from './workflows';
import { activityTracing, workflowSpanSinks, WORKFLOW_TRACING_MODULE } from '../src/telemetry/workflow-spans';

interface Scenario {
  name: string;
  workflow: 'oneActivityWorkflow' | 'timerWorkflow';
  arg: number;
}

interface Result {
  scenario: string;
  starters: number;
  done: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The bench process's CPU (worker and starters) per completed workflow. */
  clientCpuMs: number;
  /** The server process's CPU per completed workflow: robust to a busy machine. */
  serverCpuMs: number;
  /** The server's RSS after the scenario, bytes. */
  serverRss?: number;
  firstError?: string;
}

interface ServerRun {
  server: string;
  results: Result[];
  /** RSS after the warm-up, after the last scenario, and the kernel's peak (VmHWM). */
  rssWarm?: number;
  rssEnd?: number;
  rssPeak?: number;
  closedRuns: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'one activity', workflow: 'oneActivityWorkflow', arg: 1 },
  { name: 'timer 10 ms', workflow: 'timerWorkflow', arg: 10 },
];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const MAX = Number(process.env.BENCH_MAX ?? 3000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,10,50').split(',').map(Number);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

async function runScenario(client: Client, taskQueue: string, serverPid: number | undefined, sc: Scenario, starters: number, seconds: number, max: number): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let issued = 0;
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const serverCpu0 = serverPid === undefined ? 0 : processCpuMs(serverPid);
  const starter = async (s: number): Promise<void> => {
    while (performance.now() < deadline && issued < max) {
      const i = issued++;
      const start = performance.now();
      try {
        await client.workflow.execute(sc.workflow, {
          taskQueue,
          workflowId: `bench-${sc.workflow}-${starters}-${s}-${i}-${t0.toFixed(0)}`,
          args: [sc.arg],
        });
        latencies.push(performance.now() - start);
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: starters }, (_, s) => starter(s)));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const done = Math.max(1, latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    scenario: sc.name,
    starters,
    done: latencies.length,
    errors,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    clientCpuMs: (cpu.user + cpu.system) / 1000 / done,
    serverCpuMs: serverPid === undefined ? NaN : (processCpuMs(serverPid) - serverCpu0) / done,
    serverRss: procStatusBytes(serverPid, 'VmRSS'),
    firstError,
  };
}

function printRows(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function printServer(run: ServerRun): void {
  console.log(`\n${run.server}`);
  printRows([
    ['workflow', 'starters', 'completed', 'errors', 'seconds', 'wf/s', 'p50 ms', 'p99 ms', 'server CPU ms/wf', 'bench CPU ms/wf', 'server RSS MB'],
    ...run.results.map((r) => [
      r.scenario, String(r.starters), String(r.done), String(r.errors), fixed(r.seconds), fixed(r.perSecond),
      fixed(r.p50), fixed(r.p99), fixed(r.serverCpuMs, 2), fixed(r.clientCpuMs, 2), mb(r.serverRss),
    ]),
  ]);
  console.log(`server RSS: ${mb(run.rssWarm)} MB after the warm-up, ${mb(run.rssEnd)} MB after ${run.closedRuns} closed runs, peak ${mb(run.rssPeak)} MB`);
  for (const r of run.results) if (r.firstError) console.log(`${r.scenario} x${r.starters}: first error: ${r.firstError}`);
}

/** Embedded beside real, scenario by scenario; the ratio is embedded over real throughput. */
function printSideBySide([embedded, real]: ServerRun[]): void {
  console.log(`\nside by side (${embedded.server} / ${real.server})`);
  printRows([
    ['workflow', 'starters', 'wf/s embedded', 'wf/s real', 'ratio', 'p99 ms embedded', 'p99 ms real', 'server CPU ms/wf embedded', 'real'],
    ...embedded.results.map((e, i) => {
      const r = real.results[i];
      return [e.scenario, String(e.starters), fixed(e.perSecond), fixed(r.perSecond), `${fixed((100 * e.perSecond) / r.perSecond, 0)}%`,
        fixed(e.p99), fixed(r.p99), fixed(e.serverCpuMs, 2), fixed(r.serverCpuMs, 2)];
    }),
    ['server RSS MB (warm / end / peak)', '', `${mb(embedded.rssWarm)} / ${mb(embedded.rssEnd)} / ${mb(embedded.rssPeak)}`,
      `${mb(real.rssWarm)} / ${mb(real.rssEnd)} / ${mb(real.rssPeak)}`, '', '', '', '', ''],
  ]);
}

/** One server: a worker and a client in this process, the warm-up, then every scenario. */
async function benchServer(name: string, address: string, pid: number | undefined): Promise<ServerRun> {
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = `bench-${process.pid}-${Date.now()}`;
  console.log(`${name}: Temporal at ${address}, task queue ${taskQueue}`);
  const activities: BenchActivities = { echo: async (n) => n };
  // The embedded server has a door (docs/security.md "The engine's door"): TEMPORAL_API_KEY, which its process inherits.
  const apiKey = process.env.TEMPORAL_API_KEY ? { apiKey: process.env.TEMPORAL_API_KEY, tls: false as const } : {};
  const nativeConnection = await NativeConnection.connect({ address, ...apiKey, ...(process.env.BENCH_GZIP ? {} : { grpcCompression: { codec: 'none' } }) });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace,
    taskQueue,
    activities,
    workflowsPath: require.resolve('./workflows'),
    // BENCH_TRACING=1: the service's tracing interceptors and sink, with no exporter (what every worker carries; docs/operations.md "Overhead").
    ...(process.env.BENCH_TRACING ? { interceptors: { workflowModules: [WORKFLOW_TRACING_MODULE], activity: [activityTracing] }, sinks: workflowSpanSinks() } : {}),
    // BENCH_MAX_CACHED=0 turns off the sticky cache (each workflow task then replays from event 1).
    ...(process.env.BENCH_MAX_CACHED ? { maxCachedWorkflows: Number(process.env.BENCH_MAX_CACHED) } : {}),
    // The SDK's default single workflow thread was the bottleneck here (~1.7x more wf/s with 2 on 2 CPUs).
    workflowThreadPoolSize: Number(process.env.BENCH_WF_THREADS ?? Math.min(4, os.cpus().length)),
  });
  const running = worker.run();
  const connection = await Connection.connect({ address, ...apiKey });
  const client = new Client({ connection, namespace });
  const run: ServerRun = { server: name, results: [], closedRuns: 0 };
  try {
    // Warm-up: JIT, workflow bundle load, gRPC channels.
    for (const sc of SCENARIOS) run.closedRuns += (await runScenario(client, taskQueue, pid, sc, 5, 2, 50)).done;
    run.rssWarm = procStatusBytes(pid, 'VmRSS');
    for (const sc of SCENARIOS) {
      for (const starters of CONCURRENCY) {
        const r = await runScenario(client, taskQueue, pid, sc, starters, SECONDS, MAX);
        console.log(`  ${sc.name} x${starters}: ${fixed(r.perSecond)} wf/s, p50 ${fixed(r.p50)} ms, p99 ${fixed(r.p99)} ms, server ${fixed(r.serverCpuMs, 2)} ms CPU/wf`);
        run.results.push(r);
        run.closedRuns += r.done;
      }
    }
    run.rssEnd = procStatusBytes(pid, 'VmRSS');
    run.rssPeak = procStatusBytes(pid, 'VmHWM');
    return run;
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await nativeConnection.close();
  }
}

async function main(): Promise<void> {
  // Keep the SDK's core quiet; only the tables matter here.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const runs: ServerRun[] = [];
  if (process.env.TEMPORAL_ADDRESS) {
    runs.push(await benchServer('external', process.env.TEMPORAL_ADDRESS, undefined));
  } else {
    const wanted = (process.env.BENCH_SERVERS ?? 'embedded,cli').split(',');
    const cli = temporalCliBinary();
    if (wanted.includes('cli') && !cli) console.log('skipping the real server: no TEMPORAL_CLI and no .venv-temporal (docs/temporal.md)');
    const starts: [string, (dir: string) => Promise<ServerProcess>][] = [];
    if (wanted.includes('embedded')) starts.push(['embedded', startEmbedded]);
    if (wanted.includes('cli') && cli) starts.push(['cli', (dir) => startCli(cli, dir)]);
    for (const [, start] of starts) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-temporal-'));
      const server = await start(dataDir);
      try {
        runs.push(await benchServer(server.name, server.address, server.pid));
      } finally {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  for (const run of runs) printServer(run);
  if (runs.length === 2) printSideBySide(runs);
  const [load1] = os.loadavg();
  console.log(`\n${os.cpus().length} CPUs, load average ${load1.toFixed(1)}: with other work running, wf/s and latency understate the servers; CPU per workflow does not.`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
