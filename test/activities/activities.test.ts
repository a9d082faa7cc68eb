// Activities over HTTPS (docs/activities.md): for the organisation, a unit or a user; the
// entity link; the life cycle (complete, reopen); every filter; tenancy and the scope.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { addAccount } from '../accounts/helpers';
import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let unit: string;
let foreignUnit: string;
let user: { id: string; username: string };
let foreignUser: string;
let contact: string;

async function createUser(t: Tenant, username: string): Promise<{ id: string; username: string }> {
  const out = JSON.parse(await adminCli(['create-user', '--organisation', t.organisationId, '--username', username]));
  return { id: out.id, username: out.username };
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Activities A'), createTenant('Activities B')]);
  root = openDatabase();
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  [user, { id: foreignUser }] = await Promise.all([createUser(a, `act-a-${tag}`), createUser(b, `act-b-${tag}`)]);
  unit = await createId(a.secretKey, '/organisations', { code: 'ACT-U1', name: 'Harbour venue', type: 'VENUE', locations: [] });
  foreignUnit = await createId(b.secretKey, '/organisations', { code: 'ACT-U1', name: 'Other venue', type: 'VENUE', locations: [] });
  contact = await createId(a.secretKey, '/contacts', { contact_type: 'PERSON', code: `ACT-${tag}`, first_name: 'Ann', last_name: 'Lee' });
});

afterAll(async () => {
  await root?.$disconnect();
});

const post = (body: object, key = a.secretKey) => api('POST', '/activities', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/activities/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/activities/${id}`, { key, body });
const move = (id: string, state: unknown, key = a.secretKey) => api('PUT', `/activities/${id}/life_cycle_state`, { key, body: { life_cycle_state: state } });
const list = async (query: string) => {
  const res = await api('GET', `/activities?${query}`, { key: a.secretKey });
  expect(res.status).toBe(200);
  return res.body as { content: Array<{ id: string }>; paging: { total: number } };
};
const ids = async (query: string) => (await list(query)).content.map((x) => x.id);

test('create for the organisation itself, read, update, delete; audited', async () => {
  const lead = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a99';
  const id = await createId(a.secretKey, '/activities', {
    subject: 'Call back', description: 'About the quote', organisation_id: a.organisationId, entity: { type: 'LEAD', id: lead },
  });
  const created = (await get(id)).body;
  expect(created).toEqual({
    id, subject: 'Call back', description: 'About the quote', life_cycle_state: 'PENDING',
    organisation: { id: a.organisationId, name: 'Activities A' }, user: null, entity: { type: 'LEAD', id: lead },
    created_on: expect.any(Number), updated_on: expect.any(Number), completed_on: null,
  });

  // Partial: the unit and the user replace the organisation; null clears the description.
  expect((await put(id, { subject: 'Call back Monday', description: null, organisation_id: unit, user_id: user.id })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({
    subject: 'Call back Monday', description: null, organisation: { id: unit, name: 'Harbour venue' }, user: { id: user.id, name: user.username },
    entity: { type: 'LEAD', id: lead },
  });
  // Only the user left: organisation null.
  expect((await put(id, { organisation_id: null })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ organisation: null, user: { id: user.id } });
  // Nothing given changes nothing but the audit trail.
  expect((await put(id, {})).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ subject: 'Call back Monday', organisation: null, user: { id: user.id } });

  expect((await api('DELETE', `/activities/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
  expectError(await api('DELETE', `/activities/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityType: 'activity', entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE', 'DELETE']);
});

test('create for a user only, for a unit and a user, about a contact or an account', async () => {
  const own = await createId(a.secretKey, '/activities', { subject: 'Mine', user_id: user.id });
  expect((await get(own)).body).toMatchObject({ organisation: null, user: { id: user.id, name: user.username }, entity: null, description: null });

  // A user of the tenant belongs to each of its units.
  const both = await createId(a.secretKey, '/activities', { subject: 'Visit', organisation_id: unit, user_id: user.id, entity: { type: 'CONTACT', id: contact } });
  expect((await get(both)).body).toMatchObject({ organisation: { id: unit, name: 'Harbour venue' }, user: { id: user.id }, entity: { type: 'CONTACT', id: contact } });
  // A unit still named by an activity stays.
  const unitDelete = await api('DELETE', `/organisations/${unit}`, { key: a.secretKey });
  expect([unitDelete.status, unitDelete.body.code]).toEqual([409, 'IN_USE']);

  const account = await addAccount(a.secretKey, contact);
  const about = await createId(a.secretKey, '/activities', { subject: 'Review', user_id: user.id, entity: { type: 'ACCOUNT', id: account } });
  expect((await get(about)).body.entity).toEqual({ type: 'ACCOUNT', id: account });
});

test('create: each refusal names its field, and writes nothing', async () => {
  const before = await scopedClient(root, a.organisationId).activity.count();
  expectError(await post({ subject: 'x' }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post({ subject: 'x', organisation_id: null, user_id: null }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post({ organisation_id: a.organisationId }), 400, 'INVALID_REQUEST', 'subject');
  expectError(await post({ subject: '  ', organisation_id: a.organisationId }), 400, 'INVALID_REQUEST', 'subject');
  expectError(await post({ subject: 'x', organisation_id: 'nope' }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post({ subject: 'x', user_id: 'nope' }), 400, 'INVALID_REQUEST', 'user_id');
  expectError(await post({ subject: 'x', user_id: user.id, entity: { type: 'TASK', id: contact } }), 400, 'INVALID_REQUEST', 'entity.type');
  expectError(await post({ subject: 'x', user_id: user.id, entity: { type: 'LEAD' } }), 400, 'INVALID_REQUEST', 'entity.id');
  expectError(await post({ subject: 'x', user_id: user.id, entity: { type: 'LEAD', id: '42' } }), 400, 'INVALID_REQUEST', 'entity.id');
  expectError(await post({ subject: 'x', user_id: user.id, state: 'PENDING' }), 400, 'INVALID_REQUEST', 'state');
  // Unknown, or another tenant's: 400 naming the field.
  expectError(await post({ subject: 'x', organisation_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post({ subject: 'x', organisation_id: b.organisationId }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post({ subject: 'x', organisation_id: foreignUnit }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post({ subject: 'x', user_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'user_id');
  expectError(await post({ subject: 'x', organisation_id: unit, user_id: foreignUser }), 400, 'INVALID_REQUEST', 'user_id');
  for (const type of ['CONTACT', 'ACCOUNT', 'PURCHASE']) {
    expectError(await post({ subject: 'x', user_id: user.id, entity: { type, id: UNKNOWN_ID } }), 400, 'INVALID_REQUEST', 'entity.id');
  }
  expect(await scopedClient(root, a.organisationId).activity.count()).toBe(before);
});

test('update: refusals name their field; the activity keeps an organisation or a user', async () => {
  const id = await createId(a.secretKey, '/activities', { subject: 'Keep', description: 'd', organisation_id: unit });
  expectError(await put(id, { organisation_id: null }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await put(id, { organisation_id: null, user_id: null }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await put(id, { subject: null }), 400, 'INVALID_REQUEST', 'subject');
  expectError(await put(id, { entity: { type: 'LEAD', id: UNKNOWN_ID } }), 400, 'INVALID_REQUEST', 'entity');
  expectError(await put(id, { organisation_id: foreignUnit }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await put(id, { organisation_id: b.organisationId }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await put(id, { user_id: foreignUser }), 400, 'INVALID_REQUEST', 'user_id');
  expectError(await put(UNKNOWN_ID, { subject: 'x' }), 404, 'NOT_FOUND');
  expect((await get(id)).body).toMatchObject({ subject: 'Keep', description: 'd', organisation: { id: unit }, user: null });
  // The user given, the organisation may go; then the user cannot.
  expect((await put(id, { organisation_id: null, user_id: user.id })).status).toBe(200);
  expectError(await put(id, { user_id: null }), 400, 'INVALID_REQUEST', 'user_id');
});

test('life cycle: complete, the same state again, reopen; unknown state 400', async () => {
  const id = await createId(a.secretKey, '/activities', { subject: 'Cycle', user_id: user.id });
  expect((await move(id, 'COMPLETED')).body).toEqual({ id });
  const done = (await get(id)).body;
  expect(done).toMatchObject({ life_cycle_state: 'COMPLETED', completed_on: expect.any(Number) });
  expect(Math.abs(done.completed_on - Date.now() / 1000)).toBeLessThan(60);
  // Idempotent: same state again is 200 and keeps completed_on.
  expect((await move(id, 'COMPLETED')).status).toBe(200);
  expect((await get(id)).body.completed_on).toBe(done.completed_on);
  // Reopen clears completed_on.
  expect((await move(id, 'PENDING')).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ life_cycle_state: 'PENDING', completed_on: null });
  expectError(await move(id, 'DONE'), 400, 'INVALID_REQUEST', 'life_cycle_state');
  expectError(await move(id, null), 400, 'INVALID_REQUEST', 'life_cycle_state');
  expectError(await move(UNKNOWN_ID, 'COMPLETED'), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityType: 'activity', entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => [e.action, (e.changes as { life_cycle_state?: { to: string } } | null)?.life_cycle_state?.to ?? null])).toEqual([
    ['CREATE', null], ['UPDATE', 'COMPLETED'], ['UPDATE', 'PENDING'],
  ]);
});

test('list: every filter, search, sort and paging', async () => {
  const order = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2b01';
  const lead = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2b02';
  const request = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2b03';
  const other = await createUser(a, `act-a2-${process.pid}-${Date.now().toString(36)}`);
  const o = await createId(a.secretKey, '/activities', { subject: 'LF order alpha', organisation_id: a.organisationId, entity: { type: 'ORDER', id: order } });
  const l = await createId(a.secretKey, '/activities', { subject: 'LF lead beta', organisation_id: unit, user_id: other.id, entity: { type: 'LEAD', id: lead } });
  const s = await createId(a.secretKey, '/activities', { subject: 'LF request gamma', user_id: other.id, entity: { type: 'SERVICE_REQUEST', id: request } });
  const c = await createId(a.secretKey, '/activities', { subject: 'LF contact delta', organisation_id: unit, entity: { type: 'CONTACT', id: contact } });
  expect((await move(s, 'COMPLETED')).status).toBe(200);
  // Another tenant's activity about the same order never shows.
  await createId(b.secretKey, '/activities', { subject: 'LF order alpha', organisation_id: b.organisationId, entity: { type: 'ORDER', id: order } });

  const cases: Array<[string, string[]]> = [
    [`order_id=${order}`, [o]],
    [`lead_id=${lead}`, [l]],
    [`service_request_id=${request}`, [s]],
    [`lead_id=${order}`, []],
    [`entity_type=CONTACT&entity_id=${contact}&search_value=LF`, [c]],
    [`entity_id=${order}`, [o]],
    [`organisation_id=${a.organisationId}&search_value=LF`, [o]],
    [`organisation_id=${unit}&search_value=LF`, [c, l]],
    [`organisation_id=${foreignUnit}`, []],
    [`user_id=${other.id}`, [s, l]],
    [`user_id=${other.id}&life_cycle_state=COMPLETED`, [s]],
    [`user_id=${other.id}&state=PENDING`, [l]],
    ['search_value=lf%20LEAD', [l]],
    ['search_value=LF&sort=subject&order=ASC', [c, l, o, s]],
    ['search_value=LF&sort=life_cycle_state&order=DESC&size=1', [c]],
  ];
  for (const [query, expected] of cases) expect([query, await ids(query)]).toEqual([query, expected]);
  const page = await list('search_value=LF&size=3&page=2');
  expect(page.paging).toEqual({ page: 2, size: 3, total: 4 });
  expect(page.content.map((x) => x.id)).toEqual([o]);
  // Items have the single read's shape.
  const item = (await list(`order_id=${order}`)).content[0];
  expect(item).toEqual((await get(o)).body);

  for (const [query, attribute] of [['life_cycle_state=DONE', 'life_cycle_state'], ['order_id=x', 'order_id'], ['entity_type=TASK', 'entity_type'], ['sort=name', 'sort'], ['colour=red', 'colour']]) {
    expectError(await api('GET', `/activities?${query}`, { key: a.secretKey }), 400, 'INVALID_REQUEST', attribute);
  }
});

test("tenancy: another organisation's activity is 404 everywhere", async () => {
  const theirs = await createId(b.secretKey, '/activities', { subject: 'Theirs', user_id: foreignUser });
  expectError(await get(theirs), 404, 'NOT_FOUND');
  expectError(await put(theirs, { subject: 'x' }), 404, 'NOT_FOUND');
  expectError(await move(theirs, 'COMPLETED'), 404, 'NOT_FOUND');
  expectError(await api('DELETE', `/activities/${theirs}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  expect((await get(theirs, b.secretKey)).body).toMatchObject({ subject: 'Theirs', life_cycle_state: 'PENDING', user: { id: foreignUser } });
  expect(await ids(`user_id=${foreignUser}`)).toEqual([]);
});

test('scopes: none → 403; activities:read reads only; activities writes', async () => {
  const id = await createId(a.secretKey, '/activities', { subject: 'Scoped', user_id: user.id });
  const none = await keyWith(a.secretKey, ['contacts']);
  const reader = await keyWith(a.secretKey, ['activities:read']);
  const writer = await keyWith(a.secretKey, ['activities']);
  expectError(await get(id, none), 403, 'FORBIDDEN');
  expectError(await api('GET', '/activities', { key: none }), 403, 'FORBIDDEN');
  expectError(await post({ subject: 'x', user_id: user.id }, none), 403, 'FORBIDDEN');
  expect((await get(id, reader)).status).toBe(200);
  expectError(await put(id, { subject: 'x' }, reader), 403, 'FORBIDDEN');
  expectError(await move(id, 'COMPLETED', reader), 403, 'FORBIDDEN');
  expectError(await api('DELETE', `/activities/${id}`, { key: reader }), 403, 'FORBIDDEN');
  expect((await move(id, 'COMPLETED', writer)).status).toBe(200);
  expect((await api('DELETE', `/activities/${id}`, { key: writer })).status).toBe(200);
  // A public key is not admitted.
  expectError(await api('GET', '/activities', { key: a.publicKey }), 403, 'FORBIDDEN');
});
