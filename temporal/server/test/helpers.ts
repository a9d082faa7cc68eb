/**
 * Test harness: one server (embedded, or a real one: the dev server global-setup.ts starts with
 * TEMPORAL_CLI, or the one at TEMPORAL_ADDRESS), one workflow bundle and one worker per test file.
 * Restart steps only happen against the embedded server.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { randomUUID } from 'crypto';
import * as net from 'net';
import { spawn } from 'child_process';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, DefaultLogger } from '@temporalio/worker';
import { startTemporalServer } from '../index';
import * as activities from './activities';

type Bundle = Awaited<ReturnType<typeof bundleWorkflowCode>>;

let runtimeInstalled = false;
function quietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger(process.env.TEMPORAL_TEST_LOG ? 'INFO' : 'ERROR') });
  } catch {
    /* already installed by another file in this worker process */
  }
}

let bundlePromise: Promise<Bundle> | undefined;
export function workflowBundle(): Promise<Bundle> {
  bundlePromise ??= bundleWorkflowCode({
    workflowsPath: require.resolve('./workflows'),
    logger: { trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: console.error } as never,
  });
  return bundlePromise;
}

export const external = process.env.CONFORMANCE_TEMPORAL_ADDRESS ?? process.env.TEMPORAL_ADDRESS;

export interface Env {
  address: string;
  /** 'host:port' of the embedded server's HTTP API (setup({ http: true })). */
  httpAddress?: string;
  client: Client;
  taskQueue: string;
  /** True when the tests run against the embedded server (restart steps are possible). */
  embedded: boolean;
  dataDir?: string;
  /**
   * Stops the embedded server (SIGKILL when it runs in a child process) and starts a new one
   * on the same data dir and port; `offline` runs in between (e.g. to age the data dir). A no-op
   * against an external server.
   */
  restart(offline?: () => void): Promise<void>;
  /** Starts a second worker on the task queue (e.g. after the first was stopped). */
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/** A server in this process, or in a child process (so a test can SIGKILL it). */
interface ServerHandle {
  address: string;
  httpAddress?: string;
  close(): Promise<void>;
}

/** `http`: the file tests the embedded server's own HTTP API, so it runs embedded even on a real server's pass. */
export async function setup(opts: { durable?: boolean; startWorker?: boolean; childProcess?: boolean; http?: boolean } = {}): Promise<Env> {
  quietRuntime();
  const remote = opts.http ? undefined : external;
  const dataDir = opts.durable && !remote ? fs.mkdtempSync(path.join(os.tmpdir(), 'tserver-')) : undefined;
  const launch = (port: number): Promise<ServerHandle> =>
    opts.childProcess ? spawnServer(port, dataDir!) : startTemporalServer({ port, dataDir, logger: testLogger, httpPort: opts.http ? 0 : undefined });
  let server = remote ? undefined : await launch(opts.childProcess ? await freePort() : 0);
  const address = remote ?? server!.address;
  // The child runs main.ts, which has the door of the service's server (credential.ts).
  const security = opts.childProcess && !remote ? { apiKey: CHILD_API_KEY, tls: false as const } : {};
  const connection = await Connection.connect({ address, ...security });
  const client = new Client({ connection, namespace: 'default' });
  await registerTestSearchAttributes(connection);
  const taskQueue = `tq-${randomUUID()}`;
  const bundle = await workflowBundle();
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let nativeConn: NativeConnection | undefined;

  const env: Env = {
    address,
    httpAddress: server?.httpAddress,
    client,
    taskQueue,
    embedded: !remote,
    dataDir,
    async restart(offline) {
      if (!server) return;
      const port = Number(address.split(':').pop());
      await server.close();
      offline?.();
      server = await launch(port);
    },
    async startWorker() {
      nativeConn ??= await NativeConnection.connect({ address, ...security });
      worker = await Worker.create({
        connection: nativeConn,
        namespace: 'default',
        taskQueue,
        workflowBundle: bundle,
        activities,
        shutdownGraceTime: '1s',
      });
      running = worker.run();
    },
    async stopWorker() {
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running?.catch(() => undefined);
      worker = undefined;
      running = undefined;
    },
    async close() {
      await env.stopWorker();
      await nativeConn?.close().catch(() => undefined);
      await connection.close();
      await server?.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (opts.startWorker !== false) await env.startWorker();
  return env;
}

/**
 * The custom attributes these tests set, registered as a real cluster needs (neither server has
 * any out of the box). Only the missing ones: every test file does this against one server.
 */
const TEST_SEARCH_ATTRIBUTES = {
  CustomKeywordField: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
};

async function registerTestSearchAttributes(connection: Connection): Promise<void> {
  const known = (await connection.operatorService.listSearchAttributes({ namespace: 'default' })).customAttributes ?? {};
  const missing = Object.entries(TEST_SEARCH_ATTRIBUTES).filter(([name]) => !(name in known));
  if (!missing.length) return;
  await connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes: Object.fromEntries(missing) }).catch((err: { code?: number }) => {
    if (err.code !== 6 /* ALREADY_EXISTS: another test file got there first */) throw err;
  });
}

function testLogger(level: string, msg: string, fields?: object): void {
  if (level === 'error' || process.env.TEMPORAL_TEST_LOG) console.log(`[server ${level}] ${msg} ${JSON.stringify(fields ?? {})}`);
}

export function wid(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

export async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const CHILD_API_KEY = 'conformance-child-server-key-0123456789abcdef';

/** Runs `main.ts` in a child process; close() kills it with SIGKILL (no chance to flush). */
async function spawnServer(port: number, dataRoot: string): Promise<ServerHandle> {
  // `node --import tsx` (not the tsx CLI, which forks) so the SIGKILL hits the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../main.ts')], {
    cwd: path.join(__dirname, '..'),
    env: { ...process.env, TEMPORAL_PORT: String(port), TEMPORAL_HTTP_PORT: 'off', DATA_DIR: dataRoot, TEMPORAL_API_KEY: CHILD_API_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20_000);
    const onData = (b: Buffer): void => {
      out += b.toString();
      const m = /TEMPORAL_READY (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return {
    address,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
