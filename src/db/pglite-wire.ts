// A PostgreSQL wire-protocol server in front of one PGlite instance, so that many client
// connections (Prisma's pool, the admin command line) can share its single backend correctly.
//
// Why not @electric-sql/pglite-socket's server: it hands the backend over between connections
// message by message, so connection B's Parse can land between connection A's Parse and Bind
// and A then binds B's statement: wrong answers to the wrong connection (reproduced by
// bench/embedded-interleave.ts). Here the unit of work is a whole request (every message up
// to Sync or a simple Query), and a connection that leaves a transaction open keeps the
// backend until the transaction ends.
//
// Every client must give the password (SCRAM-SHA-256: src/db/wire-auth.ts), and keeps its own
// session settings although the backend session is shared (src/db/wire-sessions.ts).
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { MECHANISM, ScramExchange, scramKeys, type ScramKeys } from './wire-auth';
import { Sessions, simpleQuery, type SessionOwner } from './wire-sessions';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Messages that end a request: Sync (extended protocol), Query (simple), Flush. */
const REQUEST_END = new Set([0x53 /* S */, 0x51 /* Q */, 0x48 /* H */]);
/** The one user, as PGlite's backend knows it. */
export const WIRE_USER = 'postgres';
/** Before the password is right: PostgreSQL's own bounds on the startup packet and the time to log in. */
const MAX_UNAUTHENTICATED_MESSAGE = 10_000;
const AUTHENTICATION_TIMEOUT_MS = 30_000;

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

interface Connection extends SessionOwner {
  socket: net.Socket;
  buffer: Buffer;
  /** Startup message, then the password exchange; only then do requests reach the backend. */
  phase: 'startup' | 'auth' | 'ready';
  /** The startup message, handed to the backend once the password is right. */
  startup?: Buffer;
  user?: string;
  scram?: ScramExchange;
  /** Messages of the request being received, sent to the backend once it is complete. */
  pending: Buffer[];
  /** Requests run one at a time per connection, in order. */
  chain: Promise<void>;
}

/** ParseComplete ('1'): what the backend answers a Parse it accepted. */
const PARSE_COMPLETE = Buffer.from([0x31, 0, 0, 0, 4]);

/**
 * Named prepared statements of the shared backend. Each client connection prepares a name once
 * (pg's named statements: parsed and planned once, then only bound), but the backend is one
 * session for all of them: a second connection's Parse of a name another already prepared would
 * fail as a duplicate, and one connection's DEALLOCATE would drop the others'. So the server keeps
 * every accepted Parse: a Parse of a name the backend holds with the same text is answered
 * ParseComplete here, and a Bind of a name the backend no longer holds is preceded by its Parse
 * again. The names are digests of the statements' text (src/db/sql.ts). Issue 32: planning was
 * about 40 % of the big write statements' cost.
 */
class PreparedStatements {
  /** Every Parse the backend accepted, by statement name. */
  private readonly parses = new Map<string, Buffer>();
  /** The names the backend holds now. */
  private readonly live = new Set<string>();

  /** The request to run, and what to do with its answer (`fix`). */
  prepare(request: Buffer): { request: Buffer; fix: (out: Uint8Array) => Uint8Array } {
    const first = leadingMessage(request);
    if (first?.type === 0x50 && first.names[0]) {
      const [name] = first.names;
      const message = request.subarray(0, first.length);
      if (this.live.has(name) && this.parses.get(name)!.equals(message)) {
        return { request: request.subarray(first.length), fix: (out) => (this.check(name, out), Buffer.concat([PARSE_COMPLETE, out])) };
      }
      return { request, fix: (out) => (out[0] === 0x31 && this.remember(name, message), out) };
    }
    if (first?.type === 0x42 && first.names[1] && this.parses.has(first.names[1])) {
      const name = first.names[1];
      if (this.live.has(name)) return { request, fix: (out) => (this.check(name, out), out) };
      return {
        request: Buffer.concat([this.parses.get(name)!, request]),
        fix: (out) => (out[0] === 0x31 ? (this.live.add(name), out.subarray(PARSE_COMPLETE.length)) : (this.check(name, out), out)),
      };
    }
    return { request, fix: (out) => out };
  }

  /**
   * After a request ran: a DEALLOCATE or DISCARD in its SQL (a simple Query's text or a Parse's,
   * never a parameter's value) may have dropped any of them; a Close of a statement drops that one.
   */
  ran(request: Buffer): void {
    for (let at = 0; at + 5 <= request.length; at += 1 + request.readInt32BE(at + 1)) {
      const type = request[at];
      const end = at + 1 + request.readInt32BE(at + 1);
      if (type === 0x51 /* Q */ && DROPS_STATEMENTS.test(request.toString('utf8', at + 5, end))) this.live.clear();
      if (type === 0x50 /* P */) {
        const nameEnd = request.indexOf(0, at + 5);
        if (DROPS_STATEMENTS.test(request.toString('utf8', nameEnd + 1, end))) this.live.clear();
      }
      if (type === 0x43 /* C */ && request[at + 5] === 0x53 /* S */) this.live.delete(request.toString('utf8', at + 6, request.indexOf(0, at + 6)));
    }
  }

  /**
   * What an error says of the name, when the live set was wrong (a drop ran() did not see, e.g.
   * behind a comment): 26000, it is gone (parsed again next time); 42P05, it is there.
   */
  private check(name: string, out: Uint8Array): void {
    const code = errorCode(out);
    if (code === '26000') this.live.delete(name);
    if (code === '42P05') this.live.add(name);
  }

  private remember(name: string, parse: Buffer): void {
    this.parses.set(name, Buffer.from(parse));
    this.live.add(name);
  }
}

/** A statement of the SQL text that begins with DEALLOCATE or DISCARD. */
const DROPS_STATEMENTS = /(?:^|;)\s*(?:deallocate|discard)\b/i;

/** The SQLSTATE of an answer that begins with an ErrorResponse. */
function errorCode(out: Uint8Array): string | null {
  if (out[0] !== 0x45 || out.length < 5) return null;
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const end = 1 + buf.readInt32BE(1);
  for (let at = 5; at < end && buf[at] !== 0; ) {
    const valueEnd = buf.indexOf(0, at + 1);
    if (valueEnd < 0) return null;
    if (buf[at] === 0x43 /* C */) return buf.toString('utf8', at + 1, valueEnd);
    at = valueEnd + 1;
  }
  return null;
}

/** The request's first message: its type, length and leading strings (Parse: name; Bind: portal, statement). */
function leadingMessage(request: Buffer): { type: number; length: number; names: string[] } | null {
  if (request.length < 5) return null;
  const type = request[0];
  if (type !== 0x50 && type !== 0x42) return null;
  const length = 1 + request.readInt32BE(1);
  const names: string[] = [];
  let at = 5;
  for (let i = 0; i < 2; i++) {
    const end = request.indexOf(0, at);
    if (end < 0 || end >= length) return null;
    names.push(request.toString('utf8', at, end));
    at = end + 1;
  }
  return { type, length, names };
}

/** Serialises requests of all connections onto the one backend (see the file comment). */
class Backend {
  private readonly queue: Job[] = [];
  private readonly prepared = new PreparedStatements();
  /** The connection whose transaction (or unfinished request) is open on the backend. */
  private owner: Connection | null = null;
  private running = false;
  private readonly sessions: Sessions;

  constructor(private readonly db: PGlite) {
    this.sessions = new Sessions(db);
  }

  run(conn: Connection, data: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.queue.push({ conn, data, done: (out) => (out instanceof Error ? reject(out) : resolve(out)) });
      void this.pump();
    });
  }

  /** A connection went away: roll back what it left open, so others can go on. */
  async release(conn: Connection): Promise<void> {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].conn === conn) this.queue.splice(i, 1);
    this.sessions.left(conn);
    if (this.owner !== conn) return;
    this.owner = null;
    await this.db.runExclusive(() => simpleQuery(this.db, 'ROLLBACK')).catch(() => undefined);
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
          const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
          const { request, fix } = this.prepared.prepare(data);
          const out = fix(await this.db.runExclusive(async () => {
            // Between requests of different clients only: a transaction keeps its client's session.
            if (this.owner !== job.conn) await this.sessions.enter(job.conn);
            return this.db.execProtocolRaw(request);
          }));
          this.prepared.ran(data);
          this.sessions.ran(job.conn, job.data);
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

export async function startWireServer(db: PGlite, opts: { password: string; host?: string; port?: number; maxConnections?: number }): Promise<WireServer> {
  const backend = new Backend(db);
  const keys = scramKeys(opts.password);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (opts.maxConnections !== undefined && sockets.size >= opts.maxConnections) {
      socket.end(errorResponse('53300', 'too many connections to the embedded database'));
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    const conn: Connection = { socket, buffer: Buffer.alloc(0), phase: 'startup', pending: [], chain: Promise.resolve(), dirty: false, saved: null };
    const loginTimer = setTimeout(() => conn.phase !== 'ready' && socket.destroy(), AUTHENTICATION_TIMEOUT_MS);
    socket.once('close', () => clearTimeout(loginTimer));
    socket.on('data', (chunk) => {
      conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
      for (const request of takeRequests(conn, keys)) {
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

/**
 * Cuts complete requests off the connection's buffer; answers SSL/GSS requests with 'N' and runs
 * the password exchange itself: the startup message reaches the backend only after it.
 */
function takeRequests(conn: Connection, keys: ScramKeys): Array<Uint8Array | 'terminate'> {
  const requests: Array<Uint8Array | 'terminate'> = [];
  for (;;) {
    const buf = conn.buffer;
    if (conn.phase === 'startup') {
      if (buf.length < 8) break;
      const length = buf.readInt32BE(0);
      if (length < 8 || length > MAX_UNAUTHENTICATED_MESSAGE) {
        conn.socket.end(errorResponse('08P01', 'invalid startup packet length'));
        break;
      }
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
        conn.phase = 'auth';
        conn.startup = buf.subarray(0, length);
        conn.user = startupParameters(conn.startup).user;
        conn.scram = new ScramExchange(keys);
        conn.socket.write(authentication(10, Buffer.from(`${MECHANISM}\0\0`)));
      } else {
        conn.socket.end(errorResponse('08P01', 'unsupported frontend protocol'));
        break;
      }
      continue;
    }
    if (buf.length < 5) break;
    const length = 1 + buf.readInt32BE(1);
    if (length < 5 || (conn.phase === 'auth' && length > MAX_UNAUTHENTICATED_MESSAGE)) {
      conn.socket.end(errorResponse('08P01', 'invalid message length'));
      break;
    }
    if (buf.length < length) break;
    const type = buf[0];
    const message = buf.subarray(0, length);
    conn.buffer = buf.subarray(length);
    if (type === 0x58) {
      requests.push('terminate');
      break;
    }
    if (conn.phase === 'auth') {
      const step = authenticate(conn, type, message.subarray(5));
      if (step === 'refused') break;
      if (step === 'ready') requests.push(conn.startup!);
      continue;
    }
    conn.pending.push(message);
    if (REQUEST_END.has(type)) {
      requests.push(Buffer.concat(conn.pending));
      conn.pending = [];
    }
  }
  return requests;
}

/**
 * One password message of the SCRAM exchange: SASLInitialResponse, then SASLResponse. A refused
 * client's connection is ended with PostgreSQL's own error.
 */
function authenticate(conn: Connection, type: number, body: Buffer): 'more' | 'ready' | 'refused' {
  const refuse = () => {
    conn.socket.end(errorResponse('28P01', `password authentication failed for user "${conn.user ?? ''}"`));
    return 'refused' as const;
  };
  if (type !== 0x70 /* p */) return refuse();
  let answer: string | null;
  if (!conn.scram!.started) {
    const end = body.indexOf(0);
    if (end < 0 || body.toString('utf8', 0, end) !== MECHANISM || body.length < end + 5) return refuse();
    answer = conn.scram!.challenge(body.toString('utf8', end + 5));
    if (answer === null) return refuse();
    conn.socket.write(authentication(11, Buffer.from(answer)));
    return 'more';
  }
  answer = conn.scram!.verify(body.toString('utf8'));
  if (answer === null || conn.user !== WIRE_USER) return refuse();
  conn.socket.write(authentication(12, Buffer.from(answer)));
  conn.phase = 'ready';
  conn.scram = undefined;
  return 'ready';
}

/** An Authentication message ('R') of the given kind. */
function authentication(kind: number, data: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header[0] = 0x52;
  header.writeInt32BE(8 + data.length, 1);
  header.writeInt32BE(kind, 5);
  return Buffer.concat([header, data]);
}

/** The name/value pairs of a startup message. */
function startupParameters(startup: Buffer): Record<string, string> {
  const parts = startup.toString('utf8', 8).split('\0');
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) out[parts[i]] = parts[i + 1];
  return out;
}

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C${code}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x45; // 'E'
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}
