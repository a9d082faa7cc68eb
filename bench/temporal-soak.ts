/**
 * Soak of the embedded Temporal server: `npm run bench:temporal-soak`.
 * Runs BENCH_SOAK_WORKFLOWS (default 50,000) one-activity workflows against the embedded server in
 * a child process of its own (durable data directory, as under `npm start`), with
 * BENCH_SOAK_STARTERS (default 20) concurrent starters and a worker in this process, and prints
 * the server's RSS every BENCH_SOAK_EVERY (default 2,500) closed workflows: the curve shows
 * whether closed runs stay in the server's memory. RSS is read from /proc every 100 ms; each line
 * gives it at the mark and the lowest sample since the line before ("low"): garbage not yet
 * collected swings the first by tens of MB, while memory the server keeps raises the second too.
 * Then the verdict: the growth from 10,000 closed workflows (past the warm-up: JIT, heap sizing,
 * the first log compaction; a quarter of a shorter run) to the end, and the slope of "low" over
 * those lines (least squares).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { mb, procStatusBytes, RSS_SAMPLE_MS } from './rss';
import { processCpuMs, startEmbedded } from './temporal-servers';
import type { BenchActivities } from './workflows';

const TOTAL = Number(process.env.BENCH_SOAK_WORKFLOWS ?? 50_000);
const STARTERS = Number(process.env.BENCH_SOAK_STARTERS ?? 20);
const EVERY = Number(process.env.BENCH_SOAK_EVERY ?? 2_500);
/** Where the verdict's growth is measured from (a quarter of a short run). */
const BASELINE = Math.min(10_000, Math.floor(TOTAL / 4));

interface Point {
  closed: number;
  rss: number;
  /** Lowest RSS sampled since the previous point. */
  low: number;
  perSecond: number;
  seconds: number;
}

/** Bytes of the files under a directory (the data directory's size on disk). */
function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return total;
}

/** Least-squares slope of y over x. */
function slope(xy: [number, number][]): number {
  const n = xy.length;
  const mx = xy.reduce((a, [x]) => a + x, 0) / n;
  const my = xy.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = xy.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = xy.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxy / sxx;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-soak-'));
  const server = await startEmbedded(dataDir);
  const taskQueue = `soak-${process.pid}`;
  const activities: BenchActivities = { echo: async (n) => n };
  const nativeConnection = await NativeConnection.connect({ address: server.address, grpcCompression: { codec: 'none' } });
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    activities,
    workflowsPath: require.resolve('./workflows'),
    workflowThreadPoolSize: Math.min(4, os.cpus().length),
  });
  const running = worker.run();
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  console.log(`embedded Temporal server at ${server.address} (pid ${server.pid}), ${TOTAL} one-activity workflows, ${STARTERS} starters`);
  console.log(`${'closed'.padStart(8)}  ${'RSS MB'.padStart(7)}  ${'low MB'.padStart(7)}  ${'wf/s'.padStart(6)}  ${'seconds'.padStart(8)}`);
  let low = Infinity;
  const sampler = setInterval(() => (low = Math.min(low, procStatusBytes(server.pid, 'VmRSS') ?? Infinity)), RSS_SAMPLE_MS);
  const points: Point[] = [];
  let issued = 0;
  let closed = 0;
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  let lastMark = t0;
  const mark = (): void => {
    const now = performance.now();
    const rss = procStatusBytes(server.pid, 'VmRSS') ?? NaN;
    const p = { closed, rss, low: Math.min(low, rss), perSecond: (EVERY * 1000) / (now - lastMark), seconds: (now - t0) / 1000 };
    lastMark = now;
    low = Infinity;
    points.push(p);
    console.log(`${String(p.closed).padStart(8)}  ${mb(p.rss).padStart(7)}  ${mb(p.low).padStart(7)}  ${p.perSecond.toFixed(1).padStart(6)}  ${p.seconds.toFixed(0).padStart(8)}`);
  };
  const starter = async (): Promise<void> => {
    while (issued < TOTAL) {
      const i = issued++;
      try {
        await client.workflow.execute('oneActivityWorkflow', { taskQueue, workflowId: `soak-${i}`, args: [i] });
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
      if (++closed % EVERY === 0) mark();
    }
  };
  try {
    await Promise.all(Array.from({ length: STARTERS }, starter));
  } finally {
    clearInterval(sampler);
    worker.shutdown();
    await running;
    await connection.close();
    await nativeConnection.close();
  }
  const peak = procStatusBytes(server.pid, 'VmHWM');
  const serverCpuMs = processCpuMs(server.pid);
  const disk = dirBytes(dataDir);
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const seconds = (performance.now() - t0) / 1000;
  console.log(`\n${closed} workflows in ${seconds.toFixed(0)} s (${(closed / seconds).toFixed(1)} wf/s), ${errors} errors${firstError ? ` (first: ${firstError})` : ''}`);
  console.log(`server: RSS peak ${mb(peak)} MB, ${(serverCpuMs / Math.max(1, closed)).toFixed(2)} ms CPU per workflow; data directory ${mb(disk)} MB on disk at the end`);
  const tail = points.filter((p) => p.closed >= BASELINE);
  if (tail.length < 2) {
    console.log(`verdict: too few workflows for a verdict (it measures from ${BASELINE} closed workflows)`);
  } else {
    const [from, last] = [tail[0], tail[tail.length - 1]];
    const growth = last.rss - from.rss;
    const perRun = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB per closed workflow`;
    console.log(
      `verdict: RSS ${mb(from.rss)} MB at ${from.closed} closed workflows → ${mb(last.rss)} MB at ${last.closed}: ` +
        `${growth >= 0 ? '+' : ''}${mb(growth)} MB (${((100 * growth) / from.rss).toFixed(1)} %, ${perRun(growth / (last.closed - from.closed))}); ` +
        `low: ${mb(from.low)} → ${mb(last.low)} MB, slope ${perRun(slope(tail.map((p) => [p.closed, p.low])))}`,
    );
  }
  const [load1] = os.loadavg();
  console.log(`${os.cpus().length} CPUs, load average ${load1.toFixed(1)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
