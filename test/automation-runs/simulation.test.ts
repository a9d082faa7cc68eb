// Issue 35 "Done when": an automation with two filtered actions and 200 contacts registered over
// several days. Simulated before it is switched on, on one record (RECORD: the verdict for a
// matching and a non-matching contact, each filter's actual value) and over the window (HISTORY);
// not one row or request comes of either (counted in the database, at a local receiver and at an
// SMTP sink). Then it is switched on and the contacts' events are dispatched again (as the
// outbox does for an event whose marking was lost: test/automation-runs/restart.test.ts), so it
// really runs for the same contacts: the replay's summary is what ran, action by action, and
// GET .../performance counts those runs.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { openDatabase } from '../money/helpers';
import { startSmtpSink } from '../communications/helpers';
import { effectRows } from '../automations/helpers';
import type { Db } from '../../src/db/client';
import { caller, eventually, param, postWebhook, startReceiver } from './helpers';

const CONTACTS = 200;
const DAYS = 4;
const DAY = 86_400;

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let db: Db;
let t: Tenant;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpSink();
  db = openDatabase();
  t = await createTenant('simulation done-when');
  call = caller(t.secretKey);
});

afterAll(async () => {
  await receiver?.close();
  await smtp?.close();
  await db?.$disconnect();
});

const person = (i: number) => ({
  contact_type: 'PERSON', first_name: i % 3 === 0 ? `Anna${i}` : `Ben${i}`, last_name: 'Replay', code: `R-${i}`,
  emails: [{ email_address: `r${i}@example.com`, is_primary: true }],
  addresses: [{ address_line_1: '1 Main St', town_city: 'Limassol', postal_code: '3030', country_code: i % 4 === 0 ? 'GRC' : 'CYP', is_primary: true }],
});

test('RECORD and HISTORY say what the automation then really does, and write nothing', async () => {
  const webhook = (await call('POST', '/webhooks', { name: 'CRM', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const integration = (await call('POST', '/integrations', {
    name: 'Sink', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: smtp.port, secure: false, from_address: 'shop@example.com' },
  })).id;
  const { id: auto } = await call('POST', '/automations', { name: 'Welcome', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'INACTIVE' });
  await call('POST', `/automations/${auto}/actions`, {
    content: [
      { order: 1, ...postWebhook(webhook, [{ filters: [{ attribute: 'FIRST_NAME', operator: 'STARTS_WITH', value: 'anna' }] }]) },
      {
        order: 2, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER',
        adaptor_action_parameters: [param('subject', 'Welcome {{contact.first_name}}'), param('content', 'Hello {{contact.first_name}}'), param('integration_id', integration)],
        action_filters: [{ filters: [{ attribute: 'COUNTRY_CODE', operator: 'IN', value_list: ['CY'] }, { attribute: 'CONTACT_TYPE', operator: 'EQUAL', value: 'PERSON' }] }],
      },
    ],
  });
  const ids: string[] = [];
  for (let i = 0; i < CONTACTS; i++) ids.push((await call('POST', '/contacts', person(i))).id);
  // Registered over several days: the records are dated back, day i % DAYS (the API has no field for it).
  await db.$executeRawUnsafe(`UPDATE contacts SET created_at = created_at - make_interval(days => (code_number % ${DAYS})::int)
    FROM (SELECT id AS cid, substr(code, 3)::int AS code_number FROM contacts WHERE organisation_id = $1::uuid) n WHERE organisation_id = $1::uuid AND id = n.cid`, t.organisationId);
  const before = await effectRows(db, t.organisationId);

  // RECORD: Anna0 (GRC) runs the webhook only; Ben1 (CYP) the message only.
  const anna = (await call('POST', `/automations/${auto}/simulations`, { entity_id: 'R-0' })).runs[0];
  expect(anna.actions.map((a: any) => [a.verdict, a.filters.map((f: any) => [f.attribute, f.actual, f.passed])])).toEqual([
    ['WOULD_RUN', [['FIRST_NAME', 'Anna0', true]]],
    ['SKIPPED', [['COUNTRY_CODE', 'GRC', false], ['CONTACT_TYPE', 'PERSON', true]]],
  ]);
  expect(anna.actions[0].effect).toMatchObject({ method: 'POST', url: receiver.url, body: { type: 'REGISTER_CONTACT', data: { contact_id: ids[0] } } });
  const ben = (await call('POST', `/automations/${auto}/simulations`, { entity_id: ids[1] })).runs[0];
  expect(ben.actions.map((a: any) => [a.verdict, a.filters.map((f: any) => [f.attribute, f.actual, f.passed])])).toEqual([
    ['SKIPPED', [['FIRST_NAME', 'Ben1', false]]],
    ['WOULD_RUN', [['COUNTRY_CODE', 'CYP', true], ['CONTACT_TYPE', 'PERSON', true]]],
  ]);
  expect(ben.actions[1].effect).toMatchObject({ kind: 'COMMUNICATION', recipient: 'r1@example.com', subject: 'Welcome Ben1', content: 'Hello Ben1' });

  // HISTORY over the days of the registrations.
  const now = Math.floor(Date.now() / 1000);
  const accepted = await api('POST', `/automations/${auto}/simulations`, { key: t.secretKey, body: { from_date: now - (DAYS + 1) * DAY, to_date: now + 60 } });
  expect(accepted.status).toBe(202);
  const sim = accepted.body.id;
  const replay = await eventually(async () => {
    const s = await call('GET', `/automations/${auto}/simulations/${sim}`);
    return s.state === 'COMPLETED' && s;
  }, 60_000, 'the replay');
  expect(replay.progress).toEqual({ events_done: CONTACTS, events_total: CONTACTS });
  expect(replay.summary.by_day.map((d: any) => d.events)).toEqual(Array(DAYS).fill(CONTACTS / DAYS));

  // Not one row or request of either: the replay's own row, its workflow's intent and its audit row only.
  expect(await effectRows(db, t.organisationId)).toEqual({ ...before, workflow_intents: before.workflow_intents + 1, audit_entries: before.audit_entries + 1 });
  await new Promise((r) => setTimeout(r, 1000));
  expect([receiver.received.length, smtp.mails.length]).toEqual([0, 0]);

  // Switched on, the same contacts' events run it for real.
  await call('PUT', `/automations/${auto}`, { state: 'ACTIVE' });
  await db.$executeRawUnsafe(`UPDATE outbox_events SET dispatched_at = NULL, claimed_until = NULL WHERE organisation_id = $1::uuid AND type = 'REGISTER_CONTACT'`, t.organisationId);
  const runs = await eventually(async () => {
    const page = await call('GET', `/automations/${auto}/runs?size=1`);
    return page.paging.total === CONTACTS && (await db.adaptorActionRecord.count({ where: { organisationId: t.organisationId, automationId: auto } })) === 2 * CONTACTS;
  }, 180_000, 'every run');
  expect(runs).toBe(true);
  const records = await db.adaptorActionRecord.findMany({ where: { organisationId: t.organisationId, automationId: auto } });
  const ran = (order: number) => {
    const actionId = replay.summary.by_action[order - 1].id;
    const mine = records.filter((r) => r.actionId === actionId);
    return { would_run: mine.filter((r) => r.status === 'COMPLETED').length, skipped: mine.filter((r) => r.status === 'SKIPPED').length };
  };
  expect(replay.summary.by_action.map((a: any) => ({ would_run: a.would_run, skipped: a.skipped }))).toEqual([ran(1), ran(2)]);
  const byEvent = new Map<string, boolean>();
  for (const r of records) byEvent.set(r.eventId, (byEvent.get(r.eventId) ?? false) || r.status === 'COMPLETED');
  expect(replay.summary.would_run).toBe([...byEvent.values()].filter(Boolean).length);
  await eventually(async () => receiver.received.length === ran(1).would_run && smtp.mails.length === ran(2).would_run, 60_000, 'the webhooks and messages');
  // The filters' split, computed from the contacts themselves.
  expect(ran(1).would_run).toBe(ids.filter((_, i) => i % 3 === 0).length);
  expect(ran(2).would_run).toBe(ids.filter((_, i) => i % 4 !== 0).length);

  // Performance: those runs, by hour of their events.
  const perf = await call('GET', `/automations/${auto}/performance?from_date=${now - 3600}&to_date=${now + 3600}&granularity=HOUR`);
  const total = (k: string) => perf.buckets.reduce((n: number, b: any) => n + b.runs[k], 0);
  const completed = [...byEvent.values()].filter(Boolean).length;
  expect([total('COMPLETED'), total('SKIPPED'), total('FAILED'), total('WAITING_FOR_APPROVAL')]).toEqual([completed, CONTACTS - completed, 0, 0]);
  const matched = (order: number) => perf.buckets.reduce((n: number, b: any) => n + (b.actions.find((a: any) => a.id === replay.summary.by_action[order - 1].id)?.matched ?? 0), 0);
  expect([matched(1), matched(2)]).toEqual([ran(1).would_run, ran(2).would_run]);
  for (const b of perf.buckets) {
    expect(b.timestamp % 3600).toBe(0);
    expect(b.event_to_effect.p50).toBeGreaterThanOrEqual(0);
    expect(b.event_to_effect.p95).toBeGreaterThanOrEqual(b.event_to_effect.p50);
  }
  const foreign = await api('GET', `/automations/${auto}/performance`, { key: (await createTenant('perf other')).secretKey });
  expect(foreign.status).toBe(404);
}, 400_000);
