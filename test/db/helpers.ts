import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export const repoRoot = path.resolve(__dirname, '../..');

export const silentLog = { info: () => {}, warn: () => {} };

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs a TypeScript file in a child node process. `--import tsx` (not the tsx CLI, which forks)
 * so that the child's pid is the process that holds locks, and SIGKILL really kills it.
 */
export function runTs(file: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs to completion; rejects with its output on a non-zero exit. */
export function runTsToEnd(file: string, args: string[]): Promise<string> {
  const child = runTs(file, args);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited with ${code}:\n${out}`))));
  });
}

/** Resolves with the first stdout line matching `pattern`. */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let errors = '';
    child.stderr?.on('data', (d: Buffer) => (errors += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      const line = buffered.split('\n').find((l) => pattern.test(l));
      if (line) resolve(line);
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before printing ${pattern}:\n${errors}`)));
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.on('exit', () => resolve())));
}

export interface EmbeddedChild {
  url: string;
  pid: number;
  /** SIGTERM: a clean close. */
  stop(): Promise<void>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
}

/** Starts the embedded database on `dataDir` in a child process (see fixtures/serve-embedded.ts). */
export async function startEmbeddedChild(dataDir: string): Promise<EmbeddedChild> {
  const child = runTs(path.join(__dirname, 'fixtures/serve-embedded.ts'), [dataDir]);
  try {
    const line = await waitForLine(child, /^READY /);
    return {
      url: line.slice('READY '.length).trim(),
      pid: child.pid ?? 0,
      stop: async () => {
        child.kill('SIGTERM');
        await exited(child);
      },
      kill: async () => {
        child.kill('SIGKILL');
        await exited(child);
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** One statement on its own connection. */
export async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client(url);
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}
