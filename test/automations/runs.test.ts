// GET /automations/{id}/runs over HTTPS (docs/automations.md "Run history"): runs read from their
// adaptor action records, written here the way the run workflow writes them (createRecord), so
// every state is reached on purpose. test/automation-runs/history.test.ts runs the real thing.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createRecord, recordAttribute, type NewRecord, type RecordStatus } from '../../src/domain/automations/records';
import { newId } from '../../src/domain/ids';
import { expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Runs A'), createTenant('Runs B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

async function call(method: string, route: string, body?: object, key = a.secretKey) {
  const res = await api(method, route, { key, body });
  expect([method, route, res.status, res.status === 200 ? '' : res.text]).toEqual([method, route, 200, '']);
  return res.body;
}

interface Sequence {
  automationId: string;
  /** The stored actions in order: webhook, approval, webhook. */
  actions: Array<{ id: string; adaptor: string; adaptor_action: string }>;
}

/** An automation of three actions: a webhook, an approval, another webhook. */
async function automation(t: Tenant = a): Promise<Sequence> {
  const webhook = (await call('POST', '/webhooks', { name: 'Runs', method: 'POST', url_endpoint: 'https://hooks.example.com/runs', url_auth: 'NO_AUTH' }, t.secretKey)).id;
  const { id } = await call('POST', '/automations', { name: `Runs ${newId().slice(-6)}`, entity: 'CONTACTS', event: 'REGISTER_CONTACT' }, t.secretKey);
  const hook = { adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhook }] };
  await call('POST', `/automations/${id}/actions`, {
    content: [{ order: 1, ...hook }, { order: 2, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL' }, { order: 3, ...hook }],
  }, t.secretKey);
  const actions = (await call('GET', `/automations/${id}/actions`, undefined, t.secretKey)).content;
  return { automationId: id, actions };
}

const WHY = { SKIPPED: ['reason', 'Reason', 'filters not met: FIRST_NAME EQUAL'], FAILED: ['error', 'Error', 'WEBHOOK_GONE: the webhook was deleted'], REJECTED: ['reason', 'Reason', 'TIMEOUT: no decision before timeout_on'] } as const;

/** One run: a record per status given, for the sequence's actions in order, as the workflow writes them. */
async function run(seq: Sequence, statuses: RecordStatus[], t: Tenant = a, entityId = newId()) {
  const eventId = newId();
  const records = [];
  for (const [i, status] of statuses.entries()) {
    const action = seq.actions[i];
    const why = status in WHY ? WHY[status as keyof typeof WHY] : undefined;
    const input: NewRecord = {
      automationId: seq.automationId, automationName: 'Runs', actionId: action.id, adaptor: action.adaptor, adaptorAction: action.adaptor_action,
      eventId, eventType: 'REGISTER_CONTACT', entityType: 'CONTACTS', entityId, entityReference: 'C-1 Ada Lovelace',
      status, attributes: why ? [recordAttribute(why[0], why[1], 'STRING', why[2])] : [recordAttribute('webhook_request_id', 'Webhook request', 'STRING', newId())],
      workflowId: `automation-run:${seq.automationId}:${eventId}`,
    };
    records.push(await createRecord(scopedClient(root, t.organisationId), t.organisationId, input));
  }
  return { eventId, entityId, records };
}

const runs = (seq: Sequence, query = '', key = a.secretKey) => api('GET', `/automations/${seq.automationId}/runs${query}`, { key });

test('a run is the records of one event: the event, the entity, each action in order with its outcome and record', async () => {
  const seq = await automation();
  const done = await run(seq, ['COMPLETED', 'APPROVED', 'COMPLETED']);
  const res = await runs(seq);
  expect(res.status).toBe(200);
  expect(res.body.paging).toEqual({ page: 1, size: 20, total: 1 });
  const [item] = res.body.content;
  expect(item).toEqual({
    id: done.eventId,
    event: { id: done.eventId, type: 'REGISTER_CONTACT', occurred_on: Math.floor(parseInt(done.eventId.replace(/-/g, '').slice(0, 12), 16) / 1000) },
    entity: { type: 'CONTACTS', id: done.entityId, reference: 'C-1 Ada Lovelace' },
    state: 'COMPLETED', reason: null,
    workflow_id: `automation-run:${seq.automationId}:${done.eventId}`,
    started_on: Math.floor(done.records[0].createdAt.getTime() / 1000),
    updated_on: expect.any(Number),
    actions: done.records.map((r, i) => ({
      order: i + 1, automation_action_id: seq.actions[i].id, adaptor: seq.actions[i].adaptor, adaptor_action: seq.actions[i].adaptor_action,
      status: r.status, reason: null, record_id: r.id, record_attributes: r.attributes, created_on: Math.floor(r.createdAt.getTime() / 1000),
    })),
  });
  expect(item.updated_on).toBeGreaterThanOrEqual(item.started_on);
  // The record the run names is the records API's.
  const record = await call('GET', `/adaptors/WEBHOOKS/actions/POST_WEBHOOK/records/${item.actions[0].record_id}`);
  expect(record.event.id).toBe(done.eventId);
});

test('state: stopped, waiting, still running, skipped; with the reason a run stopped', async () => {
  const seq = await automation();
  const made = {
    COMPLETED: await run(seq, ['COMPLETED', 'SKIPPED', 'COMPLETED']),
    SKIPPED: await run(seq, ['SKIPPED', 'SKIPPED', 'SKIPPED']),
    FAILED: await run(seq, ['FAILED']),
    REJECTED: await run(seq, ['COMPLETED', 'REJECTED']),
    WAITING_FOR_APPROVAL: await run(seq, ['SKIPPED', 'PENDING']),
    RUNNING: await run(seq, ['COMPLETED']),
  };
  const states = async () => {
    const res = await runs(seq);
    return Object.fromEntries(res.body.content.map((r: { id: string; state: string; reason: string | null }) => [r.id, [r.state, r.reason]]));
  };
  expect(await states()).toEqual({
    [made.COMPLETED.eventId]: ['COMPLETED', null],
    [made.SKIPPED.eventId]: ['SKIPPED', null],
    [made.FAILED.eventId]: ['FAILED', WHY.FAILED[2]],
    [made.REJECTED.eventId]: ['REJECTED', WHY.REJECTED[2]],
    [made.WAITING_FOR_APPROVAL.eventId]: ['WAITING_FOR_APPROVAL', null],
    [made.RUNNING.eventId]: ['RUNNING', null],
  });
  const skipped = (await runs(seq)).body.content.find((r: { id: string }) => r.id === made.SKIPPED.eventId);
  expect(skipped.actions.map((x: { reason: string }) => x.reason)).toEqual([WHY.SKIPPED[2], WHY.SKIPPED[2], WHY.SKIPPED[2]]);

  // The approval decided: the run goes on (RUNNING: its last action is still to come).
  await call('POST', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/${made.WAITING_FOR_APPROVAL.records[1].id}`, { key: 'status', value: 'APPROVED' });
  expect((await states())[made.WAITING_FOR_APPROVAL.eventId]).toEqual(['RUNNING', null]);

  // Once the automation changes, its sequence is no longer known to be the runs': the records say what happened.
  await new Promise((r) => setTimeout(r, 5));
  await call('PUT', `/automations/${seq.automationId}`, { name: 'Renamed' });
  const after = await states();
  expect(after[made.RUNNING.eventId]).toEqual(['COMPLETED', null]);
  expect(after[made.FAILED.eventId]).toEqual(['FAILED', WHY.FAILED[2]]);
  // A run that began after the change is judged by the sequence again.
  const later = await run(seq, ['COMPLETED']);
  expect((await states())[later.eventId]).toEqual(['RUNNING', null]);
});

test('newest event first, paged; order ASC; bad paging is 400', async () => {
  const seq = await automation();
  const made = [];
  for (let i = 0; i < 5; i++) made.push((await run(seq, ['COMPLETED', 'APPROVED', 'COMPLETED'])).eventId);
  const ids = (res: { body: { content: Array<{ id: string }> } }) => res.body.content.map((r) => r.id);
  expect(ids(await runs(seq))).toEqual([...made].reverse());
  const second = await runs(seq, '?size=2&page=2');
  expect(ids(second)).toEqual([made[2], made[1]]);
  expect(second.body.paging).toEqual({ page: 2, size: 2, total: 5 });
  expect(ids(await runs(seq, '?order=ASC&size=2&sort=occurred_on'))).toEqual([made[0], made[1]]);
  expect(ids(await runs(seq, '?page=4&size=2'))).toEqual([]);
  expectError(await runs(seq, '?sort=state'), 400, 'INVALID_REQUEST', 'sort');
  expectError(await runs(seq, '?size=0'), 400, 'INVALID_REQUEST', 'size');
  expectError(await runs(seq, '?status=FAILED'), 400, 'INVALID_REQUEST', 'status');
});

test('an automation without runs has an empty history; unknown, deleted and foreign automations are 404', async () => {
  const seq = await automation();
  expect((await runs(seq)).body).toEqual({ content: [], paging: { page: 1, size: 20, total: 0 } });
  expectError(await api('GET', `/automations/${UNKNOWN_ID}/runs`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', '/automations/not-an-id/runs', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'id');

  // Another organisation's records never join a run, even under the same automation id.
  await run(seq, ['COMPLETED'], b);
  expect((await runs(seq)).body.paging.total).toBe(0);
  expectError(await runs(seq, '', b.secretKey), 404, 'NOT_FOUND');

  await run(seq, ['COMPLETED']);
  expect((await runs(seq)).body.paging.total).toBe(1);
  await call('DELETE', `/automations/${seq.automationId}`);
  expectError(await runs(seq), 404, 'NOT_FOUND');
});

test('scopes: automations:read reads; other scopes and public keys are refused', async () => {
  const seq = await automation();
  expect((await runs(seq, '', await keyWith(a.secretKey, ['automations:read']))).status).toBe(200);
  expectError(await runs(seq, '', await keyWith(a.secretKey, ['webhooks'])), 403, 'FORBIDDEN');
  expectError(await runs(seq, '', a.publicKey), 403, 'FORBIDDEN');
  expect((await api('GET', `/automations/${seq.automationId}/runs`)).status).toBe(401);
});
