import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * On a shared PostgreSQL database every service and admin command of the run seals secrets with
 * one key, as replicas at scale must (docs/security.md "Secrets at rest"). A test-only key.
 */
export const SHARED_DATABASE_ENV: Record<string, string> = process.env.DATABASE_URL
  ? { SECRETS_KEY: createHash('sha256').update('backoffice test suite: secrets key').digest('base64') }
  : {};

export interface ServiceProcess {
  url: string;
  temporalAddress: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Environment for a service under test: its own data directory, free ports, strict responses. */
export function serviceEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    TEMPORAL_EMBEDDED_PORT: '0',
    // The Temporal UI (and its first build) is for operators; e2e/temporal-ui.e2e.ts tests it.
    TEMPORAL_UI_PORT: 'off',
    // Metrics on, on a free port (main.ts prints it); the SDK's own endpoint cannot pick a free one.
    METRICS_PORT: '0', TEMPORAL_METRICS_PORT: 'off',
    RESPONSE_VALIDATION: 'true',
    LOG_LEVEL: 'warn',
    WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,1s', WEBHOOK_TIMEOUT_MS: '2000',
    // The test receivers and SMTP sinks listen on 127.0.0.1 (::1: localhost may resolve to it
    // too); the rest of 127/8 stays refused (test/security/outbound.test.ts uses 127.0.0.2).
    OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32,::1/128',
    // On the shared PostgreSQL database only the shared service dispatches the outbox: another
    // service's own Temporal server would run the shared service's tenants' automations. A
    // service on a database of its own (own-database.ts) dispatches its own.
    ...(process.env.DATABASE_URL && !extra.DATABASE_URL ? { OUTBOX_DISPATCHER: 'false' } : {}),
    ...SHARED_DATABASE_ENV,
    // On a shared Temporal server a queue per data directory: no other service's worker takes
    // this one's tasks, and a restart on the same directory picks its workflows up again.
    ...(process.env.TEMPORAL_ADDRESS ? { TEMPORAL_TASK_QUEUE: `backoffice-${path.basename(dataDir)}` } : {}),
    ...extra,
  };
  for (const k of ['DATABASE_URL', 'TEMPORAL_ADDRESS']) if (process.env[k] && !extra[k]) env[k] = process.env[k];
  return env;
}

/** Starts `src/main.ts` (what `npm start` runs) and waits until it says where it listens. */
export async function startServiceProcess(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<ServiceProcess> {
  const started = await startNodeProcess('src/main.ts', env, /Back-office API listening on (\S+)\nTemporal frontend at (\S+)/, 'service', timeoutMs);
  return { ...started, url: started.match[1], temporalAddress: started.match[2] };
}

export type WorkerProcess = Omit<ServiceProcess, 'url' | 'temporalAddress'>;

/**
 * Starts `src/temporal/worker.ts` under tsx, or with `compiled` its build `dist/src/temporal/worker.js`
 * (what `npm run worker` runs after its build step, which the caller runs), and waits until it
 * polls. Its readiness is an info line, so the worker logs at info whatever `env` says.
 */
export async function startWorkerProcess(env: NodeJS.ProcessEnv, timeoutMs = 120_000, options: { compiled?: boolean } = {}): Promise<WorkerProcess> {
  const script = options.compiled ? 'dist/src/temporal/worker.js' : 'src/temporal/worker.ts';
  const { match: _match, ...worker } = await startNodeProcess(script, { ...env, LOG_LEVEL: 'info' }, /"msg":"worker started"/, 'worker', timeoutMs);
  return worker;
}

/** Runs `script` of this repository (TypeScript under tsx, compiled .js as it is) and resolves once its output matches `ready`. */
function startNodeProcess(script: string, env: NodeJS.ProcessEnv, ready: RegExp, what: string, timeoutMs: number): Promise<WorkerProcess & { match: RegExpExecArray }> {
  // node --import tsx rather than the tsx CLI: signals reach the process itself, not a wrapper.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, path.join(ROOT, script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({
          match,
          child,
          output: () => out,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode !== null) return child.exitCode;
            // A second SIGTERM would not speed up a graceful stop; SIGKILL is always sent.
            if (!child.killed || signal === 'SIGKILL') child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before ${what === 'service' ? 'listening' : 'polling'}:\n${out}`));
    });
  });
}
