// Reward tiers over HTTPS: colour, unique position (the list's default order), thresholds as
// exact amounts; a tier an account holds is kept.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../../money/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Tiers A'), createTenant('Tiers B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

const tier = (name: string, position: number, extra: object = {}) => ({ name, color: '#a0b1c2', position, period_value_units: 100, lifetime_value_units: 1000, ...extra });
const post = (body: object, key = a.secretKey) => api('POST', '/reward_tiers', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/reward_tiers/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/reward_tiers/${id}`, { key, body });
const names = async (query = '') => (await api('GET', `/reward_tiers?${query}`, { key: a.secretKey })).body.content.map((t: { name: string }) => t.name);

test('create, get, partial update, delete; the list is by position, lowest first, by default', async () => {
  const gold = await createId(a.secretKey, '/reward_tiers', tier('Gold', 20, { code: 'GOLD', period_value_units: 2500.75, lifetime_value_units: '10000.1234' }));
  const bronze = await createId(a.secretKey, '/reward_tiers', tier('Bronze', 0, { period_value_units: 0, lifetime_value_units: 0 }));
  const silver = await createId(a.secretKey, '/reward_tiers', tier('Silver', 10));
  expect((await get(gold)).body).toEqual({
    id: gold,
    code: 'GOLD',
    name: 'Gold',
    color: '#A0B1C2',
    position: 20,
    period_value_units: 2500.75,
    lifetime_value_units: 10000.1234,
    created_on: expect.any(Number),
    updated_on: expect.any(Number),
  });
  expect(await names()).toEqual(['Bronze', 'Silver', 'Gold']);
  expect(await names('order=desc')).toEqual(['Gold', 'Silver', 'Bronze']);
  expect(await names('sort=name')).toEqual(['Bronze', 'Gold', 'Silver']);
  expect(await names('sort=created_on&order=DESC')).toEqual(['Silver', 'Bronze', 'Gold']);
  expect(await names('code=GOLD')).toEqual(['Gold']);
  expect(await names('search_value=ilv')).toEqual(['Silver']);
  expect(await names('name=BRON')).toEqual(['Bronze']);

  expect((await put(silver, { position: 30, color: '#000000', code: 'SILVER' })).body).toEqual({ id: silver });
  expect((await get(silver)).body).toMatchObject({ name: 'Silver', position: 30, color: '#000000', code: 'SILVER', period_value_units: 100 });
  expect(await names()).toEqual(['Bronze', 'Gold', 'Silver']);
  // Keeping its own position is no conflict.
  expect((await put(silver, { position: 30, name: 'Platinum' })).status).toBe(200);

  for (const id of [gold, bronze, silver]) expect((await api('DELETE', `/reward_tiers/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(gold), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: silver }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => [e.entityType, e.action])).toEqual([
    ['reward_tier', 'CREATE'],
    ['reward_tier', 'UPDATE'],
    ['reward_tier', 'UPDATE'],
    ['reward_tier', 'DELETE'],
  ]);
});

test('two tiers never share a position, even when created at the same moment (409 ALREADY_EXISTS naming position)', async () => {
  const id = await createId(a.secretKey, '/reward_tiers', tier('First', 100));
  expectError(await post(tier('Second', 100)), 409, 'ALREADY_EXISTS', 'position');
  const other = await createId(a.secretKey, '/reward_tiers', tier('Other', 101));
  expectError(await put(other, { position: 100, name: 'Moved' }), 409, 'ALREADY_EXISTS', 'position');
  expect((await get(other)).body).toMatchObject({ name: 'Other', position: 101 });
  // Another organisation's positions are its own.
  expect((await post(tier('First in B', 100), b.secretKey)).status).toBe(200);

  const racing = await Promise.all([200, 200, 200, 200].map((p, i) => post(tier(`Racer ${i}`, p))));
  expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  expect((await api('GET', '/reward_tiers?search_value=Racer', { key: a.secretKey })).body.paging.total).toBe(1);
  for (const t of [id, other]) await api('DELETE', `/reward_tiers/${t}`, { key: a.secretKey });
});

test('fields: 400 naming the attribute; a code is unique', async () => {
  const cases: Array<[object, string]> = [
    [tier('x', 1, { color: 'red' }), 'color'],
    [tier('x', 1, { color: '#12345' }), 'color'],
    [tier('x', 1, { color: '#1234567' }), 'color'],
    [tier('x', 1, { color: '#GGGGGG' }), 'color'],
    [tier('x', -1), 'position'],
    [tier('x', 1.5), 'position'],
    [tier('x', 1, { period_value_units: -1 }), 'period_value_units'],
    [tier('x', 1, { lifetime_value_units: -0.01 }), 'lifetime_value_units'],
    [tier('x', 1, { lifetime_value_units: 1.00001 }), 'lifetime_value_units'],
    [{ name: 'x', color: '#FFFFFF', period_value_units: 1, lifetime_value_units: 1 }, 'position'],
    [{ name: 'x', position: 1, period_value_units: 1, lifetime_value_units: 1 }, 'color'],
    [{ name: 'x', position: 1, color: '#FFFFFF', lifetime_value_units: 1 }, 'period_value_units'],
    [tier('', 1), 'name'],
  ];
  for (const [body, attribute] of cases) expectError(await post({ code: 'RT-BAD', ...body }), 400, 'INVALID_REQUEST', attribute);
  expect((await api('GET', '/reward_tiers?code=RT-BAD', { key: a.secretKey })).body.paging.total).toBe(0);
  const id = await createId(a.secretKey, '/reward_tiers', tier('Coded', 300, { code: 'RT-DUP' }));
  expectError(await post(tier('Again', 301, { code: 'RT-DUP' })), 409, 'ALREADY_EXISTS', 'code');
  expectError(await put(id, { color: 'blue' }), 400, 'INVALID_REQUEST', 'color');
  expectError(await api('GET', '/reward_tiers?sort=color', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sort');
});

test('a tier an account holds cannot be deleted (409 IN_USE)', async () => {
  const id = await createId(a.secretKey, '/reward_tiers', tier('Held', 400));
  const contact = await createId(a.secretKey, '/contacts', { contact_type: 'PERSON', first_name: 'Tia', last_name: 'Tier', create_default_account: true });
  const db = scopedClient(root, a.organisationId);
  const account = await db.account.findFirstOrThrow({ where: { contactId: contact } });
  await db.accountReward.create({ data: { accountId: account.id, organisationId: a.organisationId, rewardTierId: id } });
  expectError(await api('DELETE', `/reward_tiers/${id}`, { key: a.secretKey }), 409, 'IN_USE');
  await db.accountReward.update({ where: { accountId: account.id }, data: { rewardTierId: null } });
  expect((await api('DELETE', `/reward_tiers/${id}`, { key: a.secretKey })).status).toBe(200);
});

test("another organisation's tier answers 404 like an unknown one", async () => {
  const id = await createId(a.secretKey, '/reward_tiers', tier('Private', 500, { code: 'RT-PRIVATE' }));
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/reward_tiers/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await api('GET', '/reward_tiers?code=RT-PRIVATE', { key: b.secretKey })).body.paging.total).toBe(0);
});
