// The engine peer (child process of bench/engine.ts, issue 32 item 1): the service's automation
// work done the minimal way in one Node process, on the service's database (its own schema,
// bench_peer, which the service's dispatcher never sees) and the service's Temporal server.
// - POST /backoffice/v1/contacts over node:https (the service's TLS material through loadTls; the
//   credential check of bench/peer-http.ts, contacts:write): the contact, its e-mail and phones
//   and an outbox event written by one statement (data-modifying CTEs: one round trip, one
//   transaction), answered 200 {"id"};
// - a dispatcher kicked after each commit and polling every POLL_MS: claims events with FOR
//   UPDATE SKIP LOCKED and a lease (one statement), starts one workflow per (automation, event)
//   with the id peer-run:<automation id>:<event id> and REJECT_DUPLICATE, marks the events;
// - an in-process @temporalio/worker on task queue `bench-peer` running bench/engine-peer-workflow.ts
//   (one activity: bench/engine-peer-run.ts).
// What it leaves out on purpose: audit rows, idempotency keys, per-step scopes and tenancy checks,
// the service's validation and read model, intents, retries of a failed start beyond the sweep.
// Over IPC: `stats` (CPU, statements sent, threads, RSS) and `automation` (writes the peer's own
// automation with one webhook action, the twin of the one the bench makes in the service).
import { randomUUID } from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Pool } from 'pg';
import { loadConfig } from '../src/config';
import { isLoopback } from '../src/temporal/connection';
import { loadTls } from '../src/tls';
import { PEER_SCHEMA, peerActivities, type PeerRunInput } from './engine-peer-run';
import { apiKeyOf, error, keyAuthenticator, send } from './peer-http';
import { RssSampler } from './rss';
import { statementsSent } from './statements';
import { threadLabels } from './threads';

const PEER_TASK_QUEUE = 'bench-peer';
const BATCH = 100;
const CONCURRENCY = 32;
const POLL_MS = 1000;
const LEASE_SECONDS = 30;
const MAX_BODY = 64 * 1024;

const REGISTER = `WITH c AS (
  INSERT INTO bench_peer.contacts (id, organisation_id, contact_type, first_name, last_name) VALUES ($1, $2, $3, $4, $5) RETURNING id),
e AS (INSERT INTO bench_peer.emails (id, contact_id, address) SELECT $6, c.id, $7 FROM c WHERE $7::text IS NOT NULL),
p AS (INSERT INTO bench_peer.phones (id, contact_id, phone_type, country_code, number)
  SELECT gen_random_uuid(), c.id, x.phone_type, x.country_code, x.number FROM c, jsonb_to_recordset($8::jsonb) AS x(phone_type text, country_code text, number text)),
ev AS (INSERT INTO bench_peer.events (id, organisation_id, type, payload) SELECT $9, $2, 'REGISTER_CONTACT', $10::jsonb FROM c)
SELECT id FROM c`;

// Claimed and leased in one statement; the automations of each event joined to it.
const CLAIM = `WITH claimed AS (
  UPDATE bench_peer.events SET claimed_until = now() + make_interval(secs => $2)
  WHERE id IN (SELECT id FROM bench_peer.events WHERE dispatched_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
  RETURNING id, organisation_id, type)
SELECT c.id AS event_id, c.organisation_id, a.id AS automation_id
FROM claimed c LEFT JOIN bench_peer.automations a ON a.organisation_id = c.organisation_id AND a.event = c.type AND a.active`;

const MARK = 'UPDATE bench_peer.events SET dispatched_at = now(), claimed_until = NULL WHERE id = ANY($1::uuid[])';

interface Registration {
  contact_type: 'PERSON' | 'COMPANY';
  first_name?: string;
  last_name?: string;
  email_address?: string;
  phones?: Array<{ phone_type?: string; country_code?: string; number: string }>;
}

const rss = new RssSampler();

async function main() {
  const env = process.env;
  if (!env.DATABASE_URL || !env.TEMPORAL_ADDRESS) throw new Error('DATABASE_URL and TEMPORAL_ADDRESS are required');
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: Number(env.DATABASE_POOL_SIZE ?? 20) });
  pool.on('error', () => undefined);
  await pool.query(PEER_SCHEMA);

  // As the service reaches a Temporal server (src/temporal/connection.ts): the embedded one's key
  // in the clear on loopback; the SDK's gzip off on loopback (src/temporal/worker.ts).
  // The SDK's INFO lines (bundling, state changes) would drown the bench's output.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const address = env.TEMPORAL_ADDRESS;
  const security = env.TEMPORAL_API_KEY ? { apiKey: env.TEMPORAL_API_KEY, tls: false as const } : {};
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  const client = new Client({ connection: await Connection.connect({ address, ...security }), namespace });
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address, ...security, ...(isLoopback(address) ? { grpcCompression: { codec: 'none' as const } } : {}) }),
    namespace,
    taskQueue: PEER_TASK_QUEUE,
    workflowsPath: require.resolve('./engine-peer-workflow'),
    activities: peerActivities(pool),
    // As the service's in-process worker (src/temporal/in-process-worker.ts).
    workflowThreadPoolSize: 1,
  });
  const running = worker.run();

  const dispatcher = new Dispatcher(pool, client);
  const authenticate = keyAuthenticator(pool, 'contacts:write');

  async function register(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/backoffice/v1/contacts') return send(res, 404, error('NOT_FOUND', 'Not found'));
    const secret = apiKeyOf(req);
    if (!secret) return send(res, 401, error('INVALID_CREDENTIAL', 'Authentication required: send an api_key header'));
    const principal = await authenticate(secret);
    if (!principal) return send(res, 401, error('INVALID_CREDENTIAL', 'The API key or token is invalid'));
    if (!principal.allowed) return send(res, 403, error('FORBIDDEN', 'This credential may not write contacts'));
    const body = parse(await readBody(req));
    if (!body) return send(res, 400, error('VALIDATION_ERROR', 'contact_type (PERSON or COMPANY) and string names, e-mail and phone numbers are required'));
    const id = randomUUID();
    const snapshot = { id, contact_type: body.contact_type, first_name: body.first_name ?? null, last_name: body.last_name ?? null, email_address: body.email_address ?? null };
    await pool.query(REGISTER, [
      id, principal.organisationId, body.contact_type, body.first_name ?? null, body.last_name ?? null,
      randomUUID(), body.email_address ?? null, JSON.stringify(body.phones ?? []), randomUUID(), JSON.stringify(snapshot),
    ]);
    send(res, 200, JSON.stringify({ id }));
    dispatcher.kick();
  }

  const tls = await loadTls(loadConfig({ DATA_DIR: env.DATA_DIR }));
  const server = https.createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 65_000 }, (req, res) => {
    register(req, res).catch((err) => {
      process.stderr.write(`engine peer: ${err instanceof Error ? err.message : String(err)}\n`);
      if (!res.headersSent) send(res, 500, error('INTERNAL', 'Internal error'));
      else res.destroy();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `https://localhost:${port}/backoffice/v1` });
  });
  dispatcher.start();

  process.on('message', (msg: { cmd: 'stats' } | { cmd: 'automation'; organisationId: string; url: string; secret: string; contactType: string }) => {
    const reply = (value: unknown) => process.send?.({ reply: value });
    if (msg.cmd === 'automation') {
      const automationId = randomUUID();
      pool.query('INSERT INTO bench_peer.automations (id, organisation_id, event, active) VALUES ($1, $2, $3, true)', [automationId, msg.organisationId, 'REGISTER_CONTACT'])
        .then(() => pool.query('INSERT INTO bench_peer.actions (id, automation_id, url, secret, contact_type) VALUES ($1, $2, $3, $4, $5)', [randomUUID(), automationId, msg.url, msg.secret, msg.contactType]))
        .then(() => reply({ automationId }), (err: unknown) => reply({ error: String(err) }));
      return;
    }
    const cpu = process.cpuUsage();
    reply({ cpuMicros: cpu.user + cpu.system, statements: statementsSent(), threads: threadLabels(), ...rss.report() });
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    dispatcher.close();
    worker.shutdown();
    running.then(() => pool.end()).then(() => process.exit(0), () => process.exit(1));
  });
}

/** The outbox dispatcher, one pass at a time; a kick during a pass runs another right after it. */
class Dispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pool: Pool, private readonly client: Client) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
  }

  close(): void {
    clearInterval(this.timer);
  }

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().catch((err: unknown) => void process.stderr.write(`engine peer dispatcher: ${String(err)}\n`)).finally(() => {
      this.running = null;
    });
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      while ((await this.pass()) === BATCH);
    } while (this.again);
  }

  /** One claim: its starts (CONCURRENCY at a time), then the marking. Answers how many events it claimed. */
  private async pass(): Promise<number> {
    const { rows } = await this.pool.query<{ event_id: string; organisation_id: string; automation_id: string | null }>(CLAIM, [BATCH, LEASE_SECONDS]);
    const runs = rows.flatMap((r): PeerRunInput[] => (r.automation_id ? [{ organisationId: r.organisation_id, automationId: r.automation_id, eventId: r.event_id }] : []));
    for (let i = 0; i < runs.length; i += CONCURRENCY) await Promise.all(runs.slice(i, i + CONCURRENCY).map((input) => this.startRun(input)));
    // A failed start fails the pass before the marking: the claim's lease runs out and the sweep
    // claims those events again (their started runs are refused as duplicates).
    const events = [...new Set(rows.map((r) => r.event_id))];
    if (events.length) await this.pool.query(MARK, [events]);
    return rows.length;
  }

  private async startRun(input: PeerRunInput): Promise<void> {
    try {
      await this.client.workflow.start('peerRunWorkflow', {
        taskQueue: PEER_TASK_QUEUE, workflowId: `peer-run:${input.automationId}:${input.eventId}`, args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
      if (raw.length > MAX_BODY) req.destroy(new Error('body too large'));
    });
    req.on('end', () => resolve(raw));
    req.on('error', reject);
  });
}

/** The little validation the peer does: the shape, not the service's rules. */
function parse(raw: string): Registration | null {
  let body: Registration;
  try {
    body = JSON.parse(raw) as Registration;
  } catch {
    return null;
  }
  const text = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= 200);
  if (!body || (body.contact_type !== 'PERSON' && body.contact_type !== 'COMPANY')) return null;
  if (!text(body.first_name) || !text(body.last_name) || !text(body.email_address)) return null;
  if (body.email_address !== undefined && !/^[^@\s]+@[^@\s]+$/.test(body.email_address)) return null;
  if (body.phones !== undefined && (!Array.isArray(body.phones) || !body.phones.every((p) => typeof p?.number === 'string'))) return null;
  return body;
}

main().catch((err) => {
  process.stderr.write(`engine peer failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
