// Assignment reference data over HTTPS (docs/assignments.md): departments, user roles, post-code
// coverage and the users they name (managing them: user-admin.test.ts), with their 4xx, tenancy
// and scopes.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let unitA: string;
let unitB: string;
const users: Record<string, string> = {};
let foreignUser: string;
const tag = `${process.pid}-${Date.now().toString(36)}`;

async function createUser(t: Tenant, username: string): Promise<string> {
  return (JSON.parse(await adminCli(['create-user', '--organisation', t.organisationId, '--username', username])) as { id: string }).id;
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Assignments A'), createTenant('Assignments B')]);
  root = openDatabase();
  const [ada, bob, eve] = await Promise.all([createUser(a, `ada-${tag}`), createUser(a, `bob-${tag}`), createUser(b, `eve-${tag}`)]);
  Object.assign(users, { ada, bob });
  foreignUser = eve;
  // The command line sets no names; the service reads them from the users table.
  await scopedClient(root, a.organisationId).user.update({ where: { id: ada }, data: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' } });
  unitA = await createId(a.secretKey, '/organisations', { code: 'AS-U1', name: 'North branch', type: 'VENUE' });
  unitB = await createId(b.secretKey, '/organisations', { code: 'AS-U1', name: 'Foreign branch', type: 'VENUE' });
});

afterAll(async () => {
  await root?.$disconnect();
});

const get = (path: string, key = a.secretKey) => api('GET', path, { key });
const post = (path: string, body: object, key = a.secretKey) => api('POST', path, { key, body });
const put = (path: string, body: object, key = a.secretKey) => api('PUT', path, { key, body });
const del = (path: string, key = a.secretKey) => api('DELETE', path, { key });
const ids = (list: { content: Array<{ id: string }> }) => list.content.map((x) => x.id);

async function audits(id: string): Promise<string[]> {
  const rows = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => r.action);
}

test('departments: create, read, list filters, partial update, members replaced, delete; audited', async () => {
  const id = await createId(a.secretKey, '/departments', {
    code: 'SUP', name: 'Support desk', description: 'First line', organisation_id: unitA, user_ids: [users.bob, users.ada],
  });
  expect((await get(`/departments/${id}`)).body).toEqual({
    id, code: 'SUP', name: 'Support desk', description: 'First line',
    organisation: { id: unitA, name: 'North branch' },
    users: [{ id: users.bob, name: `bob-${tag}` }, { id: users.ada, name: 'Ada Lovelace' }],
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  // Without organisation_id (or with the tenant id): the tenant's own.
  const own = await createId(a.secretKey, '/departments', { name: 'Head office' });
  const same = await createId(a.secretKey, '/departments', { name: 'Finance', organisation_id: a.organisationId });
  const tenant = { id: a.organisationId, name: 'Assignments A' };
  expect((await get(`/departments/${own}`)).body).toMatchObject({ code: null, description: null, organisation: tenant, users: [] });
  expect((await get(`/departments/${same}`)).body).toMatchObject({ organisation: tenant });

  for (const [query, expected] of [
    ['name=desk', [id]], ['code=SUP', [id]], ['search_value=sup', [id]], ['search_value=office', [own]],
    [`organisation_id=${unitA}`, [id]], [`organisation_id=${a.organisationId}&sort=name&order=asc`, [same, own]],
  ] as Array<[string, string[]]>) {
    expect([query, ids((await get(`/departments?${query}`)).body)]).toEqual([query, expected]);
  }
  expect((await get('/departments?size=2')).body.paging).toEqual({ page: 1, size: 2, total: 3 });

  expect((await put(`/departments/${id}`, { name: 'Support' })).body).toEqual({ id });
  expect((await get(`/departments/${id}`)).body).toMatchObject({ name: 'Support', code: 'SUP', organisation: { id: unitA }, users: [{ id: users.bob }, { id: users.ada }] });
  expect((await put(`/departments/${id}`, { user_ids: [users.ada], organisation_id: null, description: null })).status).toBe(200);
  expect((await get(`/departments/${id}`)).body).toMatchObject({ description: null, organisation: tenant, users: [{ id: users.ada, name: 'Ada Lovelace' }] });

  expect((await del(`/departments/${id}`)).body).toEqual({ id });
  expectError(await get(`/departments/${id}`), 404, 'NOT_FOUND');
  expect(await audits(id)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'DELETE']);
  await Promise.all([del(`/departments/${own}`), del(`/departments/${same}`)]);
});

test('departments: unknown unit or user 400 naming the field, taken code 409, bad input 400; nothing half-written', async () => {
  const id = await createId(a.secretKey, '/departments', { code: 'DUP', name: 'Dup' });
  expectError(await post('/departments', { name: 'X', user_ids: [users.ada, UNKNOWN_ID] }), 400, 'INVALID_REQUEST', 'user_ids.1');
  expectError(await post('/departments', { name: 'X', user_ids: [foreignUser] }), 400, 'INVALID_REQUEST', 'user_ids.0');
  expectError(await post('/departments', { name: 'X', organisation_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post('/departments', { name: 'X', organisation_id: unitB }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post('/departments', { name: 'X', code: 'DUP' }), 409, 'ALREADY_EXISTS', 'code');
  expectError(await post('/departments', { name: 'X', user_ids: [users.ada, users.ada] }), 400, 'INVALID_REQUEST', 'user_ids.1');
  expectError(await post('/departments', { name: ' ' }), 400, 'INVALID_REQUEST', 'name');
  expectError(await post('/departments', { name: 'X', user_ids: ['nope'] }), 400, 'INVALID_REQUEST', 'user_ids.0');
  expectError(await put(`/departments/${id}`, { user_ids: [UNKNOWN_ID] }), 400, 'INVALID_REQUEST', 'user_ids.0');
  expectError(await put(`/departments/${id}`, { organisation_id: unitB }), 400, 'INVALID_REQUEST', 'organisation_id');
  const other = await createId(a.secretKey, '/departments', { code: 'DUP2', name: 'Dup 2', user_ids: [users.bob] });
  expectError(await put(`/departments/${other}`, { code: 'DUP', user_ids: [users.ada] }), 409, 'ALREADY_EXISTS', 'code');
  // The refused update changed nothing, members included.
  expect((await get(`/departments/${other}`)).body).toMatchObject({ code: 'DUP2', users: [{ id: users.bob }] });
  expect((await get('/departments?name=X')).body.paging.total).toBe(0);
  // Another organisation's department is not found.
  expectError(await get(`/departments/${id}`, b.secretKey), 404, 'NOT_FOUND');
  expectError(await put(`/departments/${id}`, { name: 'Mine' }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await del(`/departments/${id}`, b.secretKey), 404, 'NOT_FOUND');
  expect(ids((await get('/departments', b.secretKey)).body)).toEqual([]);
  await Promise.all([del(`/departments/${id}`), del(`/departments/${other}`)]);
});

test('user roles: create, read, list, partial update, members replaced, delete; errors and tenancy', async () => {
  const id = await createId(a.secretKey, '/user_roles', { code: 'TECH', name: 'Technician', user_ids: [users.ada, users.bob] });
  expect((await get(`/user_roles/${id}`)).body).toEqual({
    id, code: 'TECH', name: 'Technician', description: null,
    users: [{ id: users.ada, name: 'Ada Lovelace' }, { id: users.bob, name: `bob-${tag}` }],
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  for (const query of ['name=techn', 'code=TECH', 'search_value=tec']) {
    expect([query, ids((await get(`/user_roles?${query}`)).body)]).toEqual([query, [id]]);
  }
  expect((await put(`/user_roles/${id}`, { description: 'Field work', user_ids: [users.bob] })).status).toBe(200);
  expect((await get(`/user_roles/${id}`)).body).toMatchObject({ name: 'Technician', description: 'Field work', users: [{ id: users.bob }] });

  expectError(await post('/user_roles', { name: 'X', code: 'TECH' }), 409, 'ALREADY_EXISTS', 'code');
  expectError(await post('/user_roles', { name: 'X', user_ids: [foreignUser] }), 400, 'INVALID_REQUEST', 'user_ids.0');
  expectError(await post('/user_roles', { name: 'X', organisation_id: unitA }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await put(`/user_roles/${id}`, { user_ids: [users.ada, UNKNOWN_ID] }), 400, 'INVALID_REQUEST', 'user_ids.1');
  expectError(await get(`/user_roles/${id}`, b.secretKey), 404, 'NOT_FOUND');
  expectError(await put(`/user_roles/${id}`, { name: 'Mine' }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await del(`/user_roles/${id}`, b.secretKey), 404, 'NOT_FOUND');

  expect((await del(`/user_roles/${id}`)).body).toEqual({ id });
  expectError(await get(`/user_roles/${id}`), 404, 'NOT_FOUND');
  expect(await audits(id)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
});

test('post-code coverage: normalised, prefix lookup, duplicate 409, validation, tenancy', async () => {
  const long = await createId(a.secretKey, '/post_code_coverages', { organisation_id: unitA, post_code: ' sw1a 1 ' });
  const short = await createId(a.secretKey, '/post_code_coverages', { organisation_id: unitA, post_code: 'sw1a' });
  const elsewhere = await createId(a.secretKey, '/post_code_coverages', { organisation_id: unitA, post_code: 'SW2' });
  expect((await get(`/post_code_coverages/${long}`)).body).toEqual({
    id: long, organisation: { id: unitA, name: 'North branch' }, post_code: 'SW1A1', created_on: expect.any(Number),
  });
  // post_code: the coverages whose prefix the given code starts with.
  const covering = (await get('/post_code_coverages?post_code=sw1a%201aa&sort=post_code&order=desc')).body;
  expect(ids(covering)).toEqual([long, short]);
  expect(ids((await get('/post_code_coverages?post_code=SW1B')).body)).toEqual([]);
  expect((await get(`/post_code_coverages?organisation_id=${unitA}`)).body.paging.total).toBe(3);

  expectError(await post('/post_code_coverages', { organisation_id: unitA, post_code: 'SW1A 1' }), 409, 'ALREADY_EXISTS', 'post_code');
  expectError(await post('/post_code_coverages', { organisation_id: unitA, post_code: 'SW1_' }), 400, 'INVALID_REQUEST', 'post_code');
  expectError(await post('/post_code_coverages', { organisation_id: unitA, post_code: '12345678901' }), 400, 'INVALID_REQUEST', 'post_code');
  expectError(await post('/post_code_coverages', { organisation_id: unitA, post_code: '   ' }), 400, 'INVALID_REQUEST', 'post_code');
  expectError(await post('/post_code_coverages', { post_code: 'SW1' }), 400, 'INVALID_REQUEST', 'organisation_id');
  // Coverage belongs to a unit: not the tenant itself, not another tenant's unit.
  expectError(await post('/post_code_coverages', { organisation_id: a.organisationId, post_code: 'E1' }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await post('/post_code_coverages', { organisation_id: unitB, post_code: 'E1' }), 400, 'INVALID_REQUEST', 'organisation_id');

  expectError(await put(`/post_code_coverages/${elsewhere}`, { post_code: 'sw1a' }), 409, 'ALREADY_EXISTS', 'post_code');
  expect((await put(`/post_code_coverages/${elsewhere}`, { post_code: 'sw 3' })).status).toBe(200);
  expect((await get(`/post_code_coverages/${elsewhere}`)).body.post_code).toBe('SW3');

  expectError(await get(`/post_code_coverages/${long}`, b.secretKey), 404, 'NOT_FOUND');
  expectError(await put(`/post_code_coverages/${long}`, { post_code: 'X' }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await del(`/post_code_coverages/${long}`, b.secretKey), 404, 'NOT_FOUND');
  expect((await get('/post_code_coverages?post_code=SW1A1AA', b.secretKey)).body.paging.total).toBe(0);

  for (const id of [long, short, elsewhere]) expect((await del(`/post_code_coverages/${id}`)).body).toEqual({ id });
  expectError(await get(`/post_code_coverages/${long}`), 404, 'NOT_FOUND');
  expect(await audits(elsewhere)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
});

test('users: with departments, roles and access, never a password hash; other tenants\' users are not found', async () => {
  const dept = await createId(a.secretKey, '/departments', { name: 'Sales', user_ids: [users.ada] });
  const role = await createId(a.secretKey, '/user_roles', { name: 'Manager', user_ids: [users.ada] });
  const one = (await get(`/users/${users.ada}`)).body;
  expect(one).toEqual({
    id: users.ada, username: `ada-${tag}`, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', name: 'Ada Lovelace',
    is_admin: false, scopes: ['*'], is_disabled: false, disabled_on: null, created_on: expect.any(Number),
    departments: [{ id: dept, name: 'Sales' }], user_roles: [{ id: role, name: 'Manager' }],
  });
  const all = (await get('/users?sort=username&order=asc&size=100')).body;
  expect(all.content.map((u: { username: string }) => u.username).sort()).toEqual([a.admin.username, `ada-${tag}`, `bob-${tag}`].sort());
  expect(JSON.stringify(all)).not.toMatch(/password/i);
  expect(ids((await get(`/users?username=bob-${tag}`)).body)).toEqual([users.bob]);
  expect(ids((await get('/users?search_value=LOVELACE')).body)).toEqual([users.ada]);
  expect(ids((await get('/users?search_value=ada@example')).body)).toEqual([users.ada]);
  expectError(await get(`/users/${foreignUser}`), 404, 'NOT_FOUND');
  expectError(await get(`/users/${users.ada}`, b.secretKey), 404, 'NOT_FOUND');
  expect(ids((await get('/users?size=100', b.secretKey)).body)).not.toContain(users.ada);
  await Promise.all([del(`/departments/${dept}`), del(`/user_roles/${role}`)]);
});

test('scopes: reference_data:read reads, writes need reference_data:write; other groups are refused', async () => {
  const reader = await keyWith(a.secretKey, ['reference_data:read']);
  const stranger = await keyWith(a.secretKey, ['contacts']);
  for (const path of ['/departments', '/user_roles', '/post_code_coverages', '/users', `/users/${users.ada}`]) {
    expect([path, (await get(path, reader)).status]).toEqual([path, 200]);
    expectError(await get(path, stranger), 403, 'FORBIDDEN');
  }
  expectError(await post('/departments', { name: 'No' }, reader), 403, 'FORBIDDEN');
  expectError(await post('/user_roles', { name: 'No' }, reader), 403, 'FORBIDDEN');
  expectError(await post('/post_code_coverages', { organisation_id: unitA, post_code: 'N1' }, reader), 403, 'FORBIDDEN');
  expectError(await api('GET', '/departments'), 401, 'INVALID_CREDENTIAL');
});
