/**
 * Temporal's own development server, `temporal server start-dev` of the Temporal CLI, as a child
 * process: the real server this package's tests also run on (README.md "Conformance"), what the
 * service's `TEMPORAL_SERVER=cli` runs instead of the embedded server, and what the service's tests
 * start for their real-Temporal pass (docs/temporal.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';

export interface TemporalCliOptions {
  /** The `temporal` binary: a path, or a name looked up on PATH. */
  bin: string;
  /** Its SQLite state: workflows survive a restart on the same file. */
  dbFile: string;
  /** Address of the frontend (and of the UI unless uiHost says otherwise). */
  host: string;
  /** gRPC frontend; 0 picks a free port. */
  port: number;
  /** Its Web UI: a port (0 picks a free one), or undefined for none (headless). */
  uiPort?: number;
  uiHost?: string;
  /** Created at start when it is not `default` (the dev server always has that one). */
  namespace?: string;
  /**
   * Where the child's pid is kept while it runs: a parent killed with SIGKILL cannot stop its
   * child, so the next start on the same file stops that orphan first.
   */
  pidFile?: string;
  timeoutMs?: number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, fields?: object) => void;
}

export interface TemporalCliServer {
  /** host:port of the gRPC frontend. */
  address: string;
  httpAddress: string;
  uiUrl?: string;
  child: ChildProcess;
  /** The last 64 KiB it printed. */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

const OUTPUT_LIMIT = 64 * 1024;
const STOP_GRACE_MS = 10_000;

/**
 * Starts the dev server and resolves once its namespace answers. A port picked here (0) may be
 * taken by another process before the server binds it: the server then exits and new ports are
 * tried, up to three times. A port the caller named is tried once.
 */
export async function startTemporalCliServer(opts: TemporalCliOptions): Promise<TemporalCliServer> {
  if (opts.pidFile) await stopOrphan(opts.pidFile, opts.dbFile);
  const picked = opts.port === 0 || opts.uiPort === 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (err) {
      if (!picked || attempt >= 3) throw err;
    }
  }
}

async function startOnce(opts: TemporalCliOptions): Promise<TemporalCliServer> {
  const port = opts.port || (await freePort(opts.host));
  // Nobody is told the HTTP API's port; picked here so the caller knows it (src/outbound refuses it).
  const httpPort = await freePort(opts.host);
  const uiPort = opts.uiPort === undefined ? undefined : opts.uiPort || (await freePort(opts.uiHost ?? opts.host));
  const args = ['server', 'start-dev', '--ip', opts.host, '--port', String(port), '--http-port', String(httpPort),
    '--metrics-port', '0', '--db-filename', opts.dbFile, '--log-level', 'warn'];
  if (uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(uiPort), '--ui-ip', opts.uiHost ?? opts.host, '--ui-disable-news-fetch');
  if (opts.namespace && opts.namespace !== 'default') args.push('--namespace', opts.namespace);

  const child = spawn(opts.bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (c: Buffer) => (out = (out + c.toString()).slice(-OUTPUT_LIMIT));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  let stopping = false;
  let ready = false;
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const gone = () => spawnError !== undefined || child.exitCode !== null || child.signalCode !== null;
  child.once('exit', (code, signal) => {
    // After it was ready: a start that fails says why in its error instead.
    if (ready && !stopping) opts.log?.('error', 'the Temporal dev server exited on its own', { code, signal, output: out.slice(-2000) });
  });
  const stop = async () => {
    stopping = true;
    if (!gone()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    if (opts.pidFile) rmSync(opts.pidFile, { force: true });
  };
  if (opts.pidFile && child.pid) writeFileSync(opts.pidFile, String(child.pid), { mode: 0o600 });

  const address = `${opts.host}:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (gone() || Date.now() > deadline) {
      await stop();
      const why = spawnError ? `could not be run (${spawnError.message})` : `did not start on ${address}`;
      throw new Error(`${opts.bin} server start-dev ${why}${out ? `:\n${out.slice(-4000)}` : ''}`);
    }
    if ((ready = await answers(address, opts.namespace ?? 'default'))) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const uiUrl = uiPort === undefined ? undefined : `http://${opts.uiHost ?? opts.host}:${uiPort}`;
  opts.log?.('info', 'Temporal dev server started', { bin: opts.bin, pid: child.pid, address, ui: uiUrl, dbFile: opts.dbFile });
  return { address, httpAddress: `${opts.host}:${httpPort}`, uiUrl, child, output: () => out, stop };
}

async function answers(address: string, namespace: string): Promise<boolean> {
  // Loaded here, not with the package: the embedded server's thread loads the package and needs
  // no client (loading it takes 130-280 ms).
  const { Connection } = await import('@temporalio/client');
  try {
    const connection = await Connection.connect({ address, connectTimeout: 2_000 });
    try {
      await connection.workflowService.describeNamespace({ namespace });
      return true;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

async function freePort(host: string): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Stops the dev server a previous start left running on the same state file (its parent was
 * killed). Only a live process whose command line names that file: a pid reused by another
 * program is left alone.
 */
async function stopOrphan(pidFile: string, dbFile: string): Promise<void> {
  let pid: number;
  let commandLine: string;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    rmSync(pidFile, { force: true });
    return;
  }
  if (!commandLine.includes('start-dev') || !commandLine.includes(dbFile)) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; alive(pid); waited += 100) {
    if (waited === STOP_GRACE_MS) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
  rmSync(pidFile, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
