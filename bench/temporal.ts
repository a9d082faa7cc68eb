/**
 * Temporal throughput/latency benchmark: `npm run bench:temporal`.
 * Starts the embedded server in-process (or uses TEMPORAL_ADDRESS) and a worker in this process,
 * then runs N concurrent starters that each execute workflows back to back (start → result).
 * Knobs: BENCH_SECONDS (per scenario, default 5), BENCH_MAX (workflows per scenario, default 3000),
 * BENCH_CONCURRENCY (default "1,10,50"), BENCH_IN_MEMORY=1 (embedded server without a data directory),
 * BENCH_GZIP=1 (the SDK default request compression, off here as for loopback in src/worker.ts),
 * BENCH_WF_THREADS (workflow threads, default min(4, CPUs)), BENCH_MAX_CACHED (sticky cache size).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { startTemporalServer, type TemporalServer } from '../temporal/server/index';
import type { BenchActivities } from './workflows';

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
  /** Process CPU (all threads: server, worker, client) per completed workflow: robust to a busy machine. */
  cpuMsPerWorkflow: number;
  firstError?: string;
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

async function runScenario(client: Client, taskQueue: string, sc: Scenario, starters: number, seconds: number, max: number): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let issued = 0;
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
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
    cpuMsPerWorkflow: (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length),
    firstError,
  };
}

function printTable(results: Result[]): void {
  const rows = [
    ['workflow', 'starters', 'completed', 'errors', 'seconds', 'wf/s', 'p50 ms', 'p99 ms', 'CPU ms/wf'],
    ...results.map((r) => [
      r.scenario,
      String(r.starters),
      String(r.done),
      String(r.errors),
      r.seconds.toFixed(1),
      r.perSecond.toFixed(1),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      r.cpuMsPerWorkflow.toFixed(1),
    ]),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  const cores = os.cpus().length;
  const [load1] = os.loadavg();
  console.log(`\n${cores} CPUs, load average ${load1.toFixed(1)}: with other work running, wf/s and latency understate the server.`);
  for (const r of results) if (r.firstError) console.log(`${r.scenario} x${r.starters}: first error: ${r.firstError}`);
}

async function main(): Promise<void> {
  // Keep the SDK's core quiet; only the table matters here.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-temporal-'));
  // A data directory makes the embedded server fsync each change, as it does under `npm start`.
  const server: TemporalServer | undefined = process.env.TEMPORAL_ADDRESS
    ? undefined
    : await startTemporalServer({ host: '127.0.0.1', port: 0, dataDir: process.env.BENCH_IN_MEMORY ? undefined : dataDir });
  const address = process.env.TEMPORAL_ADDRESS ?? (server as TemporalServer).address;
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = `bench-${process.pid}-${Date.now()}`;
  console.log(`Temporal at ${address} (${server ? 'embedded, in-process' : 'external'}), task queue ${taskQueue}`);

  const activities: BenchActivities = { echo: async (n) => n };
  const nativeConnection = await NativeConnection.connect({ address, ...(process.env.BENCH_GZIP ? {} : { grpcCompression: { codec: 'none' } }) });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace,
    taskQueue,
    activities,
    workflowsPath: require.resolve('./workflows'),
    // BENCH_MAX_CACHED=0 turns off the sticky cache (each workflow task then replays from event 1).
    ...(process.env.BENCH_MAX_CACHED ? { maxCachedWorkflows: Number(process.env.BENCH_MAX_CACHED) } : {}),
    // The SDK's default single workflow thread was the bottleneck here (~1.7x more wf/s with 2 on 2 CPUs).
    workflowThreadPoolSize: Number(process.env.BENCH_WF_THREADS ?? Math.min(4, os.cpus().length)),
  });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  try {
    // Warm-up: JIT, workflow bundle load, gRPC channels.
    for (const sc of SCENARIOS) await runScenario(client, taskQueue, sc, 5, 2, 50);
    const results: Result[] = [];
    for (const sc of SCENARIOS) {
      for (const starters of CONCURRENCY) {
        const r = await runScenario(client, taskQueue, sc, starters, SECONDS, MAX);
        console.log(`  ${sc.name} x${starters}: ${r.perSecond.toFixed(1)} wf/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`);
        results.push(r);
      }
    }
    console.log('');
    printTable(results);
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await nativeConnection.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
