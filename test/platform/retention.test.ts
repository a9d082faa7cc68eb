// Retention (docs/operations.md "Retention"): the daily schedule, and a run that deletes exactly
// the finished rows past their periods (the defaults: outbox 7 days after dispatch, webhook
// requests 30 days after completion, idempotency records 24 h, refresh tokens 7 days after
// expiry), in every organisation, in batches, two runs at once as one.
// Rows are made through the API, then aged by moving their stamps back in SQL.
import { createHash, randomUUID } from 'node:crypto';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import type { RetentionKind } from '../../src/domain/retention/purge';
import { eventually } from '../communications/helpers';
import { openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { connectTemporal } from '../support/temporal';

let t: Tenant;
let other: Tenant;
let db: Db;
let connection: Connection;
let client: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant('Retention'), createTenant('Retention, another organisation')]);
  db = openDatabase();
  connection = await connectTemporal();
  client = new Client({ connection });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await connection?.close();
  await db?.$disconnect();
});

const runRetention = () =>
  client.workflow.execute('retentionWorkflow', { taskQueue: 'backoffice', workflowId: `retention-test-${randomUUID()}` }) as Promise<Record<RetentionKind, number>>;

/** Moves stamps back: `set` is a SET list of `column = now() - interval`, `ids` the rows' ids. */
const age = (table: string, set: string, ids: string[]) => db.$executeRawUnsafe(`UPDATE ${table} SET ${set} WHERE id = ANY($1::uuid[])`, ids);
const existing = async (table: string, ids: string[]) =>
  (await db.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id::text FROM ${table} WHERE id = ANY($1::uuid[])`, ids)).map((r) => r.id).sort();

async function newContact(tenant: Tenant, headers: Record<string, string> = {}): Promise<string> {
  const res = await api('POST', '/contacts', { key: tenant.secretKey, body: { contact_type: 'PERSON', first_name: 'Ret', last_name: 'Retention' }, headers });
  expect(res.status).toBe(200);
  return res.body.id;
}

/** The contact's REGISTER_CONTACT event, once the dispatcher has dispatched it. */
const dispatchedEvent = (contactId: string) =>
  eventually(async () => {
    const [row] = await db.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM outbox_events
      WHERE entity_id = ${contactId}::uuid AND type = 'REGISTER_CONTACT' AND dispatched_at IS NOT NULL`;
    return row?.id;
  }, 30_000, `the event of ${contactId} to be dispatched`);

async function webhookRequest(answer: number): Promise<string> {
  const r = await startReceiver(() => ({ status: answer, body: 'answer' }));
  receivers.push(r);
  const hook = await api('POST', '/webhooks', { key: t.secretKey, body: { name: 'Retention', method: 'POST', url_endpoint: r.url } });
  const sent = await api('POST', `/webhooks/${hook.body.id}/test`, { key: t.secretKey });
  expect(sent.status).toBe(200);
  return sent.body.id;
}
const settled = (id: string) =>
  eventually(async () => {
    const res = await api('GET', `/webhook_requests/${id}`, { key: t.secretKey });
    return res.body.state !== 'PENDING' && res.body;
  }, 30_000, `request ${id} to settle`);

async function login(): Promise<{ id: string; token: string }> {
  const res = await api('POST', '/users/login', { body: t.admin });
  expect(res.status).toBe(200);
  const hash = createHash('sha256').update(res.body.refresh_token).digest('hex');
  const [row] = await db.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM refresh_tokens WHERE token_hash = ${hash}`;
  return { id: row.id, token: res.body.refresh_token };
}

test('retention is the schedule `retention`, daily at 03:00 UTC, a run overlapping the next skipping it', async () => {
  const described = await client.schedule.getHandle('retention').describe();
  expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow', workflowId: 'retention', taskQueue: 'backoffice' });
  expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 3, end: 3, step: 1 }], minute: [{ start: 0, end: 0, step: 1 }] });
  expect(described.info.nextActionTimes[0].toISOString()).toMatch(/T03:00:00\.000Z$/);
  expect(described.policies).toMatchObject({ overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 86_400_000 });
});

test('runs delete exactly the finished rows past their periods, in every organisation; two at once as one', async () => {
  // Outbox events: contacts' REGISTER_CONTACT, the first ones made with Idempotency-Keys.
  const keys = ['old', 'recent', 'abandoned', 'running'].map((k) => `retention-${k}-${randomUUID()}`);
  const contacts: string[] = [];
  for (const key of keys) contacts.push(await newContact(t, { 'idempotency-key': key }));
  for (let i = 0; i < 2; i++) contacts.push(await newContact(t));
  const elsewhere = await newContact(other);
  const [oldEvent, recentEvent, undispatched, awaitingApproval, decidedLately, decidedLongAgo] = await Promise.all(contacts.map(dispatchedEvent));
  const otherOrgsEvent = await dispatchedEvent(elsewhere);
  await age('outbox_events', `created_at = now() - interval '9 days', dispatched_at = now() - interval '8 days'`, [oldEvent, awaitingApproval, decidedLately, decidedLongAgo, otherOrgsEvent]);
  await age('outbox_events', `dispatched_at = now() - interval '6 days'`, [recentEvent]);
  // Written a month ago and never dispatched (a dispatcher holds its lease): never deleted.
  await age('outbox_events', `created_at = now() - interval '30 days', dispatched_at = NULL, claimed_until = now() + interval '1 hour'`, [undispatched]);
  // Runs of the old events: one waits for an approval, one was decided today, one long ago.
  const record = async (eventId: string, status: string, updatedDaysAgo: number) => {
    const id = randomUUID();
    await db.$executeRaw`INSERT INTO adaptor_action_records (id, organisation_id, automation_id, automation_name, action_id, adaptor,
      adaptor_action, event_id, event_type, entity_type, entity_id, status, workflow_id, updated_at)
      VALUES (${id}::uuid, ${t.organisationId}::uuid, ${randomUUID()}::uuid, 'Approvals', ${randomUUID()}::uuid, 'SYSTEM', 'REQUEST_APPROVAL',
      ${eventId}::uuid, 'REGISTER_CONTACT', 'CONTACTS', ${randomUUID()}::uuid, ${status}, 'automation-run:test', now() - make_interval(days => ${updatedDaysAgo}))`;
    return id;
  };
  const records = [await record(awaitingApproval, 'PENDING', 20), await record(decidedLately, 'APPROVED', 0), await record(decidedLongAgo, 'APPROVED', 8)];

  // Webhook requests and their attempts: SUCCESS and FAILED ones finished long ago go.
  const [oldSuccess, oldFailed, recentSuccess, stillPending] = await Promise.all([webhookRequest(200), webhookRequest(500), webhookRequest(200), webhookRequest(200)]);
  expect((await settled(oldFailed)).state).toBe('FAILED');
  for (const id of [oldSuccess, recentSuccess, stillPending]) expect((await settled(id)).state).toBe('SUCCESS');
  await age('webhook_requests', `created_at = now() - interval '40 days', completed_at = now() - interval '31 days'`, [oldSuccess, oldFailed]);
  await age('webhook_requests', `completed_at = now() - interval '29 days'`, [recentSuccess]);
  // Created two months ago and still retrying (its row as a delivery in progress leaves it).
  await age('webhook_requests', `created_at = now() - interval '60 days', completed_at = NULL, state = 'PENDING'`, [stillPending]);

  // Idempotency records: 25 h and 23 h old, and two never completed: one a day old (its request
  // died; the claim already treats it as free) and one of a request running now.
  const ageKey = (key: string, set: string) =>
    db.$executeRawUnsafe(`UPDATE idempotency_records SET ${set} WHERE organisation_id = $1::uuid AND key = $2`, t.organisationId, key);
  await ageKey(keys[0], `created_at = now() - interval '25 hours'`);
  await ageKey(keys[1], `created_at = now() - interval '23 hours'`);
  await ageKey(keys[2], `created_at = now() - interval '25 hours', status_code = NULL, response_body = NULL`);
  await ageKey(keys[3], `created_at = now() - interval '1 minute', status_code = NULL, response_body = NULL`);

  // Refresh tokens: expired 8 days ago, expired 6 days ago, and live.
  const [expiredLongAgo, expiredLately, live] = [await login(), await login(), await login()];
  await age('refresh_tokens', `expires_at = now() - interval '8 days'`, [expiredLongAgo.id]);
  await age('refresh_tokens', `expires_at = now() - interval '6 days'`, [expiredLately.id]);

  // Two runs at once: each row goes once (the other skips what one holds), both succeed.
  const runs = await Promise.all([runRetention(), runRetention()]);
  expect(runs[0].outboxEvents + runs[1].outboxEvents).toBeGreaterThanOrEqual(3);
  expect(runs[0].webhookRequests + runs[1].webhookRequests).toBeGreaterThanOrEqual(2);
  const events = [oldEvent, recentEvent, undispatched, awaitingApproval, decidedLately, decidedLongAgo, otherOrgsEvent];
  // Across organisations: the other one's old event went too.
  expect(await existing('outbox_events', events)).toEqual([recentEvent, undispatched, awaitingApproval, decidedLately].sort());
  // The runs' records stay: they name their event by id only.
  expect(await existing('adaptor_action_records', records)).toEqual([...records].sort());

  expect(await existing('webhook_requests', [oldSuccess, oldFailed, recentSuccess, stillPending])).toEqual([recentSuccess, stillPending].sort());
  const attempts = await db.$queryRaw<Array<{ id: string }>>`SELECT DISTINCT request_id::text AS id FROM webhook_attempts
    WHERE request_id = ANY(${[oldSuccess, oldFailed, recentSuccess, stillPending]}::uuid[])`;
  expect(attempts.map((a) => a.id).sort()).toEqual([recentSuccess, stillPending].sort());
  // What the API answers about a request that went: not found, and no longer listed.
  expect((await api('GET', `/webhook_requests/${oldSuccess}`, { key: t.secretKey })).status).toBe(404);
  const listed = await api('GET', '/webhook_requests?size=100', { key: t.secretKey });
  expect(listed.body.content.map((r: { id: string }) => r.id).sort()).toEqual([recentSuccess, stillPending].sort());

  const kept = await db.$queryRaw<Array<{ key: string }>>`SELECT key FROM idempotency_records WHERE organisation_id = ${t.organisationId}::uuid AND key = ANY(${keys})`;
  expect(kept.map((k) => k.key).sort()).toEqual([keys[1], keys[3]].sort());
  // A key kept within its 24 h still replays.
  const replay = await api('POST', '/contacts', { key: t.secretKey, body: { contact_type: 'PERSON', first_name: 'Ret', last_name: 'Retention' }, headers: { 'idempotency-key': keys[1] } });
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body.id).toBe(contacts[1]);

  expect(await existing('refresh_tokens', [expiredLongAgo.id, expiredLately.id, live.id])).toEqual([expiredLately.id, live.id].sort());
  expect((await api('POST', '/users/refresh', { body: { refresh_token: live.token } })).status).toBe(200);
  expect((await api('POST', '/users/refresh', { body: { refresh_token: expiredLongAgo.token } })).status).toBe(401);
});

test('a backlog larger than a batch goes in one run', async () => {
  // 12,001 dispatched events of last month: three statements of at most 5,000 rows.
  const inserted = await db.$executeRaw`INSERT INTO outbox_events (id, organisation_id, type, entity_type, entity_id, payload, created_at, dispatched_at)
    SELECT gen_random_uuid(), ${other.organisationId}::uuid, 'BACKLOG', 'CONTACT', gen_random_uuid(), '{}'::jsonb, now() - interval '40 days', now() - interval '40 days'
    FROM generate_series(1, 12001)`;
  expect(inserted).toBe(12001);
  const run = await runRetention();
  expect(run.outboxEvents).toBeGreaterThanOrEqual(12001);
  const [{ left }] = await db.$queryRaw<Array<{ left: number }>>`SELECT count(*)::int AS left FROM outbox_events
    WHERE organisation_id = ${other.organisationId}::uuid AND type = 'BACKLOG'`;
  expect(left).toBe(0);
});
