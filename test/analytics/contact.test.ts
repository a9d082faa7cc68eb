// GET /contacts/{id}/analytics (docs/analytics.md "Contact analytics"): the contact's visits, awards
// and transactions per calendar period in the organisation's time zone. Facts are placed relative
// to now, so the expected values are computed from the same calendar (Intl, in the zone) rather
// than assumed: a run at 00:05 on the 1st of a month must pass too.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith } from '../money/helpers';
import { buyer, purchase, unit, type Buyer } from './setup';

const ZONE = 'Asia/Kolkata'; // UTC+05:30: local periods are not UTC ones
const PERIODS = ['hour', 'today', 'this_week', 'this_month', 'last_month', 'this_quarter', 'this_semester', 'this_year'] as const;
type Period = (typeof PERIODS)[number];

let tenant: Tenant;
let other: Tenant;
let key: string;
let ann: Buyer;
/** Epoch seconds of each kind of fact. */
const visits: number[] = [];
const awards: number[] = [];
const transactions: number[] = [];

const AGO = [5 * 60, 50 * 60, 3 * 3600, 20 * 3600, 3 * 86400, 9 * 86400, 35 * 86400, 70 * 86400, 130 * 86400, 250 * 86400, 400 * 86400];

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  key = tenant.secretKey;
  expect((await api('PUT', '/settings', { key, body: { time_zone: ZONE } })).status).toBe(200);
  const cafe = await unit(key, 'Cafe', 'MERCHANT');
  const terrace = await unit(key, 'Cafe Terrace', 'VENUE', cafe.id);
  const now = Math.floor(Date.now() / 1000);
  ann = await buyer(key, now - 500 * 86400);
  for (const ago of AGO) {
    // At the venue: a visit, with its award.
    await purchase(key, ann.contactId, now - ago, { outlet: terrace.tap });
    visits.push(now - ago);
    awards.push(now - ago);
    transactions.push(now - ago);
  }
  // At the merchant's own till: no visit, but an award.
  await purchase(key, ann.contactId, now - 90, { merchant: cafe.tap });
  awards.push(now - 90);
  transactions.push(now - 90);
  // A journal: a transaction, not an award.
  await createId(key, '/journals', { wallet_id: ann.walletId, amount: 5, type: 'CREDIT', created_on: now - 40 * 60 });
  transactions.push(now - 40 * 60);
  // Cancelled: neither the purchase, its award nor the void count.
  const cancelled = await purchase(key, ann.contactId, now - 60, { outlet: terrace.tap });
  expect((await api('POST', `/purchases/${cancelled}/cancel`, { key })).status).toBe(200);
});

interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
}

function local(t: number, zone: string): Local {
  const format = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric' });
  const p = Object.fromEntries(format.formatToParts(new Date(t * 1000)).map((x) => [x.type, Number(x.value)]));
  return { year: p.year, month: p.month, day: p.day, hour: p.hour };
}
const dayNumber = (l: Local) => Date.UTC(l.year, l.month - 1, l.day) / 86_400_000;
/** Monday 0 ... Sunday 6 (1 January 1970 was a Thursday). */
const mondayOf = (l: Local) => dayNumber(l) - ((dayNumber(l) + 3) % 7);
const monthIndex = (l: Local) => l.year * 12 + l.month - 1;

/** Whether epoch second `t` lies in `period` as seen at `now`, in the zone's calendar. */
function inPeriod(period: Period, t: number, now: number, zone: string): boolean {
  const [a, n] = [local(t, zone), local(now, zone)];
  switch (period) {
    case 'hour': return dayNumber(a) === dayNumber(n) && a.hour === n.hour;
    case 'today': return dayNumber(a) === dayNumber(n);
    case 'this_week': return mondayOf(a) === mondayOf(n);
    case 'this_month': return monthIndex(a) === monthIndex(n);
    case 'last_month': return monthIndex(a) === monthIndex(n) - 1;
    case 'this_quarter': return a.year === n.year && Math.floor((a.month - 1) / 3) === Math.floor((n.month - 1) / 3);
    case 'this_semester': return a.year === n.year && (a.month > 6) === (n.month > 6);
    case 'this_year': return a.year === n.year;
  }
}

type Metric = 'visits' | 'awards' | 'transactions';

function expected(now: number, names: Metric[], zone: string) {
  const facts = { visits, awards, transactions };
  return names.map((name) => ({ name, values: Object.fromEntries(PERIODS.map((p) => [p, facts[name].filter((t) => inPeriod(p, t, now, zone)).length])) }));
}

/** The answer and what it should be; asked again if a period boundary passed during the request. */
async function askAndExpect(path: string, names: Metric[] = ['visits', 'awards', 'transactions'], zone = ZONE) {
  for (;;) {
    const before = Math.floor(Date.now() / 1000);
    const res = await api('GET', path, { key });
    const after = Math.floor(Date.now() / 1000);
    const want = expected(before, names, zone);
    if (JSON.stringify(want) === JSON.stringify(expected(after, names, zone))) return { res, want };
  }
}

test('every metric for every period, by id and by code', async () => {
  const { res, want } = await askAndExpect(`/contacts/${ann.contactId}/analytics`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual(want);
  const byCode = await askAndExpect(`/contacts/${encodeURIComponent(ann.code)}/analytics?metrics=transactions,visits`, ['transactions', 'visits']);
  expect(byCode.res.body).toEqual(byCode.want);
});

test('periods are calendar periods of the time zone: the answer follows a change of zone', async () => {
  expect((await api('PUT', '/settings', { key, body: { time_zone: 'Pacific/Kiritimati' } })).status).toBe(200);
  try {
    // UTC+14 against UTC+05:30: "today" and the hour are other sets of instants there.
    const { res, want } = await askAndExpect(`/contacts/${ann.contactId}/analytics?metrics=visits`, ['visits'], 'Pacific/Kiritimati');
    expect(res.body).toEqual(want);
  } finally {
    expect((await api('PUT', '/settings', { key, body: { time_zone: ZONE } })).status).toBe(200);
  }
});

test('bad input, unknown contacts, credentials and scope', async () => {
  expectError(await api('GET', `/contacts/${ann.contactId}/analytics?metrics=visits,purchases`, { key }), 400, 'INVALID_REQUEST', 'metrics');
  expectError(await api('GET', `/contacts/${ann.contactId}/analytics?granularity=DAY`, { key }), 400, 'INVALID_REQUEST', 'granularity');
  expectError(await api('GET', `/contacts/${ann.contactId}/analytics`, { key: other.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/contacts/${encodeURIComponent(ann.code)}/analytics`, { key: other.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('GET', '/contacts/no-such-code/analytics', { key }), 404, 'NOT_FOUND');
  expectError(await api('GET', `/contacts/${ann.contactId}/analytics`), 401, 'INVALID_CREDENTIAL');
  expectError(await api('GET', `/contacts/${ann.contactId}/analytics`, { key: await keyWith(key, ['contacts']) }), 403, 'FORBIDDEN');
  expect((await api('GET', `/contacts/${ann.contactId}/analytics`, { key: await keyWith(key, ['reports:read']) })).status).toBe(200);
});
