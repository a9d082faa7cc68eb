// Accounting periods over HTTPS: ranges that never overlap, closing in order, frozen once
// closed, and a closing balance per account (looked at in the database).
import { scopedClient } from '../../src/db/tenancy';
import type { Db } from '../../src/db/client';
import { latestClosedPeriod, openingBalance } from '../../src/domain/money/period-close';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, openDatabase, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Periods A'), createTenant('Periods B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

/** Epoch seconds of the first of a month (UTC). */
const month = (year: number, m: number) => Date.UTC(year, m - 1, 1) / 1000;
const period = (name: string, year: number, m: number) => ({ name, start_date: month(year, m), end_date: month(year, m + 1) });
const create = (body: object, key = a.secretKey) => api('POST', '/accounting_periods', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/accounting_periods/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/accounting_periods/${id}`, { key, body });
const close = (id: string, key = a.secretKey) => api('POST', `/accounting_periods/${id}/close`, { key });

test('create (OPEN), get, list, partial update, delete', async () => {
  const id = await createId(a.secretKey, '/accounting_periods', period('Jan 2019', 2019, 1));
  expect((await get(id)).body).toEqual({
    id, name: 'Jan 2019', start_date: month(2019, 1), end_date: month(2019, 2), state: 'OPEN', closed_on: null,
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  expect((await put(id, { name: 'January 2019', end_date: month(2019, 1) + 86400 })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({ name: 'January 2019', start_date: month(2019, 1), end_date: month(2019, 1) + 86400 });
  const list = await api('GET', '/accounting_periods?state=OPEN&sort=start_date&order=ASC', { key: a.secretKey });
  expect(list.body.content.map((p: { id: string }) => p.id)).toContain(id);
  expect((await api('DELETE', `/accounting_periods/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
});

test('ranges: start before end (400), no overlap (409 PERIOD_OVERLAP); adjacent periods are fine', async () => {
  expectError(await create({ name: 'x', start_date: month(2018, 2), end_date: month(2018, 1) }), 400, 'INVALID_REQUEST', 'end_date');
  expectError(await create({ name: 'x', start_date: month(2018, 1), end_date: month(2018, 1) }), 400, 'INVALID_REQUEST', 'end_date');
  expectError(await create({ name: 'x', start_date: 'soon', end_date: month(2018, 1) }), 400, 'INVALID_REQUEST', 'start_date');
  expectError(await create({ start_date: month(2018, 1), end_date: month(2018, 2) }), 400, 'INVALID_REQUEST', 'name');
  expectError(await create({ ...period('x', 2018, 1), state: 'CLOSED' }), 400, 'INVALID_REQUEST', 'state');
  const jan = await createId(a.secretKey, '/accounting_periods', period('Jan 2018', 2018, 1));
  const feb = await createId(a.secretKey, '/accounting_periods', period('Feb 2018', 2018, 2));
  expectError(await create({ name: 'Mid Jan', start_date: month(2018, 1) + 86400, end_date: month(2018, 3) }), 409, 'PERIOD_OVERLAP', 'start_date');
  expectError(await create({ name: 'All 2018', start_date: month(2017, 12), end_date: month(2019, 1) }), 409, 'PERIOD_OVERLAP', 'start_date');
  expectError(await put(jan, { end_date: month(2018, 2) + 1 }), 409, 'PERIOD_OVERLAP', 'start_date');
  expectError(await put(feb, { start_date: month(2018, 3) }), 400, 'INVALID_REQUEST', 'start_date');
  expectError(await put(feb, { end_date: month(2018, 1) }), 400, 'INVALID_REQUEST', 'end_date');
  // A refused update leaves the period as it was.
  expect((await get(feb)).body).toMatchObject({ start_date: month(2018, 2), end_date: month(2018, 3) });
});

test('closing: in order, once, after the end; a closed period is frozen; balances recorded per account', async () => {
  const c = await createTenant('Periods closing');
  const key = c.secretKey;
  for (const name of ['Ada', 'Grace']) {
    expect((await api('POST', '/contacts', { key, body: { contact_type: 'PERSON', first_name: name, last_name: 'X', create_default_account: true } })).status).toBe(200);
  }
  const jan = await createId(key, '/accounting_periods', period('Jan 2021', 2021, 1));
  const feb = await createId(key, '/accounting_periods', period('Feb 2021', 2021, 2));
  const future = await createId(key, '/accounting_periods', { name: 'Future', start_date: month(2021, 3), end_date: Math.floor(Date.now() / 1000) + 86400 * 400 });

  expectError(await close(feb, key), 409, 'EARLIER_PERIOD_OPEN');
  expect((await get(feb, key)).body.state).toBe('OPEN');
  expect((await close(jan, key)).body).toEqual({ id: jan });
  expect((await get(jan, key)).body).toMatchObject({ state: 'CLOSED', closed_on: expect.any(Number) });
  expectError(await close(jan, key), 409, 'PERIOD_ALREADY_CLOSED');
  expectError(await put(jan, { name: 'Renamed' }, key), 409, 'PERIOD_CLOSED');
  expectError(await api('DELETE', `/accounting_periods/${jan}`, { key }), 409, 'PERIOD_CLOSED');
  expectError(await create(period('Dec 2020', 2020, 12), key), 409, 'PERIOD_BEFORE_CLOSED', 'start_date');
  expect((await close(feb, key)).status).toBe(200);
  expectError(await close(future, key), 409, 'PERIOD_NOT_ENDED');
  expect((await api('GET', '/accounting_periods?state=CLOSED&sort=start_date&order=ASC', { key })).body.content.map((p: { id: string }) => p.id)).toEqual([jan, feb]);

  const db = scopedClient(root, c.organisationId);
  const accounts = await db.account.findMany({ select: { id: true } });
  expect(accounts).toHaveLength(2);
  for (const p of [jan, feb]) {
    const rows = await db.accountingPeriodBalance.findMany({ where: { periodId: p } });
    expect(rows.map((r) => [r.accountId, r.closingBalance.toFixed()]).sort()).toEqual(accounts.map((x) => [x.id, '0']).sort());
  }
  expect((await latestClosedPeriod(db, c.organisationId))?.id).toBe(feb);
  expect((await openingBalance(db, c.organisationId, accounts[0].id)).toFixed()).toBe('0');
  expect(await db.auditEntry.count({ where: { entityId: jan, action: 'CLOSE' } })).toBe(1);
});

test("another organisation's period answers 404 like an unknown one", async () => {
  const id = await createId(a.secretKey, '/accounting_periods', period('Private', 2017, 6));
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await close(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/accounting_periods/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  // B's books are its own: the same dates do not overlap A's.
  await createId(b.secretKey, '/accounting_periods', period('B', 2017, 6));
  expect((await get(id)).body.state).toBe('OPEN');
});
