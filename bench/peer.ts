// The hand-written peer (child process of bench/contacts.ts): node:https + pg and nothing else,
// serving GET /backoffice/v1/contacts/{id} only. It shows what the service's one read costs
// without Express, the route pipeline, zod and Prisma: the same TLS material (the service's
// own, through the same loadTls as the hello server), the same credential check, one
// statement the service sends (CONTACT_STATEMENT, src/domain/contacts/read-statement.ts) answered as JSON.
//
// Credential check as in src/api/middleware/auth.ts (bench/peer-http.ts), for contacts:read.
//
// Differences from the service, on purpose: no request id, rate limit or security headers,
// and the JSON is sent as PostgreSQL built it (stored columns, snake_case) without the derived
// fields the service adds in JavaScript (contact_name, country names, interaction_status,
// total_spend). pg is told not to parse the JSON column, so it goes out as received.
//
// Over IPC it answers `stats` with its CPU time, statements sent and RSS (bench/rss.ts).
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { loadConfig } from '../src/config';
import { loadTls } from '../src/tls';
import { CONTACT_STATEMENT, contactStatementParams } from '../src/domain/contacts/read-statement';
import { apiKeyOf, error, keyAuthenticator, send } from './peer-http';
import { RssSampler } from './rss';

const PREFIX = '/backoffice/v1/contacts/';
const rawJson = { getTypeParser: () => (value: string) => value };

const rss = new RssSampler();
let statements = 0;

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const pool = new Pool({ connectionString: databaseUrl, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
  // An idle connection that dies must not crash the process (as src/db/client.ts).
  pool.on('error', () => undefined);
  const authenticate = keyAuthenticator(pool, 'contacts:read', () => void statements++);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    const raw = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : '';
    if (req.method !== 'GET' || !raw || raw.includes('/')) return send(res, 404, error('NOT_FOUND', 'Not found'));
    let idOrCode: string;
    try {
      idOrCode = decodeURIComponent(raw);
    } catch {
      return send(res, 400, error('INVALID_REQUEST', 'Malformed path'));
    }
    const secret = apiKeyOf(req);
    if (!secret) return send(res, 401, error('INVALID_CREDENTIAL', 'Authentication required: send an api_key header'));
    const principal = await authenticate(secret);
    if (!principal) return send(res, 401, error('INVALID_CREDENTIAL', 'The API key or token is invalid'));
    if (!principal.allowed) return send(res, 403, error('FORBIDDEN', 'This credential may not read contacts'));
    statements++;
    const { rows } = await pool.query<{ contact: string }>({
      // Prepared once per connection, as the service's ctx.sql does (src/db/sql.ts).
      name: 'peer_contact',
      text: CONTACT_STATEMENT,
      values: [principal.organisationId, ...contactStatementParams(idOrCode)],
      types: rawJson,
    });
    if (!rows[0]) return send(res, 404, error('NOT_FOUND', 'Contact not found'));
    send(res, 200, rows[0].contact);
  }

  const tls = await loadTls(loadConfig({ DATA_DIR: process.env.DATA_DIR }));
  const server = https.createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 65_000 }, (req, res) => {
    handle(req, res).catch((err) => {
      process.stderr.write(`peer: ${err instanceof Error ? err.message : String(err)}\n`);
      if (!res.headersSent) send(res, 500, error('INTERNAL', 'Internal error'));
      else res.destroy();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `https://localhost:${port}/backoffice/v1` });
  });
  process.on('message', () => {
    const cpu = process.cpuUsage();
    process.send?.({ reply: { cpuMicros: cpu.user + cpu.system, statements, ...rss.report() } });
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    pool.end().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err) => {
  process.stderr.write(`peer failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
