// GET /organisations/{id}/analytics (docs/analytics.md): exact series from facts made through the
// API, at HOUR, DAY and MONTH, zeros included; units with and without the units below them; the
// tenant's own id; the organisation's time zone; the refusals.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith, UNKNOWN_ID } from '../money/helpers';
import { buyer, epochOf, purchase, unit, type Unit } from './setup';

let tenant: Tenant;
let other: Tenant;
let key: string;
let north: Unit; // SUBSIDIARY
let harbour: Unit; // MERCHANT under north
let pier: Unit; // VENUE under harbour
let corner: Unit; // MERCHANT directly under the tenant
let otherUnit: Unit;
let walletCount = 0;
let buyerId: string;
const FIRST_REFERENCE = `AN-${process.pid}-${Date.now()}`;

const DAY1 = epochOf('2025-01-10T00:00:00Z');
const DAYS = [DAY1, DAY1 + 86400, DAY1 + 2 * 86400];
const WINDOW = `from=${DAY1}&to=${DAY1 + 3 * 86400 - 1}`;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  key = tenant.secretKey;
  north = await unit(key, 'North Group', 'SUBSIDIARY');
  harbour = await unit(key, 'Harbour Cafe', 'MERCHANT', north.id);
  pier = await unit(key, 'Harbour Cafe Pier', 'VENUE', harbour.id);
  corner = await unit(key, 'Corner Shop', 'MERCHANT');
  otherUnit = await unit(other.secretKey, 'Elsewhere', 'MERCHANT');
  const b = await buyer(key, epochOf('2024-01-01T00:00:00Z'));
  walletCount = 1;
  buyerId = b.contactId;
  await purchase(key, b.contactId, epochOf('2025-01-10T10:15:00Z'), { merchant: harbour.tap, quantity: 2, reference: FIRST_REFERENCE });
  await purchase(key, b.contactId, epochOf('2025-01-10T10:45:00Z'), { outlet: pier.tap, quantity: 1.5 });
  await purchase(key, b.contactId, epochOf('2025-01-12T08:00:00Z'), { outlet: pier.tap });
  await purchase(key, b.contactId, epochOf('2025-01-11T12:00:00Z'), { merchant: corner.tap });
  await purchase(key, b.contactId, epochOf('2025-01-11T13:00:00Z'));
  const cancelled = await purchase(key, b.contactId, epochOf('2025-01-12T09:00:00Z'), { merchant: harbour.tap });
  expect((await api('POST', `/purchases/${cancelled}/cancel`, { key })).status).toBe(200);
  await createId(key, '/journals', { wallet_id: b.walletId, amount: 5, type: 'CREDIT', created_on: epochOf('2025-01-11T14:00:00Z') });
});

function analytics(id: string, query: string, as = key) {
  return api('GET', `/organisations/${id}/analytics?${query}`, { key: as });
}

type Item = Record<string, unknown> & { organisationId: string; organisationName: string };
const numbers = (item: Item, metric: string) => (item[metric] as Array<{ number: number }>).map((p) => p.number);
const stamps = (item: Item, metric: string) => (item[metric] as Array<{ timestamp: number }>).map((p) => p.timestamp);

test('a merchant by day: its own purchases and those of its venue, every day present', async () => {
  const res = await analytics(harbour.id, WINDOW);
  expect(res.status).toBe(200);
  expect(res.body.content).toHaveLength(1);
  const [item] = res.body.content as Item[];
  expect({ id: item.organisationId, name: item.organisationName }).toEqual({ id: harbour.id, name: 'Harbour Cafe' });
  expect(Object.keys(item).sort()).toEqual(['awards', 'offers', 'organisationId', 'organisationName', 'products', 'purchases', 'transactions', 'visits']);
  for (const m of ['purchases', 'visits', 'offers', 'transactions', 'products', 'awards']) expect(stamps(item, m)).toEqual(DAYS);
  // The cancelled purchase of the 12th and its voided award count nowhere.
  expect(numbers(item, 'purchases')).toEqual([2, 0, 1]);
  expect(numbers(item, 'visits')).toEqual([1, 0, 1]);
  expect(numbers(item, 'products')).toEqual([3.5, 0, 1]);
  expect(numbers(item, 'awards')).toEqual([2, 0, 1]);
  expect(numbers(item, 'offers')).toEqual([2, 0, 1]);
  expect(numbers(item, 'transactions')).toEqual([2, 0, 1]);
});

test('the venue alone, and the subsidiary without and with the units below it', async () => {
  const venue = (await analytics(pier.id, `${WINDOW}&metrics=purchases,visits`)).body.content as Item[];
  expect(venue.map((i) => [i.organisationId, numbers(i, 'purchases'), numbers(i, 'visits'), i.products])).toEqual([[pier.id, [1, 0, 1], [1, 0, 1], undefined]]);

  const alone = (await analytics(north.id, `${WINDOW}&metrics=purchases`)).body.content as Item[];
  expect(alone.map((i) => [i.organisationId, numbers(i, 'purchases')])).toEqual([[north.id, [0, 0, 0]]]);

  // Each item counts its units below it; the purchase at the pier (merchant harbour, outlet pier) once per item.
  const tree = await analytics(north.id, `${WINDOW}&metrics=purchases,products&include_children=true`);
  expect(tree.status).toBe(200);
  expect((tree.body.content as Item[]).map((i) => [i.organisationName, numbers(i, 'purchases'), numbers(i, 'products')])).toEqual([
    ['North Group', [2, 0, 1], [3.5, 0, 1]],
    ['Harbour Cafe', [2, 0, 1], [3.5, 0, 1]],
    ['Harbour Cafe Pier', [1, 0, 1], [1.5, 0, 1]],
  ]);
});

test("the tenant's own id: every fact of the organisation, wallets too, and with include_children every unit", async () => {
  const res = await analytics(tenant.organisationId, WINDOW);
  expect(res.status).toBe(200);
  const [whole] = res.body.content as Item[];
  expect(res.body.content).toHaveLength(1);
  expect(whole.organisationId).toBe(tenant.organisationId);
  expect(typeof whole.organisationName).toBe('string');
  expect(numbers(whole, 'purchases')).toEqual([2, 2, 1]);
  expect(numbers(whole, 'visits')).toEqual([1, 0, 1]);
  expect(numbers(whole, 'awards')).toEqual([2, 2, 1]);
  // The journal of the 11th is a transaction of the organisation, of no unit.
  expect(numbers(whole, 'transactions')).toEqual([2, 3, 1]);
  expect(numbers(whole, 'wallets')).toEqual([0, 0, 0]);

  const all = (await analytics(tenant.organisationId, `${WINDOW}&metrics=purchases,transactions&include_children=true`)).body.content as Item[];
  expect(all.map((i) => [i.organisationId, numbers(i, 'purchases'), numbers(i, 'transactions')])).toEqual([
    [tenant.organisationId, [2, 2, 1], [2, 3, 1]],
    [corner.id, [0, 1, 0], [0, 1, 0]],
    [north.id, [2, 0, 1], [2, 0, 1]],
    [harbour.id, [2, 0, 1], [2, 0, 1]],
    [pier.id, [1, 0, 1], [1, 0, 1]],
  ]);
});

test('wallets are counted when created, in the window that holds now', async () => {
  const now = Math.floor(Date.now() / 1000);
  const res = await analytics(tenant.organisationId, `metrics=wallets&granularity=MONTH&from=${now - 7200}&to=${now}`);
  expect(res.status).toBe(200);
  const [whole] = res.body.content as Item[];
  expect(Object.keys(whole).sort()).toEqual(['organisationId', 'organisationName', 'wallets']);
  expect(numbers(whole, 'wallets').reduce((a, n) => a + n, 0)).toBe(walletCount);
});

test("a return counts as a transaction of the purchase's unit when it is made, not when the purchase was", async () => {
  const before = Math.floor(Date.now() / 1000);
  const returned = await api('POST', '/purchases/ad_hoc_return', { key, body: { contact_id: buyerId, reference_number: FIRST_REFERENCE, amount: 5 } });
  expect(returned.status).toBe(200);
  const now = Math.floor(Date.now() / 1000);
  const today = `metrics=transactions&granularity=MONTH&from=${before - 60}&to=${now}`;
  const total = async (id: string) => numbers((await analytics(id, today)).body.content[0], 'transactions').reduce((a, n) => a + n, 0);
  expect([await total(harbour.id), await total(north.id), await total(pier.id), await total(corner.id), await total(tenant.organisationId)]).toEqual([1, 0, 0, 0, 1]);
  const withChildren = (await analytics(north.id, `${today}&include_children=true`)).body.content as Item[];
  expect(withChildren.map((i) => numbers(i, 'transactions').reduce((a, n) => a + n, 0))).toEqual([1, 1, 0]);
  // The purchase's own buckets are unchanged.
  expect(numbers((await analytics(harbour.id, WINDOW)).body.content[0], 'transactions')).toEqual([2, 0, 1]);
});

test('by the hour and by the month; a window starting inside a bucket counts only its own part', async () => {
  const hours = (await analytics(harbour.id, `metrics=purchases&granularity=hour&from=${epochOf('2025-01-10T09:00:00Z')}&to=${epochOf('2025-01-10T11:59:59Z')}`)).body.content[0];
  expect(stamps(hours, 'purchases')).toEqual([9, 10, 11].map((h) => epochOf(`2025-01-10T${String(h).padStart(2, '0')}:00:00Z`)));
  expect(numbers(hours, 'purchases')).toEqual([0, 2, 0]);

  const months = (await analytics(harbour.id, `metrics=purchases,products&granularity=MONTH&from=${epochOf('2024-12-15T00:00:00Z')}&to=${epochOf('2025-02-15T00:00:00Z')}`)).body.content[0];
  expect(stamps(months, 'purchases')).toEqual(['2024-12-01', '2025-01-01', '2025-02-01'].map((d) => epochOf(`${d}T00:00:00Z`)));
  expect(numbers(months, 'purchases')).toEqual([0, 3, 0]);
  expect(numbers(months, 'products')).toEqual([0, 4.5, 0]);

  // From 10:30 on the 10th: the purchase of 10:15 is outside; the bucket still starts at midnight.
  const partial = (await analytics(harbour.id, `metrics=purchases&from=${epochOf('2025-01-10T10:30:00Z')}&to=${epochOf('2025-01-12T07:59:59Z')}`)).body.content[0];
  expect(stamps(partial, 'purchases')).toEqual(DAYS);
  expect(numbers(partial, 'purchases')).toEqual([1, 0, 0]);
});

test("days, hours and months are the organisation's time zone", async () => {
  const zoned = await createTenant();
  const k = zoned.secretKey;
  expectError(await api('PUT', '/settings', { key: k, body: { time_zone: 'Mars/Olympus_Mons' } }), 400, 'INVALID_REQUEST', 'time_zone');
  expectError(await api('PUT', '/settings', { key: k, body: { time_zone: '+02:00' } }), 400, 'INVALID_REQUEST', 'time_zone');
  expect((await api('GET', '/settings', { key: k })).body.time_zone).toBe('UTC');
  const put = await api('PUT', '/settings', { key: k, body: { time_zone: 'America/New_York' } });
  expect([put.status, put.body.time_zone]).toEqual([200, 'America/New_York']);
  expect((await api('GET', '/settings', { key: k })).body.time_zone).toBe('America/New_York');

  const shop = await unit(k, 'Deli', 'MERCHANT');
  const b = await buyer(k, epochOf('2024-01-01T00:00:00Z'));
  // 03:00 UTC on the 11th is 22:00 on the 10th in New York (EST, UTC-5).
  await purchase(k, b.contactId, epochOf('2025-01-11T03:00:00Z'), { merchant: shop.tap });
  // Leaving daylight saving time on 3 November 2024: 01:30 EDT (05:30 UTC) and 01:30 EST (06:30 UTC).
  await purchase(k, b.contactId, epochOf('2024-11-03T05:30:00Z'), { merchant: shop.tap });
  await purchase(k, b.contactId, epochOf('2024-11-03T06:30:00Z'), { merchant: shop.tap });

  const days = (await analytics(shop.id, `metrics=purchases&from=${epochOf('2025-01-10T05:00:00Z')}&to=${epochOf('2025-01-12T04:59:59Z')}`, k)).body.content[0];
  expect(stamps(days, 'purchases')).toEqual([epochOf('2025-01-10T05:00:00Z'), epochOf('2025-01-11T05:00:00Z')]);
  expect(numbers(days, 'purchases')).toEqual([1, 0]);

  const hours = (await analytics(shop.id, `metrics=purchases&granularity=HOUR&from=${epochOf('2024-11-03T04:00:00Z')}&to=${epochOf('2024-11-03T07:59:59Z')}`, k)).body.content[0];
  expect(stamps(hours, 'purchases')).toEqual([4, 5, 6, 7].map((h) => epochOf(`2024-11-03T0${h}:00:00Z`)));
  expect(numbers(hours, 'purchases')).toEqual([0, 1, 1, 0]);

  // The 3rd of November had 25 hours in New York; months start at local midnight.
  const nov = (await analytics(shop.id, `metrics=purchases&from=${epochOf('2024-11-03T04:00:00Z')}&to=${epochOf('2024-11-04T04:59:59Z')}`, k)).body.content[0];
  expect(stamps(nov, 'purchases')).toEqual([epochOf('2024-11-03T04:00:00Z')]);
  const months = (await analytics(shop.id, `metrics=purchases&granularity=MONTH&from=${epochOf('2024-10-15T00:00:00Z')}&to=${epochOf('2025-01-31T00:00:00Z')}`, k)).body.content[0];
  expect(stamps(months, 'purchases')).toEqual([epochOf('2024-10-01T04:00:00Z'), epochOf('2024-11-01T04:00:00Z'), epochOf('2024-12-01T05:00:00Z'), epochOf('2025-01-01T05:00:00Z')]);
  expect(numbers(months, 'purchases')).toEqual([0, 2, 0, 1]);
});

test('bad input: 400 naming the field', async () => {
  expectError(await analytics(harbour.id, 'metrics=purchases,sales'), 400, 'INVALID_REQUEST', 'metrics');
  expectError(await analytics(harbour.id, 'metrics='), 400, 'INVALID_REQUEST', 'metrics');
  expectError(await analytics(harbour.id, `from=${DAY1 + 10}&to=${DAY1}`), 400, 'INVALID_REQUEST', 'from');
  expectError(await analytics(harbour.id, 'granularity=WEEK'), 400, 'INVALID_REQUEST', 'granularity');
  expectError(await analytics(harbour.id, 'from=yesterday'), 400, 'INVALID_REQUEST', 'from');
  expectError(await analytics(harbour.id, 'include_children=maybe'), 400, 'INVALID_REQUEST', 'include_children');
  expectError(await analytics(harbour.id, 'window=30'), 400, 'INVALID_REQUEST', 'window');
  // 1,001 hours; 1,000 are allowed.
  expectError(await analytics(harbour.id, `granularity=HOUR&from=${DAY1}&to=${DAY1 + 1000 * 3600}`), 400, 'INVALID_REQUEST', 'from');
  expect((await analytics(harbour.id, `metrics=purchases&granularity=HOUR&from=${DAY1}&to=${DAY1 + 999 * 3600}`)).body.content[0].purchases).toHaveLength(1000);
  // Wallets are the organisation's, never a unit's.
  expectError(await analytics(harbour.id, 'metrics=wallets'), 400, 'INVALID_REQUEST', 'metrics');
});

test("another organisation's unit or id is not found; credentials and the reports scope", async () => {
  expectError(await analytics(otherUnit.id, WINDOW), 404, 'NOT_FOUND');
  expectError(await analytics(other.organisationId, WINDOW), 404, 'NOT_FOUND');
  expectError(await analytics(UNKNOWN_ID, WINDOW), 404, 'NOT_FOUND');
  expectError(await api('GET', `/organisations/${harbour.id}/analytics`), 401, 'INVALID_CREDENTIAL');
  expectError(await analytics(harbour.id, WINDOW, await keyWith(key, ['reference_data', 'purchases'])), 403, 'FORBIDDEN');
  expect((await analytics(harbour.id, WINDOW, await keyWith(key, ['reports:read']))).status).toBe(200);
});
