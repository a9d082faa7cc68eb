// Adaptor action records over HTTPS (docs/automations.md "Records"): written the way the run
// workflow writes them (createRecord, idempotent), listed and read per adaptor action, notes,
// and the approval decision (PENDING only, conditional, signalled after the commit).
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { ADAPTORS } from '../../src/domain/automations/catalogue';
import { createRecord, recordAttribute, type NewRecord } from '../../src/domain/automations/records';
import { newId } from '../../src/domain/ids';
import { expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
const automationId = newId();
const actionId = newId();
const contactId = newId();

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Records A'), createTenant('Records B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

function input(over: Partial<NewRecord> = {}): NewRecord {
  return {
    automationId, automationName: 'Approve big purchases', actionId, adaptor: 'APPROVAL_REQUESTS', adaptorAction: 'REQUEST_APPROVAL',
    eventId: newId(), eventType: 'PURCHASE_POSTED', entityType: 'PURCHASES', entityId: newId(), entityReference: 'INV-1001',
    status: 'PENDING', attributes: [recordAttribute('status', 'Status', 'STRING', 'PENDING')], workflowId: `automation-run:${newId()}`, ...over,
  };
}
const write = (over: Partial<NewRecord> = {}, org = a.organisationId) => createRecord(scopedClient(root, org), org, input(over));

const APPROVAL = '/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records';
const WEBHOOK = '/adaptors/WEBHOOKS/actions/POST_WEBHOOK/records';
const ids = (res: { body: { content: Array<{ id: string }> } }) => res.body.content.map((r) => r.id);

test('createRecord is idempotent on (event, automation, action)', async () => {
  const first = await write();
  const again = await createRecord(scopedClient(root, a.organisationId), a.organisationId, {
    ...input(), eventId: first.eventId, entityId: first.entityId, status: 'COMPLETED',
  });
  expect(again.id).toBe(first.id);
  expect(again.status).toBe('PENDING');
});

test('read: the record in the spec\'s shape, by adaptor and action code or id; another action\'s record is 404', async () => {
  const r = await write({ attributes: [recordAttribute('status', 'Status', 'STRING', 'PENDING'), recordAttribute('timeout_on', 'Decide before', 'DATE', '1767225600')] });
  const expected = {
    id: r.id, automation: { id: automationId, name: 'Approve big purchases' }, automation_action_id: actionId,
    adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', event: { id: r.eventId, type: 'PURCHASE_POSTED' },
    entity: { type: 'PURCHASES', id: r.entityId, reference: 'INV-1001' }, status: 'PENDING', reason: null,
    record_attributes: [
      { id: expect.any(String), key: 'status', label: 'Status', type: 'STRING', value: 'PENDING' },
      { id: expect.any(String), key: 'timeout_on', label: 'Decide before', type: 'DATE', value: '1767225600' },
    ],
    workflow_id: r.workflowId, created_on: expect.any(Number), updated_on: expect.any(Number),
  };
  expect((await api('GET', `${APPROVAL}/${r.id}`, { key: a.secretKey })).body).toEqual(expected);
  const adaptor = ADAPTORS[0];
  const byId = await api('GET', `/adaptors/${adaptor.id}/actions/${adaptor.actions[0].id.replace(/-/g, '')}/records/${r.id}`, { key: a.secretKey });
  expect(byId.body).toEqual(expected);
  expect((await api('GET', `/adaptors/approval_requests/actions/request_approval/records/${r.id}`, { key: a.secretKey })).status).toBe(200);
  expectError(await api('GET', `${WEBHOOK}/${r.id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/adaptors/WEBHOOKS/actions/REQUEST_APPROVAL/records/${r.id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/adaptors/NOPE/actions/REQUEST_APPROVAL/records`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/adaptors/${UNKNOWN_ID}/actions/REQUEST_APPROVAL/records`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', `${APPROVAL}/${UNKNOWN_ID}`, { key: a.secretKey }), 404, 'NOT_FOUND');
});

test('list: per adaptor action, with search, automation, action and status filters, sorted and paged', async () => {
  const t = await createTenant('Records list');
  const org = t.organisationId;
  const otherAutomation = newId();
  const otherAction = newId();
  const contact = await write({ entityType: 'CONTACTS', entityId: contactId, entityReference: 'C-77 Ada Lovelace', eventType: 'REGISTER_CONTACT' }, org);
  const purchase = await write({ entityReference: 'INV-2002', status: 'APPROVED' }, org);
  const other = await write({ automationId: otherAutomation, actionId: otherAction, entityReference: 'INV-3003', status: 'REJECTED' }, org);
  await write({ adaptor: 'WEBHOOKS', adaptorAction: 'POST_WEBHOOK', status: 'COMPLETED' }, org);
  const list = (query = '') => api('GET', `${APPROVAL}${query}`, { key: t.secretKey });

  const all = await list('?sort=created_on&order=ASC');
  expect(ids(all)).toEqual([contact.id, purchase.id, other.id]);
  expect(all.body.paging).toEqual({ page: 1, size: 20, total: 3 });
  for (const [query, expected] of [
    [`?search_type=CONTACTS&search_value=${contactId.toUpperCase()}`, [contact.id]],
    ['?search_type=CONTACTS&search_value=lovelace', [contact.id]],
    ['?search_type=PURCHASES&search_value=inv-', [other.id, purchase.id]],
    ['?search_type=PURCHASES&search_value=lovelace', []],
    [`?automation_id=${otherAutomation}`, [other.id]],
    [`?automation_action_id=${actionId}`, [purchase.id, contact.id]],
    ['?status=APPROVED', [purchase.id]],
    ['?size=1&page=3&sort=updated_on&order=DESC', [contact.id]],
  ] as Array<[string, string[]]>) {
    const res = await list(query);
    expect([query, res.status, ids(res)]).toEqual([query, 200, expected]);
  }
  expectError(await list('?search_value=inv'), 400, 'INVALID_REQUEST', 'search_type');
  expectError(await list('?search_type=PURCHASES'), 400, 'INVALID_REQUEST', 'search_value');
  expectError(await list('?search_type=LEADS&search_value=x'), 400, 'INVALID_REQUEST', 'search_type');
  expectError(await list('?status=DONE'), 400, 'INVALID_REQUEST', 'status');
  expectError(await list('?sort=name'), 400, 'INVALID_REQUEST', 'sort');
  expect(ids(await api('GET', WEBHOOK, { key: t.secretKey }))).toHaveLength(1);
});

test('approval: APPROVED or REJECTED decides a PENDING record once; the workflow gone is no error', async () => {
  const r = await write();
  const post = (body: object, id = r.id, key = a.secretKey) => api('POST', `${APPROVAL}/${id}`, { key, body });
  expectError(await post({ key: 'status', value: 'MAYBE' }), 400, 'INVALID_REQUEST', 'value');
  expectError(await post({ key: 'status', value: 'PENDING' }), 400, 'INVALID_REQUEST', 'value');
  expectError(await post({ key: 'colour', value: 'APPROVED' }), 400, 'INVALID_REQUEST', 'key');
  expectError(await post({ key: 'status' }), 400, 'INVALID_REQUEST', 'value');

  expect((await post({ key: 'status', value: 'APPROVED' })).body).toEqual({ id: r.id });
  const read = (await api('GET', `${APPROVAL}/${r.id}`, { key: a.secretKey })).body;
  expect(read.status).toBe('APPROVED');
  expect(read.record_attributes).toEqual([
    { id: r.attributes && (r.attributes as Array<{ id: string }>)[0].id, key: 'status', label: 'Status', type: 'STRING', value: 'APPROVED' },
    { id: expect.any(String), key: 'decided_on', label: 'Decided on', type: 'DATE', value: expect.stringMatching(/^\d+$/) },
  ]);
  expectError(await post({ key: 'status', value: 'REJECTED' }), 409, 'INVALID_STATE_TRANSITION');
  expect((await api('GET', `${APPROVAL}/${r.id}`, { key: a.secretKey })).body.status).toBe('APPROVED');

  // Decided elsewhere first (a timeout): the decision is refused and changes nothing.
  const timedOut = await write({ status: 'REJECTED', attributes: [recordAttribute('status', 'Status', 'STRING', 'REJECTED')] });
  expectError(await post({ key: 'status', value: 'APPROVED' }, timedOut.id), 409, 'INVALID_STATE_TRANSITION');
  const rejected = await write();
  expect((await post({ key: 'status', value: 'REJECTED' }, rejected.id)).status).toBe(200);
  expect((await api('GET', `${APPROVAL}/${rejected.id}`, { key: a.secretKey })).body.status).toBe('REJECTED');
  // Decisions are audited.
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: rejected.id } });
  expect(audits.map((x) => [x.action, x.changes])).toEqual([['DECIDE', { status: 'REJECTED' }]]);
});

test('notes: set and replaced on any record; status only on approvals; other keys 400', async () => {
  const hook = await write({ adaptor: 'WEBHOOKS', adaptorAction: 'POST_WEBHOOK', status: 'FAILED', attributes: [] });
  const post = (body: object) => api('POST', `${WEBHOOK}/${hook.id}`, { key: a.secretKey, body });
  expect((await post({ key: 'notes', value: 'Endpoint was down' })).status).toBe(200);
  expect((await post({ key: 'notes', value: 'Retried by hand' })).status).toBe(200);
  const read = (await api('GET', `${WEBHOOK}/${hook.id}`, { key: a.secretKey })).body;
  expect(read.record_attributes).toEqual([{ id: expect.any(String), key: 'notes', label: 'Notes', type: 'STRING', value: 'Retried by hand' }]);
  expect(read.status).toBe('FAILED');
  expectError(await post({ key: 'status', value: 'APPROVED' }), 400, 'INVALID_REQUEST', 'key');
  expectError(await post({ key: 'priority', value: 'high' }), 400, 'INVALID_REQUEST', 'key');
  expectError(await post({ key: 'notes', value: 'x'.repeat(2001) }), 400, 'INVALID_REQUEST', 'value');
  const approval = await write();
  expect((await api('POST', `${APPROVAL}/${approval.id}`, { key: a.secretKey, body: { key: 'notes', value: 'Asked the manager' } })).status).toBe(200);
  expect((await api('GET', `${APPROVAL}/${approval.id}`, { key: a.secretKey })).body.status).toBe('PENDING');
});

test("tenancy and scopes: another organisation's record is 404; read-only and foreign keys are refused", async () => {
  const r = await write();
  expectError(await api('GET', `${APPROVAL}/${r.id}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('POST', `${APPROVAL}/${r.id}`, { key: b.secretKey, body: { key: 'status', value: 'APPROVED' } }), 404, 'NOT_FOUND');
  expect(ids(await api('GET', APPROVAL, { key: b.secretKey }))).toEqual([]);
  const reader = await keyWith(a.secretKey, ['automations:read']);
  const stranger = await keyWith(a.secretKey, ['webhooks']);
  expect((await api('GET', `${APPROVAL}/${r.id}`, { key: reader })).status).toBe(200);
  expectError(await api('POST', `${APPROVAL}/${r.id}`, { key: reader, body: { key: 'status', value: 'APPROVED' } }), 403, 'FORBIDDEN');
  expectError(await api('GET', APPROVAL, { key: stranger }), 403, 'FORBIDDEN');
  expect((await api('GET', `${APPROVAL}/${r.id}`, { key: a.secretKey })).body.status).toBe('PENDING');
});
