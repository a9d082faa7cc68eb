// BENCH_AT_SCALE=1 (with DATABASE_URL): the at-scale shape of ARCHITECTURE.md on this machine,
// as test/platform/at-scale.test.ts starts it: Temporal's own dev server (`temporal server
// start-dev`, TEMPORAL_CLI or .venv-temporal/bin/temporal), the service as an API process
// (RUN_WORKER=false, its dispatcher on) and BENCH_WORKERS (2) `npm run worker` processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startTemporalCliServer, type TemporalCliServer } from '@backoffice/temporal-server';

const ROOT = path.resolve(__dirname, '..');

export interface WorkerChild {
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface AtScale {
  temporal: TemporalCliServer;
  /** What the API process and the workers share: the secrets a worker needs to open what the API sealed. */
  sharedEnv: Record<string, string>;
  /** `nodeArgs` go before the entry, after `--import tsx` (e.g. bench/worker-stats.ts, which answers over IPC). */
  startWorkers(env: NodeJS.ProcessEnv, count: number, nodeArgs?: string[]): Promise<WorkerChild[]>;
}

export async function startAtScale(dir: string): Promise<AtScale> {
  const bin = process.env.TEMPORAL_CLI ?? path.join(ROOT, '.venv-temporal/bin/temporal');
  const temporal = await startTemporalCliServer({ bin, dbFile: path.join(dir, 'temporal-cli.db'), host: '127.0.0.1', port: 0 });
  const key = () => randomBytes(32).toString('base64');
  return {
    temporal,
    sharedEnv: { TEMPORAL_ADDRESS: temporal.address, SECRETS_KEY: key(), JWT_SECRET: key(), VOUCHER_SECRET: key() },
    startWorkers: (env, count, nodeArgs = []) => Promise.all(Array.from({ length: count }, () => startWorker(env, nodeArgs))),
  };
}

/** `src/temporal/worker.ts` (what `npm run worker` runs), ready once it logs "worker started". */
function startWorker(env: NodeJS.ProcessEnv, nodeArgs: string[]): Promise<WorkerChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, path.join(ROOT, 'src/temporal/worker.ts')], { cwd: ROOT, env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`a worker did not start within 120 s:\n${out}`));
    }, 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      // Read to the end (so the pipe never fills); kept only until it is ready.
      if (ready) return;
      out += chunk.toString();
      if (!out.includes('"msg":"worker started"')) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        process: child,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(kill);
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`a worker exited with ${code} before it polled:\n${out}`));
    });
  });
}
