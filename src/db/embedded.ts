// The embedded default database: PGlite (PostgreSQL compiled to WebAssembly) persisted in the
// data directory and served on a local PostgreSQL wire socket, so the application talks to it
// exactly as it talks to a real PostgreSQL (ARCHITECTURE.md, two shapes).
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { makePrivate } from '../data-dir';
import { DEFAULT_POOL_SIZE } from './client';
import { lockDataDir } from './data-dir-lock';
import { startWireServer, WIRE_USER, type WireServer } from './pglite-wire';

export interface EmbeddedDatabase {
  /** postgresql:// URL of the socket server, for Prisma, pg and psql alike. */
  url: string;
  /** Stops the socket server and closes PGlite cleanly (flushes to disk). Idempotent. */
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
  opts: { maxConnections?: number; log?: EmbeddedLog } = {},
): Promise<EmbeddedDatabase> {
  const started = Date.now();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = lockDataDir(dataDir);
  let db: PGlite | undefined;
  let server: WireServer | undefined;
  try {
    const pgdata = path.join(dataDir, 'pgdata');
    // pg_trgm backs the contacts' general search index (ILIKE '%…%' on search_text).
    db = await PGlite.create({ dataDir: pgdata, extensions: { pg_trgm } });
    makePrivate(pgdata);
    const password = randomBytes(32).toString('base64url');
    server = await startWireServer(db, { password, host: '127.0.0.1', port: 0, maxConnections: opts.maxConnections ?? DEFAULT_POOL_SIZE });
    const url = `postgresql://${WIRE_USER}:${password}@${server.host}:${server.port}/postgres?sslmode=disable`;
    const infoFile = path.join(dataDir, DATABASE_INFO_FILE);
    writeAtomically(infoFile, JSON.stringify({ url, pid: process.pid } satisfies DatabaseInfo, null, 2));
    opts.log?.info({ dataDir: pgdata, address: `${server.host}:${server.port}`, info: infoFile, ms: Date.now() - started }, 'embedded PostgreSQL (PGlite) listening');

    const running = { db, server };
    let closing: Promise<void> | undefined;
    return {
      url,
      close: () => (closing ??= (async () => {
        rmSync(infoFile, { force: true });
        try {
          await running.server.close();
          await running.db.close();
        } finally {
          lock.release();
        }
      })()),
    };
  } catch (err) {
    await server?.close().catch(() => {});
    await db?.close().catch(() => {});
    lock.release();
    throw new Error(`Could not start the embedded database in ${dataDir}: ${(err as Error).message}`, { cause: err });
  }
}

function writeAtomically(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
}
