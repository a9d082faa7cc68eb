// A PostgreSQL wire-protocol server in front of one PGlite instance, so that many client
// connections (Prisma's pool, the admin command line) can share its single backend correctly.
//
// Why not @electric-sql/pglite-socket's server: it hands the backend over between connections
// message by message, so connection B's Parse can land between connection A's Parse and Bind
// and A then binds B's statement: wrong answers to the wrong connection (reproduced by
// bench/embedded-interleave.ts). Here the unit of work is a whole request (every message up
// to Sync or a simple Query), and a connection that leaves a transaction open keeps the
// backend until the transaction ends.
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Messages that end a request: Sync (extended protocol), Query (simple), Flush. */
const REQUEST_END = new Set([0x53 /* S */, 0x51 /* Q */, 0x48 /* H */]);

export interface WireServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

interface Job {
  conn: Connection;
  data: Uint8Array;
  done: (out: Uint8Array | Error) => void;
}

interface Connection {
  socket: net.Socket;
  buffer: Buffer;
  started: boolean;
  /** Messages of the request being received, sent to the backend once it is complete. */
  pending: Buffer[];
  /** Requests run one at a time per connection, in order. */
  chain: Promise<void>;
}

/** Serialises requests of all connections onto the one backend (see the file comment). */
class Backend {
  private readonly queue: Job[] = [];
  /** The connection whose transaction (or unfinished request) is open on the backend. */
  private owner: Connection | null = null;
  private running = false;

  constructor(private readonly db: PGlite) {}

  run(conn: Connection, data: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.queue.push({ conn, data, done: (out) => (out instanceof Error ? reject(out) : resolve(out)) });
      void this.pump();
    });
  }

  /** A connection went away: roll back what it left open, so others can go on. */
  async release(conn: Connection): Promise<void> {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].conn === conn) this.queue.splice(i, 1);
    if (this.owner !== conn) return;
    this.owner = null;
    await this.db.runExclusive(() => this.db.exec('ROLLBACK')).catch(() => undefined);
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index = this.owner ? this.queue.findIndex((j) => j.conn === this.owner) : 0;
        if (index < 0 || this.queue.length === 0) break;
        const [job] = this.queue.splice(index, 1);
        try {
          const out = await this.db.runExclusive(() => this.db.execProtocolRaw(job.data));
          const status = transactionStatus(out);
          // No ReadyForQuery yet (a Flush-ended request) counts as busy, like an open transaction.
          this.owner = status === 'I' ? null : job.conn;
          job.done(out);
        } catch (err) {
          this.owner = null;
          job.done(err as Error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/** The status byte of the last ReadyForQuery ('I' idle, 'T' in transaction, 'E' failed), if any. */
function transactionStatus(out: Uint8Array): string | null {
  const n = out.length;
  if (n >= 6 && out[n - 6] === 0x5a && out[n - 5] === 0 && out[n - 4] === 0 && out[n - 3] === 0 && out[n - 2] === 5) {
    return String.fromCharCode(out[n - 1]);
  }
  return null;
}

export async function startWireServer(db: PGlite, opts: { host?: string; port?: number; maxConnections?: number } = {}): Promise<WireServer> {
  const backend = new Backend(db);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (opts.maxConnections !== undefined && sockets.size >= opts.maxConnections) {
      socket.end(errorResponse('53300', 'too many connections to the embedded database'));
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    const conn: Connection = { socket, buffer: Buffer.alloc(0), started: false, pending: [], chain: Promise.resolve() };
    socket.on('data', (chunk) => {
      conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
      for (const request of takeRequests(conn)) {
        conn.chain = conn.chain.then(async () => {
          if (request === 'terminate') {
            socket.end();
            return;
          }
          const out = await backend.run(conn, request);
          if (!socket.destroyed) socket.write(out);
        }).catch(() => {
          socket.destroy();
        });
      }
    });
    const gone = () => {
      sockets.delete(socket);
      void conn.chain.finally(() => backend.release(conn));
    };
    socket.on('close', gone);
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Cuts complete requests off the connection's buffer; answers SSL/GSS requests with 'N'. */
function takeRequests(conn: Connection): Array<Uint8Array | 'terminate'> {
  const requests: Array<Uint8Array | 'terminate'> = [];
  for (;;) {
    const buf = conn.buffer;
    if (!conn.started) {
      if (buf.length < 8) break;
      const length = buf.readInt32BE(0);
      if (buf.length < length) break;
      const code = buf.readInt32BE(4);
      conn.buffer = buf.subarray(length);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        conn.socket.write('N');
      } else if (code === CANCEL_REQUEST) {
        // Cancelling a running statement is not supported: the backend runs one thing at a time.
        conn.socket.end();
        break;
      } else if (code === PROTOCOL_3) {
        conn.started = true;
        requests.push(buf.subarray(0, length));
      } else {
        conn.socket.end(errorResponse('08P01', 'unsupported frontend protocol'));
        break;
      }
      continue;
    }
    if (buf.length < 5) break;
    const length = 1 + buf.readInt32BE(1);
    if (buf.length < length) break;
    const type = buf[0];
    const message = buf.subarray(0, length);
    conn.buffer = buf.subarray(length);
    if (type === 0x58) {
      requests.push('terminate');
      break;
    }
    conn.pending.push(message);
    if (REQUEST_END.has(type)) {
      requests.push(Buffer.concat(conn.pending));
      conn.pending = [];
    }
  }
  return requests;
}

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C${code}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x45; // 'E'
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}
