// The embedded default database: PGlite (PostgreSQL compiled to WebAssembly) persisted in the
// data directory and served on a local PostgreSQL wire socket, so the application talks to it
// exactly as it talks to a real PostgreSQL (ARCHITECTURE.md, two shapes).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startThread } from '../threads';
import { DEFAULT_POOL_SIZE } from './client';
import { lockDataDir } from './data-dir-lock';
import type { ThreadData, ThreadMessage } from './embedded-thread';
import { WIRE_USER } from './pglite-wire';

export interface EmbeddedDatabase {
  /** postgresql:// URL of the socket server, for Prisma, pg and psql alike. */
  url: string;
  /**
   * Stops the socket server and closes PGlite cleanly (flushes to disk). Idempotent; resolves
   * also when the database's thread has already ended.
   */
  close(): Promise<void>;
}

export interface EmbeddedLog {
  info(obj: object, msg: string): void;
}

/**
 * Written while running (mode 0600), so that the admin CLI, a worker and tests can reach this
 * process's database: its URL carries the wire server's password, new at every start.
 */
export const DATABASE_INFO_FILE = 'database.json';
export interface DatabaseInfo {
  url: string;
  pid: number;
}

export async function startEmbeddedDatabase(
  dataDir: string,
  opts: {
    maxConnections?: number;
    log?: EmbeddedLog;
    /** Called once if the database's thread ends or fails without being asked to close. */
    onFailure?: (err: Error) => void;
  } = {},
): Promise<EmbeddedDatabase> {
  const started = Date.now();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = lockDataDir(dataDir);
  const pgdata = path.join(dataDir, 'pgdata');
  const password = randomBytes(32).toString('base64url');
  let thread: DatabaseThread;
  try {
    if (!existsSync(path.join(pgdata, 'PG_VERSION'))) await initialise(pgdata);
    thread = await runDatabaseThread({ pgdata, password, maxConnections: opts.maxConnections ?? DEFAULT_POOL_SIZE }, opts.onFailure);
  } catch (err) {
    lock.release();
    throw new Error(`Could not start the embedded database in ${dataDir}: ${(err as Error).message}`, { cause: err });
  }
  const url = `postgresql://${WIRE_USER}:${password}@${thread.host}:${thread.port}/postgres?sslmode=disable`;
  const infoFile = path.join(dataDir, DATABASE_INFO_FILE);
  writeAtomically(infoFile, JSON.stringify({ url, pid: process.pid } satisfies DatabaseInfo, null, 2));
  opts.log?.info({ dataDir: pgdata, address: `${thread.host}:${thread.port}`, info: infoFile, ms: Date.now() - started }, 'embedded PostgreSQL (PGlite) listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => (closing ??= (async () => {
      rmSync(infoFile, { force: true });
      try {
        await thread.close();
      } finally {
        lock.release();
      }
    })()),
  };
}

/**
 * A fresh data directory is initialised (initdb) by a thread of its own that then ends: the serving
 * thread would otherwise keep initdb's WebAssembly instance, ~280 MB of RSS, for its whole life.
 */
function initialise(pgdata: string): Promise<void> {
  const worker = startThread(__dirname, 'embedded-thread', { pgdata, initOnly: true } satisfies ThreadData);
  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    worker.on('message', (message: ThreadMessage) => {
      if ('failed' in message) failure = new Error(message.failed);
    });
    worker.on('error', (err) => (failure ??= err));
    worker.once('exit', (code) => (failure ? reject(failure) : code === 0 ? resolve() : reject(new Error(`initdb's thread ended with exit code ${code}`))));
  });
}

interface DatabaseThread {
  host: string;
  port: number;
  /** Resolves once the thread has ended (at once if it already has); rejects if PGlite's close failed. */
  close(): Promise<void>;
}

/**
 * PGlite and its wire server run in a worker thread (src/db/embedded-thread.ts): the database's
 * work then runs on a core of its own instead of sharing the API's event loop (docs/platform.md
 * "Embedded database").
 * Resolves once it listens; rejects with the thread's reason if it cannot start.
 */
function runDatabaseThread(data: ThreadData, onFailure?: (err: Error) => void): Promise<DatabaseThread> {
  const worker = startThread(__dirname, 'embedded-thread', data);
  let state: 'starting' | 'running' | 'closing' | 'ended' = 'starting';
  let closeFailure: Error | undefined;
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      if (state === 'starting') reject(err);
      else if (state === 'running') onFailure?.(err);
      else if (state === 'closing') closeFailure ??= err;
      if (state !== 'closing') state = 'ended';
    };
    worker.on('message', (message: ThreadMessage) => {
      if ('ready' in message && state === 'starting') {
        state = 'running';
        resolve({
          ...message.ready,
          close: async () => {
            if (state === 'running') {
              state = 'closing';
              worker.postMessage('close');
            }
            await ended;
            if (closeFailure) throw closeFailure;
          },
        });
      } else if ('failed' in message) fail(new Error(message.failed));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (state !== 'closing') fail(new Error(`the database thread ended (exit code ${code})`));
      state = 'ended';
    });
  });
}

function writeAtomically(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
}
