// The communication-plan scenario of `npm run bench` (`BENCH_ONLY=plan`, issue 9 part 6): one
// tick of a plan to a FILTER segment (filters {}) of a fresh organisation holding
// BENCH_PLAN_CONTACTS contacts (default 10,000), e-mailed through an SMTP integration pointing
// at an in-process SMTP sink. Measured: communications written per second (tick → the last row's
// created_at) and the time from the tick to the last mail the sink accepted.
//
// The plan's frequency is a 6-field cron naming one second BENCH_PLAN_LEAD_SECONDS (default 8)
// ahead, so it ticks once; after every row of the tick is SENT it goes back to DRAFT anyway.
// The contacts go straight into the database (bench/seed.ts); the organisation, its key, the
// integration, the segment and the plan through the API (seeding, not measured).
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { SMTPServer } from 'smtp-server';
import { postJson, sendJson } from './http';
import { procCpuMs } from './rss';
import { seedContacts } from './seed';

export interface PlanResult {
  contacts: number;
  /** Epoch ms of the tick. */
  tick: number;
  rows: number;
  sent: number;
  failed: number;
  /** created_at of the first and last row, sent_at of the last, ms after the tick. */
  firstCreatedMs: number;
  lastCreatedMs: number;
  lastSentAtMs: number;
  /** The sink: mails accepted, first and last accepted, ms after the tick. */
  mails: number;
  firstMailMs: number;
  lastMailMs: number;
  /** The service process over the tick (from just before the tick to all rows SENT). */
  cpuMs?: number;
  statements?: number;
  /** This process over the tick: the SMTP sink and the polling. */
  sinkCpuMs: number;
  /** PostgreSQL backends of the benchmark's database over the tick (from /proc; approximate). */
  postgresCpuMs?: number;
  seedSeconds: number;
  timedOut: boolean;
}

type Stats = { cpuMicros: number; statements?: number };

/** Counts messages and when the last was accepted; the body is drained, not parsed. */
export async function startSink(): Promise<{ port: number; mails: () => { count: number; first: number; last: number }; close: () => Promise<void> }> {
  let count = 0;
  let first = 0;
  let last = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 100,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        const now = Date.now();
        if (!count) first = now;
        count++;
        last = now;
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails: () => ({ count, first, last }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function putJson(url: string, headers: Record<string, string>, body: object): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'PUT', headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A 6-field cron (seconds first) matching exactly `at` (UTC): it ticks once a year. */
function cronAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`;
}

/**
 * CPU of the PostgreSQL backends connected to the benchmark's database: each backend's first
 * reading (0 for one that starts later) against its last. A backend that exits loses its CPU
 * since the last sample (every 250 ms); the poller's own backend is included.
 */
class BackendCpu {
  private first = new Map<number, number>();
  private last = new Map<number, number>();
  constructor(private pool: Pool) {}
  async sample(initial = false): Promise<void> {
    const { rows } = await this.pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
    for (const { pid } of rows) {
      const cpu = procCpuMs(pid);
      if (cpu === undefined) continue;
      if (!this.first.has(pid)) this.first.set(pid, initial ? cpu : 0);
      this.last.set(pid, cpu);
    }
  }
  /** undefined when /proc shows no backend (PostgreSQL elsewhere). */
  total(): number | undefined {
    if (!this.last.size) return undefined;
    let sum = 0;
    for (const [pid, cpu] of this.last) sum += cpu - (this.first.get(pid) ?? 0);
    return sum;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runPlanScenario(opts: {
  base: string;
  databaseUrl: string;
  /** A fresh organisation with no contacts, and a secret key of it. */
  organisationId: string;
  key: string;
  contacts: number;
  leadSeconds: number;
  timeoutSeconds: number;
  stats: () => Promise<Stats>;
  /** BENCH_PROFILE=1: a CPU profile of the service from before the plan is posted until all rows are SENT. */
  profile?: { start: () => Promise<void>; stop: () => Promise<void> };
  log: (line: string) => void;
}): Promise<PlanResult> {
  const { base, databaseUrl, organisationId, contacts, log } = opts;
  const headers = { api_key: opts.key, 'content-type': 'application/json' };
  const sink = await startSink();
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const seed = await seedContacts(databaseUrl, organisationId, contacts, 5000, log);
    log(`  seeded ${contacts} contacts (primary e-mail each) in ${seed.seconds.toFixed(1)} s`);
    const integrationId = await postJson(`${base}/integrations`, headers, {
      name: 'Bench SMTP sink', channel: 'EMAIL', provider: 'SMTP',
      settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'bench@example.com' },
    });
    const segmentId = await postJson(`${base}/segments`, headers, { name: 'Everyone', type: 'FILTER', filters: {} });
    // One tick mails every contact: more than the default hourly quota of e-mail (5,000).
    await sendJson('PUT', `${base}/communication_limits`, headers, { quotas: [{ channel: 'EMAIL', per_hour: contacts + 1000, public_key_per_hour: 0 }] });
    const tick = (Math.floor(Date.now() / 1000) + opts.leadSeconds) * 1000;
    const backends = new BackendCpu(pool);
    await backends.sample(true);
    const sinkBefore = process.cpuUsage();
    if (opts.profile) await opts.profile.start();
    const before = await opts.stats();
    const planId = await postJson(`${base}/communication_plans`, headers, {
      name: 'Bench plan',
      start_date: Math.floor(Date.now() / 1000),
      preferred_channel: 'EMAIL',
      segments: [segmentId],
      integrations: [integrationId],
      contents: [{ language: 'eng', subject: 'Hello {{contact.first_name}}', plain_content: 'Dear {{contact.first_name}} {{contact.last_name}},\n\nthis is the benchmark plan.\n' }],
      frequency: cronAt(new Date(tick)),
      life_cycle_state: 'POSTED',
    });
    log(`  plan ${planId} posted; tick at ${new Date(tick).toISOString()} (${((tick - Date.now()) / 1000).toFixed(1)} s ahead)`);

    const until = tick + opts.timeoutSeconds * 1000;
    let row = { rows: 0, sent: 0, failed: 0, first_created: null as Date | null, last_created: null as Date | null, last_sent: null as Date | null };
    let lastLogged = 0;
    let timedOut = false;
    for (;;) {
      await sleep(Date.now() < tick ? 500 : 250);
      const { rows } = await pool.query(
        `SELECT count(*)::int AS rows, count(*) FILTER (WHERE life_cycle_state = 'SENT')::int AS sent,
                count(*) FILTER (WHERE life_cycle_state = 'FAILED')::int AS failed,
                min(created_at) AS first_created, max(created_at) AS last_created, max(sent_at) AS last_sent
           FROM communications WHERE organisation_id = $1 AND plan_id = $2 AND plan_tick = $3`,
        [organisationId, planId, new Date(tick)],
      );
      row = rows[0];
      await backends.sample();
      if (row.rows >= contacts && row.sent + row.failed >= row.rows) break;
      if (Date.now() - lastLogged > 5000 && Date.now() > tick) {
        lastLogged = Date.now();
        log(`  +${((Date.now() - tick) / 1000).toFixed(0)} s: ${row.rows} rows, ${row.sent} SENT, ${row.failed} FAILED, sink ${sink.mails().count} mails`);
      }
      if (Date.now() > until) {
        timedOut = true;
        log(`  gave up after ${opts.timeoutSeconds} s past the tick`);
        break;
      }
    }
    const after = await opts.stats();
    const sinkCpu = process.cpuUsage(sinkBefore);
    if (opts.profile) await opts.profile.stop();
    await putJson(`${base}/communication_plans/${planId}`, headers, { life_cycle_state: 'DRAFT' });
    // A mail accepted after its row was marked cannot be: the row is marked after the sink's answer.
    const mails = sink.mails();
    const ms = (d: Date | null) => (d ? d.getTime() - tick : NaN);
    return {
      contacts,
      tick,
      rows: row.rows,
      sent: row.sent,
      failed: row.failed,
      firstCreatedMs: ms(row.first_created),
      lastCreatedMs: ms(row.last_created),
      lastSentAtMs: ms(row.last_sent),
      mails: mails.count,
      firstMailMs: mails.count ? mails.first - tick : NaN,
      lastMailMs: mails.count ? mails.last - tick : NaN,
      cpuMs: (after.cpuMicros - before.cpuMicros) / 1000,
      statements: after.statements !== undefined && before.statements !== undefined ? after.statements - before.statements : undefined,
      sinkCpuMs: (sinkCpu.user + sinkCpu.system) / 1000,
      postgresCpuMs: backends.total(),
      seedSeconds: seed.seconds,
      timedOut,
    };
  } finally {
    await pool.end();
    await sink.close();
  }
}

/** A Markdown table, like the other scenarios'. */
export function printPlan(r: PlanResult, log: (line: string) => void): void {
  const s = (ms: number) => (Number.isFinite(ms) ? (ms / 1000).toFixed(2) : '-');
  const rate = (n: number, ms: number) => (ms > 0 && Number.isFinite(ms) ? Math.round(n / (ms / 1000)).toString() : '-');
  log('| contacts | rows | SENT | FAILED | tick → first row s | tick → last row s | communications/s (tick → last row) | rows/s (first → last row) | tick → last mail accepted s | mails/s (tick → last mail) | tick → last sent_at s | service CPU s | service CPU ms/communication | SQL/communication | aim |');
  log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  const perSecond = r.rows / (r.lastCreatedMs / 1000);
  const endToEnd = r.mails / (r.lastMailMs / 1000);
  const aim = `created ${perSecond >= 500 ? 'met' : 'MISSED'}, tick → last mail ${endToEnd >= 500 ? 'met' : 'MISSED'}: >= 500 communications/s`;
  log(
    `| ${r.contacts} | ${r.rows} | ${r.sent} | ${r.failed} | ${s(r.firstCreatedMs)} | ${s(r.lastCreatedMs)} | ${rate(r.rows, r.lastCreatedMs)} | ${rate(r.rows, r.lastCreatedMs - r.firstCreatedMs)} | ${s(r.lastMailMs)} | ${rate(r.mails, r.lastMailMs)} | ${s(r.lastSentAtMs)} | ${r.cpuMs === undefined ? '-' : (r.cpuMs / 1000).toFixed(1)} | ${r.cpuMs === undefined || !r.rows ? '-' : (r.cpuMs / r.rows).toFixed(2)} | ${r.statements === undefined || !r.rows ? '-' : (r.statements / r.rows).toFixed(2)} | ${aim}${r.timedOut ? ' (timed out)' : ''} |`,
  );
  log(`Sink: ${r.mails} mails accepted, the first ${s(r.firstMailMs)} s and the last ${s(r.lastMailMs)} s after the tick (${rate(r.mails, r.lastMailMs - r.firstMailMs)} mails/s between them). Service CPU and SQL cover the whole tick (writing and sending), from before the plan was posted until every row was SENT.`);
  log(`Over the same span: PostgreSQL backends of this database ${r.postgresCpuMs === undefined ? '- (not on this machine)' : `${(r.postgresCpuMs / 1000).toFixed(1)} s CPU (${(r.postgresCpuMs / r.rows).toFixed(2)} ms/communication; from /proc, approximate)`}; this process (SMTP sink + polling) ${(r.sinkCpuMs / 1000).toFixed(1)} s CPU (${(r.sinkCpuMs / r.rows).toFixed(2)} ms/mail).`);
}
