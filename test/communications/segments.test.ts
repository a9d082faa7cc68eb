// Segments over HTTPS (docs/communications.md "Segments"): STATIC members and FILTER segments
// resolved through the contact search, the contacts route, and the keyset stream of ids.
import type { Db } from '../../src/db/client';
import { pgSql } from '../../src/db/sql';
import { scopedClient } from '../../src/db/tenancy';
import { segmentContactIds } from '../../src/domain/communications/segments';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { Pool } from 'pg';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testState } from '../support/state';

let a: Tenant;
let b: Tenant;
let root: Db;
const people: Record<string, string> = {};
let foreign: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Segments A'), createTenant('Segments B')]);
  root = openDatabase();
  for (const [code, first, last, email] of [
    ['SG-1', 'Ada', 'Smith', 'ada@example.com'],
    ['SG-2', 'Bob', 'Smith', 'bob@example.org'],
    ['SG-3', 'Cy', 'Jones', 'cy@example.com'],
  ]) {
    people[code] = await createId(a.secretKey, '/contacts', { contact_type: 'PERSON', code, first_name: first, last_name: last, email_address: email });
  }
  foreign = await createId(b.secretKey, '/contacts', { contact_type: 'PERSON', code: 'SG-B', first_name: 'Eve', last_name: 'Smith' });
});

afterAll(async () => {
  await root?.$disconnect();
});

const get = (id: string, key = a.secretKey) => api('GET', `/segments/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/segments/${id}`, { key, body });
const members = async (id: string, query = '') => {
  const res = await api('GET', `/segments/${id}/contacts${query}`, { key: a.secretKey });
  expect(res.status).toBe(200);
  return res.body;
};
const sorted = (ids: string[]) => [...ids].sort();

test('STATIC: create, read, contacts, list, replace members, delete; audited', async () => {
  const id = await createId(a.secretKey, '/segments', { name: 'VIP', code: 'VIP', type: 'STATIC', contact_ids: [people['SG-3'], people['SG-1']] });
  expect((await get(id)).body).toEqual({
    id, code: 'VIP', name: 'VIP', type: 'STATIC', filters: null, contact_count: 2, created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  const page = await members(id);
  expect(page.paging).toEqual({ page: 1, size: 20, total: 2 });
  expect(page.content).toEqual(
    sorted([people['SG-1'], people['SG-3']]).map((cid) => ({ id: cid, code: cid === people['SG-1'] ? 'SG-1' : 'SG-3', name: cid === people['SG-1'] ? 'Ada Smith' : 'Cy Jones' })),
  );
  expect((await members(id, '?page=2&size=1')).content.map((c: { id: string }) => c.id)).toEqual([sorted([people['SG-1'], people['SG-3']])[1]]);
  for (const query of ['code=VIP', 'name=vi', 'type=STATIC']) {
    const list = (await api('GET', `/segments?${query}`, { key: a.secretKey })).body;
    expect([query, list.content.map((s: { id: string }) => s.id)]).toEqual([query, [id]]);
  }
  expect((await put(id, { name: 'VIP 2' })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ name: 'VIP 2', contact_count: 2 });
  expect((await put(id, { contact_ids: [people['SG-2']] })).status).toBe(200);
  expect((await members(id)).content.map((c: { code: string }) => c.code)).toEqual(['SG-2']);
  expect((await api('DELETE', `/segments/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'DELETE']);
});

test('FILTER: resolved through the contact search filters; type changes', async () => {
  const id = await createId(a.secretKey, '/segments', { name: 'Smiths', type: 'FILTER', filters: { last_name: 'smith' } });
  expect((await get(id)).body).toMatchObject({ type: 'FILTER', filters: { last_name: 'smith' }, contact_count: null });
  expect(sorted((await members(id)).content.map((c: { id: string }) => c.id))).toEqual(sorted([people['SG-1'], people['SG-2']]));
  expect((await put(id, { filters: { email_address: 'CY@example.com' } })).status).toBe(200);
  expect((await members(id)).content.map((c: { code: string }) => c.code)).toEqual(['SG-3']);
  expect((await put(id, { filters: { search_value: 'smith', registered_on_from: 0 } })).status).toBe(200);
  expect((await members(id)).paging.total).toBe(2);
  // Every contact of the organisation, never another's.
  expect((await put(id, { filters: {} })).status).toBe(200);
  expect((await members(id)).content.map((c: { id: string }) => c.id)).not.toContain(foreign);
  expect((await members(id)).paging.total).toBe(3);
  // FILTER → STATIC needs contact_ids; STATIC → FILTER needs filters.
  expectError(await put(id, { type: 'STATIC' }), 400, 'INVALID_REQUEST', 'contact_ids');
  expect((await put(id, { type: 'STATIC', contact_ids: [people['SG-1']] })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ type: 'STATIC', filters: null, contact_count: 1 });
  expectError(await put(id, { type: 'FILTER' }), 400, 'INVALID_REQUEST', 'filters');
  expect((await put(id, { type: 'FILTER', filters: { code: 'SG-2' } })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ type: 'FILTER', filters: { code: 'SG-2' }, contact_count: null });
  expect((await members(id)).content.map((c: { code: string }) => c.code)).toEqual(['SG-2']);
});

test('each rule: 400 naming its attribute; nothing half-written', async () => {
  const cases: Array<[object, string]> = [
    [{ type: 'STATIC', contact_ids: [] }, 'name'],
    [{ name: 'x', type: 'DYNAMIC' }, 'type'],
    [{ name: 'x', type: 'STATIC' }, 'contact_ids'],
    [{ name: 'x', type: 'STATIC', contact_ids: [people['SG-1'], UNKNOWN_ID] }, 'contact_ids.1'],
    [{ name: 'x', type: 'STATIC', contact_ids: [foreign] }, 'contact_ids.0'],
    [{ name: 'x', type: 'STATIC', contact_ids: [people['SG-1'], people['SG-1']] }, 'contact_ids.1'],
    [{ name: 'x', type: 'STATIC', contact_ids: ['nope'] }, 'contact_ids.0'],
    [{ name: 'x', type: 'STATIC', contact_ids: [], filters: {} }, 'filters'],
    [{ name: 'x', type: 'FILTER' }, 'filters'],
    [{ name: 'x', type: 'FILTER', filters: {}, contact_ids: [] }, 'contact_ids'],
    [{ name: 'x', type: 'FILTER', filters: { page: 2 } }, 'filters.page'],
    [{ name: 'x', type: 'FILTER', filters: { phone_number: 'abc' } }, 'filters.phone_number'],
    [{ name: 'x', type: 'FILTER', filters: { registered_on_from: -1 } }, 'filters.registered_on_from'],
  ];
  for (const [body, attribute] of cases) {
    const res = await api('POST', '/segments', { key: a.secretKey, body });
    expect([attribute, res.status, res.body.attribute]).toEqual([attribute, 400, attribute]);
  }
  expect((await api('GET', '/segments?name=x', { key: a.secretKey })).body.paging.total).toBe(0);
});

test('409 ALREADY_EXISTS on a duplicate code; 404 for another organisation', async () => {
  const id = await createId(a.secretKey, '/segments', { name: 'Dup', code: 'DUP', type: 'STATIC', contact_ids: [people['SG-1']] });
  expectError(await api('POST', '/segments', { key: a.secretKey, body: { name: 'Dup', code: 'DUP', type: 'FILTER', filters: {} } }), 409, 'ALREADY_EXISTS', 'code');
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('GET', `/segments/${target}/contacts`, { key: b.secretKey }), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/segments/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  // Another organisation's segment cannot be named as a member either.
  expectError(await put(id, { contact_ids: [foreign] }), 400, 'INVALID_REQUEST', 'contact_ids.0');
  expect((await get(id)).body.contact_count).toBe(1);
});

test('segmentContactIds pages ids in id order (keyset) for both types', async () => {
  const url = process.env.DATABASE_URL ?? JSON.parse(readFileSync(path.join(testState().dataDir, 'database.json'), 'utf8')).url;
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const sql = pgSql(pool, a.organisationId);
    const all = sorted(Object.values(people));
    const filter = await createId(a.secretKey, '/segments', { name: 'All', type: 'FILTER', filters: {} });
    const statics = await createId(a.secretKey, '/segments', { name: 'Two', type: 'STATIC', contact_ids: [all[2], all[0]] });
    const first = await segmentContactIds(sql, a.organisationId, filter, undefined, 2);
    expect(first).toEqual(all.slice(0, 2));
    expect(await segmentContactIds(sql, a.organisationId, filter, first[1], 2)).toEqual(all.slice(2));
    expect(await segmentContactIds(sql, a.organisationId, filter, all[2], 2)).toEqual([]);
    expect(await segmentContactIds(sql, a.organisationId, statics, undefined, 10)).toEqual([all[0], all[2]]);
    expect(await segmentContactIds(sql, a.organisationId, statics, all[0], 10)).toEqual([all[2]]);
    // Another organisation's segment is not found.
    await expect(segmentContactIds(pgSql(pool, b.organisationId), b.organisationId, filter, undefined, 10)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  } finally {
    await pool.end();
  }
});
