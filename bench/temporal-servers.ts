// The Temporal servers bench/temporal.ts compares, each as a process of its own so that its CPU
// and memory are read from /proc apart from the worker and the starters (which run in the bench's
// process, the same for both): the embedded server (temporal/server/main.ts, fsync on, as under
// `npm start`) and the real development server (`temporal server start-dev` of TEMPORAL_CLI).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startTemporalCliServer } from '@backoffice/temporal-server';

const ROOT = path.join(__dirname, '..');

export interface ServerProcess {
  name: string;
  address: string;
  pid: number;
  stop(): Promise<void>;
}

/** CPU time (user + system, all threads) the process has used, in ms; from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

export async function startEmbedded(dataDir: string): Promise<ServerProcess> {
  // node --import tsx, not the tsx CLI: the pid measured is the server's own.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'temporal/server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_PORT: '0', TEMPORAL_HTTP_PORT: 'off', TEMPORAL_UI_PORT: 'off', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /TEMPORAL_READY (\S+)/.exec(out);
      if (ready) resolve(ready[1]);
    });
    child.once('exit', (code) => reject(new Error(`the embedded server exited (${code}) before it was ready`)));
  });
  child.stdout!.resume();
  return { name: 'embedded', address, pid: child.pid!, stop: () => stopChild(child) };
}

/** The CLI named by TEMPORAL_CLI, else the one .ci/run installs; undefined when neither is there. */
export function temporalCliBinary(): string | undefined {
  if (process.env.TEMPORAL_CLI) return process.env.TEMPORAL_CLI;
  const venv = path.join(ROOT, '.venv-temporal/bin/temporal');
  return existsSync(venv) ? venv : undefined;
}

export async function startCli(bin: string, dataDir: string): Promise<ServerProcess> {
  const server = await startTemporalCliServer({ bin, dbFile: path.join(dataDir, 'temporal-cli.db'), host: '127.0.0.1', port: 0 });
  return { name: 'real (dev server)', address: server.address, pid: server.child.pid!, stop: () => server.stop() };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
