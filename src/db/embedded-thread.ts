// The embedded database's own thread (started by src/db/embedded.ts): PGlite and its wire server
// run here, on their own event loop, so that the API's thread and the database work on two cores
// at once. The application still reaches the database only through the wire socket.
//
// To the parent: { ready: { host, port } } once listening, { failed: text } if it cannot start,
// { closed: true } or { failed: text } after a close. The thread then ends by itself.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { makePrivate } from '../data-dir';
import { startWireServer, type WireServer } from './pglite-wire';

export type ThreadData =
  | { pgdata: string; password: string; maxConnections: number }
  /** Only initialise a fresh data directory (initdb), then end: src/db/embedded.ts `initialise`. */
  | { pgdata: string; initOnly: true };
export type ThreadMessage = { ready: { host: string; port: number } } | { failed: string } | { closed: true };

/**
 * PostgreSQL's default 128 MB of shared buffers live in PGlite's WebAssembly memory: 32 MB took
 * an idle restart from 318 to 184 MB RSS (docs/benchmarks.md "Start-up and idle memory"); pages
 * beyond it are read back from the operating system's page cache.
 */
const SHARED_BUFFERS = '32MB';

const port = parentPort!;
const post = (message: ThreadMessage) => port.postMessage(message);

// pg_trgm backs the contacts' general search index (ILIKE '%…%' on search_text).
const open = (pgdata: string) => PGlite.create({ dataDir: pgdata, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] });

async function start(data: ThreadData): Promise<void> {
  if ('initOnly' in data) return initialise(data.pgdata);
  const { pgdata, password, maxConnections } = data;
  let db: PGlite | undefined;
  let server: WireServer | undefined;
  try {
    db = await open(pgdata);
    makePrivate(pgdata);
    server = await startWireServer(db, { password, host: '127.0.0.1', port: 0, maxConnections });
  } catch (err) {
    await server?.close().catch(() => {});
    await db?.close().catch(() => {});
    post({ failed: (err as Error).message });
    port.close();
    return;
  }
  const running = { db, server };
  port.once('message', () => {
    // The one message the parent sends is "close": the wire server first (no new work), then
    // PGlite, which flushes to disk.
    void (async () => {
      try {
        await running.server.close();
        await running.db.close();
        post({ closed: true });
      } catch (err) {
        post({ failed: (err as Error).message });
      }
      port.close();
    })();
  });
  post({ ready: { host: server.host, port: server.port } });
}

async function initialise(pgdata: string): Promise<void> {
  try {
    await (await open(pgdata)).close();
    makePrivate(pgdata);
    post({ closed: true });
  } catch (err) {
    post({ failed: (err as Error).message });
  }
  port.close();
}

void start(workerData as ThreadData);
