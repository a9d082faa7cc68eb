// The report scenario of `npm run bench` (`BENCH_ONLY=reports`, issue 11 part 2): a fresh
// organisation with BENCH_REPORT_ROWS purchases (default 100,000) of 1,000 contacts, written
// straight into the tables with generate_series (consistent rows: each contact has its primary
// EUR account, each purchase net + tax = total); then one CSV report of all of them, run with an
// API key a user with an e-mail address created, mailed through an SMTP integration to an
// in-process sink. Measured: request → mail accepted by the sink, rows per second, the file's
// size, and the service's peak RSS over the run (its own 100 ms samples).
import https from 'node:https';
import { Pool } from 'pg';
import { createPrismaClient } from '../src/db/client';
import { createApiKey } from '../src/domain/identity/api-keys';
import { createOrganisation } from '../src/domain/identity/organisations';
import { createUser } from '../src/domain/users/users';
import { postJson } from './http';
import { startSink } from './plan';

export interface ReportResult {
  rows: number;
  seedSeconds: number;
  /** POST /reports/purchases → the sink accepted the mail. */
  mailSeconds: number;
  /** POST → the run read SENT. */
  sentSeconds: number;
  rowCount: number | null;
  byteCount: number | null;
  peakRssBytes?: number;
  rssBeforeBytes?: number;
  timedOut: boolean;
}

type Stats = { rss?: number; peakRss?: number };

const CONTACTS = 1000;

function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  return new Promise((resolve, reject) => {
    https.get(url, { headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(`${url}: ${res.statusCode} ${text}`))));
    }).on('error', reject);
  });
}

/** Contacts with their primary account, then the purchases, each one statement. */
async function seed(databaseUrl: string, organisationId: string, rows: number): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const started = Date.now();
  try {
    await pool.query(
      `INSERT INTO contacts (id, organisation_id, code, contact_type, first_name, last_name, search_text, updated_at)
       SELECT gen_random_uuid(), $1, 'RB-' || g, 'PERSON', 'First' || g, 'Buyer' || g, 'first' || g || ' buyer' || g, now() FROM generate_series(1, $2::int) g`,
      [organisationId, CONTACTS],
    );
    await pool.query(
      `INSERT INTO accounts (id, organisation_id, contact_id, number, name, is_primary, currency_code, updated_at)
       SELECT gen_random_uuid(), $1, c.id, lpad((row_number() OVER (ORDER BY c.code))::text, 10, '0'), 'Main', true, 'EUR', now()
       FROM contacts c WHERE c.organisation_id = $1`,
      [organisationId],
    );
    await pool.query(
      `WITH a AS (SELECT row_number() OVER (ORDER BY number) - 1 AS n, id, contact_id FROM accounts WHERE organisation_id = $1),
            p AS (SELECT g, ((g % 9000) + 100) / 100.0 AS total FROM generate_series(1, $2::int) g)
       INSERT INTO purchases (id, organisation_id, reference_number, contact_id, account_id, performed_on, currency_code,
         net_amount, tax_amount, total_amount, value_units, created_by)
       SELECT gen_random_uuid(), $1, 'RB-' || p.g, a.contact_id, a.id, now() - p.g * interval '1 minute', 'EUR',
         p.total - round(p.total * 0.15, 2), round(p.total * 0.15, 2), p.total, p.total, 'bench'
       FROM p JOIN a ON a.n = p.g % $3`,
      [organisationId, rows, CONTACTS],
    );
    await pool.query('ANALYZE contacts, accounts, purchases');
  } finally {
    await pool.end();
  }
  return (Date.now() - started) / 1000;
}

export async function runReportScenario(o: {
  base: string; databaseUrl: string; rows: number; timeoutSeconds: number; stats: () => Promise<Stats>; log: (line: string) => void;
}): Promise<ReportResult> {
  const db = createPrismaClient(o.databaseUrl, { poolSize: 1 });
  let key: string;
  let organisationId: string;
  try {
    const org = await createOrganisation(db, `Report benchmark ${new Date().toISOString()}`);
    organisationId = org.id;
    const user = await createUser(db, { organisationId, username: `reports-${org.id}`, password: `bench-${org.id}`, isAdmin: true, email: 'reports@bench.test' });
    key = (await createApiKey(db, { organisationId, kind: 'SECRET', name: 'bench reports', createdBy: `user:${user.id}` })).secret;
  } finally {
    await db.$disconnect();
  }
  const headers = { 'content-type': 'application/json', api_key: key };
  o.log(`  seeding ${o.rows} purchases of ${CONTACTS} contacts with generate_series...`);
  const seedSeconds = await seed(o.databaseUrl, organisationId, o.rows);
  o.log(`  seeded in ${seedSeconds.toFixed(1)} s`);
  const sink = await startSink();
  try {
    await postJson(`${o.base}/integrations`, headers, {
      name: 'Bench SMTP', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'reports@bench.test' },
    });
    const before = await o.stats();
    const start = Date.now();
    const runId = await postJson(`${o.base}/reports/purchases`, headers, { format: 'CSV' });
    const until = start + o.timeoutSeconds * 1000;
    let run: { state: string; row_count: number | null; byte_count: number | null } = { state: 'PENDING', row_count: null, byte_count: null };
    let sentAt = 0;
    while (Date.now() < until) {
      run = await getJson(`${o.base}/reports/purchases/runs/${runId}`, headers);
      if (run.state === 'SENT' || run.state === 'FAILED') {
        sentAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = await o.stats();
    const mails = sink.mails();
    if (run.state === 'FAILED') o.log(`  the run FAILED: ${JSON.stringify(run)}`);
    return {
      rows: o.rows, seedSeconds,
      mailSeconds: mails.count ? (mails.last - start) / 1000 : NaN,
      sentSeconds: sentAt ? (sentAt - start) / 1000 : NaN,
      rowCount: run.row_count, byteCount: run.byte_count,
      peakRssBytes: after.peakRss, rssBeforeBytes: before.rss,
      timedOut: run.state !== 'SENT',
    };
  } finally {
    await sink.close();
  }
}

export function printReports(r: ReportResult, log: (line: string) => void): void {
  const mb = (b: number | undefined | null) => (b === undefined || b === null ? '-' : (b / 1024 / 1024).toFixed(1));
  log('| rows | seed s | request → mail accepted s | rows/s | request → SENT s | row_count | file MiB | service RSS before MiB | service peak RSS during MiB |');
  log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  log(
    `| ${r.rows} | ${r.seedSeconds.toFixed(1)} | ${r.mailSeconds.toFixed(2)} | ${Number.isFinite(r.mailSeconds) ? Math.round(r.rows / r.mailSeconds) : '-'} | ${r.sentSeconds.toFixed(2)} | ${r.rowCount ?? '-'} | ${mb(r.byteCount)} | ${mb(r.rssBeforeBytes)} | ${mb(r.peakRssBytes)} |${r.timedOut ? ' (timed out or failed)' : ''}`,
  );
}
