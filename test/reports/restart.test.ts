// A report run survives a SIGKILL of the whole service (docs/reports.md "Crash behaviour"): a
// service of its own mails a report of a few thousand contacts to an SMTP server that holds the
// message unanswered; the service is killed (A: while the run is RUNNING and mailing; B: right
// after POST answered), started again on the same data, and the run ends SENT with one message
// of one Message-ID whose CSV holds every row once, and no file left behind.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../src/db/client';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { eventually } from '../communications/helpers';
import { parseCsv } from './csv';

const CONTACTS = 3000;
/** Every 500th last name needs CSV quoting. */
const lastName = (n: number) => (n % 500 === 0 ? `O"Neil, Jr.` : `Kill${n}`);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-report-restart-'));
// On PostgreSQL a database of its own, as the data directory is the service's own.
const own = ownDatabase('report_restart');
let service: ServiceProcess | undefined;
let sink: Awaited<ReturnType<typeof startHoldingSink>>;
let db: Db | undefined;


/**
 * A real SMTP server that, while `hold` is set, reads a message whole and leaves it unanswered
 * until release(): the sender has not been told it was accepted. A message whose sender went away
 * meanwhile is not accepted (as a real server would drop it); only answered messages count.
 */
async function startHoldingSink() {
  const accepted: ParsedMail[] = [];
  const held: Array<{ messageId?: string; session: string }> = [];
  const closed = new Set<string>();
  let release = () => {};
  let gate = Promise.resolve();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onClose: (session) => closed.add(session.id),
    onData(stream, session, callback) {
      const holding = gate;
      simpleParser(stream).then(async (mail) => {
        held.push({ messageId: mail.messageId, session: session.id });
        await holding;
        if (closed.has(session.id)) return;
        accepted.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.server.address() as AddressInfo).port,
    accepted,
    held,
    closed,
    hold() {
      gate = new Promise<void>((r) => (release = r));
    },
    release: () => release(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function start() {
  service = await startServiceProcess(serviceEnv(dataDir, own.env));
  db = own.connect(dataDir);
}

/**
 * SIGKILL: the service is one process (embedded Temporal and PGlite run inside it). A real
 * Temporal server (TEMPORAL_CLI) outlives it and retries the killed attempt after the
 * activity's 30 s heartbeat timeout, within expectMailedOnce's wait.
 */
async function kill() {
  await db?.$disconnect().catch(() => undefined);
  db = undefined;
  await service!.stop('SIGKILL');
}

const call = (method: string, route: string, auth: { key?: string; token?: string }, body?: object) =>
  api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), ...auth, body });


beforeAll(async () => {
  await own.create();
});

afterAll(async () => {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  sink?.release();
  await sink?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

test('a report run killed while mailing, or right after it was asked for, is mailed once after a restart with every row', async () => {
  sink = await startHoldingSink();
  await start();
  const tenant = await createTenant('report restart', dataDir, own.url);
  const key = { key: tenant.secretKey };
  const users = await call('GET', `/users?username=${encodeURIComponent(tenant.admin.username)}`, key);
  expect((await call('PUT', `/users/${users.body.content[0].id}`, key, { email: 'reports@kill.test' })).status).toBe(200);
  expect((await call('POST', '/integrations', key, {
    name: 'Holding SMTP', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'reports@kill.test' },
  })).status).toBe(200);
  // Consistent contacts, written in one statement (the API would take a minute for these).
  await db!.$executeRaw`INSERT INTO contacts (id, organisation_id, code, contact_type, first_name, last_name, search_text, updated_at)
    SELECT gen_random_uuid(), ${tenant.organisationId}::uuid, 'RK-' || lpad(g::text, 4, '0'), 'PERSON', 'First' || g,
      CASE WHEN g % 500 = 0 THEN 'O"Neil, Jr.' ELSE 'Kill' || g END, 'first' || g, now()
    FROM generate_series(0, ${CONTACTS - 1}) g`;
  const expected = Array.from({ length: CONTACTS }, (_, n) => [`RK-${String(n).padStart(4, '0')}`, `First${n}`, lastName(n)]);

  const login = async () => {
    const res = await call('POST', '/users/login', {}, { username: tenant.admin.username, password: tenant.admin.password });
    expect(res.status).toBe(200);
    return { token: res.body.access_token as string };
  };
  const runReport = async () => {
    const res = await call('POST', '/reports/contacts', await login(), {
      format: 'CSV',
      columns_set: [{ order: 1, key: 'code' }, { order: 2, key: 'first_name' }, { order: 3, key: 'last_name' }],
    });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  /** After the restart: SENT, one accepted message of the run's Message-ID with every row once, no file left. */
  async function expectMailedOnce(runId: string) {
    const run = await eventually(async () => {
      const found = await db!.reportRun.findUniqueOrThrow({ where: { id: runId } });
      return ['SENT', 'FAILED'].includes(found.state) ? found : undefined;
    }, 60_000, `run ${runId} to settle`);
    expect([run.state, run.rowCount, run.error]).toEqual(['SENT', CONTACTS, null]);
    expect(run.completedAt).toBeInstanceOf(Date);
    // A second message (a repeated send under another Message-ID, or a late one) would show here.
    await new Promise((r) => setTimeout(r, 1000));
    const mails = sink.accepted;
    expect(mails.map((m) => m.messageId)).toEqual([`<report-${runId}@backoffice>`]);
    const [attachment] = mails[0].attachments;
    expect(mails[0].attachments).toHaveLength(1);
    expect(attachment.size).toBe(run.byteCount);
    const [header, ...rows] = parseCsv(attachment.content.toString('utf8').replace(/^\uFEFF/, ''));
    expect(header).toEqual(['Code', 'First name', 'Last name']);
    expect(rows).toHaveLength(CONTACTS);
    expect([...rows].sort((x, y) => x[0].localeCompare(y[0]))).toEqual(expected);
    const reports = path.join(dataDir, 'reports');
    expect(existsSync(reports) ? readdirSync(reports) : []).toEqual([]);
    sink.accepted.splice(0);
  }

  // A: killed while RUNNING, the file written and the message with the sink, not yet accepted.
  sink.hold();
  const a = await runReport();
  await eventually(async () => sink.held.some((h) => h.messageId === `<report-${a}@backoffice>`), 60_000, 'the held message of run A');
  expect((await db!.reportRun.findUniqueOrThrow({ where: { id: a } })).state).toBe('RUNNING');
  await kill();
  await eventually(async () => sink.held.every((h) => sink.closed.has(h.session)), 10_000, 'the killed sender to go away');
  expect(existsSync(path.join(dataDir, 'reports', `${a}.csv`))).toBe(true);
  sink.release();
  expect(sink.accepted).toEqual([]);
  await start();
  await expectMailedOnce(a);

  // B: killed right after POST answered (PENDING or just RUNNING); the sink holds anything sent
  // before the kill, so nothing is accepted from the killed process.
  sink.hold();
  const b = await runReport();
  await kill();
  await eventually(async () => sink.held.every((h) => sink.closed.has(h.session)), 10_000, 'the killed sender to go away');
  sink.release();
  expect(sink.accepted).toEqual([]);
  await start();
  await expectMailedOnce(b);
  // Three service starts on a busy 2-core machine.
}, 180_000);
