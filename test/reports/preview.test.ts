// The report catalogue and GET /reports/{id}/preview (spec 2.13, 4.9, part 8; docs/reports.md):
// limits, columns, filters of each type, grouping, the 400s naming fields, tenancy and scopes.
import type { Db } from '../../src/db/client';
import { txSql } from '../../src/db/sql';
import { scopedClient } from '../../src/db/tenancy';
import { reportDef } from '../../src/domain/reports/catalogue';
import { compileReport, readPage, type Cell, type Cursor } from '../../src/domain/reports/query';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith, openDatabase } from '../money/helpers';
import { merchant, purchase, purchaseBody } from '../loyalty/purchases/setup';

let a: Tenant;
let b: Tenant;
const tag = `${process.pid}-${Date.now().toString(36)}`;
const code = (n: number) => `RP-${tag}-${n}`;
const contacts: Record<string, string> = {};

const day = (iso: string) => Math.floor(Date.parse(`${iso}T12:00:00Z`) / 1000);

async function person(key: string, n: number, first: string, last: string, extra: object = {}): Promise<string> {
  return createId(key, '/contacts', { contact_type: 'PERSON', code: code(n), first_name: first, last_name: last, accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }], ...extra });
}

async function buy(key: string, contactId: string, total: number, on: string, extra: object = {}) {
  const res = await purchase(key, purchaseBody(contactId, total, { performed_on: day(on), ...extra }));
  if (res.status !== 200) throw new Error(`POST /purchases: ${res.status} ${res.text}`);
}

/** Preview with the body sent as the GET request's JSON body. */
const preview = (report: string, body: object = {}, key = a.secretKey) => api('GET', `/reports/${report}/preview`, { key, body });
const values = (res: { body: any }) => res.body.content.map((r: any) => r.fields.map((f: any) => f.value));

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Reports preview A'), createTenant('Reports preview B')]);
  const shop = await merchant(a.secretKey);
  contacts.ada = await person(a.secretKey, 1, 'Ada', 'Lovelace', { email_opt_out: true });
  contacts.grace = await person(a.secretKey, 2, 'Grace', 'Hopper');
  contacts.alan = await person(a.secretKey, 3, 'Alan', 'Turing');
  for (let i = 0; i < 5; i++) await buy(a.secretKey, contacts.ada, 10.5, '2026-01-05', { merchant_tap: { code: shop.tapCode } });
  for (let i = 0; i < 4; i++) await buy(a.secretKey, contacts.grace, 20, '2026-02-10');
  for (let i = 0; i < 3; i++) await buy(a.secretKey, contacts.alan, 7.25, '2026-03-15');
  const accounts = await api('GET', `/contacts/${contacts.grace}/accounts`, { key: a.secretKey });
  const walletId = await createId(a.secretKey, `/accounts/${accounts.body.accounts[0].id}/wallets`, {});
  await createId(a.secretKey, '/journals', { wallet_id: walletId, amount: 100, type: 'CREDIT', description: 'Welcome' });
  await createId(a.secretKey, '/journals', { wallet_id: walletId, amount: 30.5, type: 'debit' });
  // Tenant B has a purchase of its own that A must never see.
  await buy(b.secretKey, await person(b.secretKey, 9, 'Bob', 'Other'), 999, '2026-01-05');
});

test('the catalogue lists the reports with their columns, never their SQL; an unknown report is 404', async () => {
  const list = await api('GET', '/reports', { key: a.secretKey });
  expect(list.status).toBe(200);
  expect(list.body.content.map((r: any) => r.id)).toEqual(['contacts', 'purchases', 'wallet_transactions', 'journals', 'communications', 'webhook_requests']);
  expect(list.body.paging).toEqual({ page: 1, size: 20, total: 6 });
  const one = await api('GET', '/reports/purchases', { key: a.secretKey });
  expect(one.status).toBe(200);
  expect(one.body.columns.map((c: any) => c.key)).toEqual(expect.arrayContaining([
    'id', 'number', 'reference_number', 'performed_on', 'contact_id', 'contact_code', 'contact_name', 'total_amount', 'net_amount', 'tax_amount',
    'currency_code', 'life_cycle_state', 'merchant_name', 'outlet_name', 'classification_name',
  ]));
  expect(one.body.columns.find((c: any) => c.key === 'total_amount')).toEqual({ key: 'total_amount', label: 'Total amount', type: 'AMOUNT', filterable: true, groupable: false, aggregatable: true });
  expect(one.text).not.toMatch(/organisation_id|SELECT|t\.total_amount/);
  expect((await api('GET', '/reports?sort=name&order=ASC&size=2', { key: a.secretKey })).body.content.map((r: any) => r.id)).toEqual(['communications', 'contacts']);
  expectError(await api('GET', '/reports/no_such_report', { key: a.secretKey }), 404, 'NOT_FOUND');
  expectError(await preview('no_such_report'), 404, 'NOT_FOUND');
});

test('without columns_set: at most 10 records and the report\'s first 10 columns, in the natural order', async () => {
  const res = await preview('purchases');
  expect(res.status).toBe(200);
  expect(res.body.content).toHaveLength(10);
  const columns = (await api('GET', '/reports/purchases', { key: a.secretKey })).body.columns.slice(0, 10);
  for (const row of res.body.content) {
    expect(row.fields.map((f: any) => [f.order, f.key, f.label])).toEqual(columns.map((c: any, i: number) => [i + 1, c.key, c.label]));
  }
  // Natural order: purchase number; the first ten are Ada's five and four of Grace's, then one of Alan's.
  const numbers = res.body.content.map((r: any) => r.fields[1].value);
  expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
  expect(res.body.content.map((r: any) => r.fields.find((f: any) => f.key === 'contact_name').value)).toEqual([...Array(5).fill('Ada Lovelace'), ...Array(4).fill('Grace Hopper'), 'Alan Turing']);
  const first = Object.fromEntries(res.body.content[0].fields.map((f: any) => [f.key, f.value]));
  expect(first).toMatchObject({ contact_id: contacts.ada, contact_code: code(1), total_amount: 10.5, performed_on: day('2026-01-05') });
  // Every column when more than 10 are named.
  const all = columns.concat(columns).map((c: any) => ({ key: c.key }));
  expect((await preview('purchases', { columns_set: all })).body.content[0].fields).toHaveLength(20);
});

test('columns_set: its order and labels, `value` as the label, several keys joined into one column', async () => {
  const res = await preview('purchases', {
    filters_set: [{ key: 'contact_code', value: `=${code(1)}` }],
    columns_set: [
      { order: 3, key: 'total_amount', label: 'Total', type: 'amount' },
      { order: 1, key: 'contact_code,contact_name', type: 'text,text' },
      { order: 2, key: 'merchant_name', value: 'Shop' },
      { order: 4, key: 'performed_on,total_amount', label: 'When and how much', type: 'DATE,AMOUNT' },
    ],
  });
  expect(res.status).toBe(200);
  expect(res.body.content).toHaveLength(5);
  expect(res.body.content[0].fields).toEqual([
    { order: 1, key: 'contact_code,contact_name', label: 'Contact code, Contact name', value: `${code(1)} Ada Lovelace` },
    { order: 2, key: 'merchant_name', label: 'Shop', value: 'Cafe' },
    { order: 3, key: 'total_amount', label: 'Total', value: 10.5 },
    // Dates inside text read in the organisation's time zone (UTC by default).
    { order: 4, key: 'performed_on,total_amount', label: 'When and how much', value: '2026-01-05 12:00:00 10.5' },
  ]);
});

test('filters: text contains or equals, numbers exact or ranges, dates by day or epoch, booleans, several keys OR', async () => {
  const count = async (filters_set: object[], report = 'purchases') => {
    const res = await preview(report, { filters_set, columns_set: [{ key: 'id' }] });
    expect(res.status).toBe(200);
    return res.body.content.length;
  };
  expect(await count([{ key: 'contact_name', value: 'LOVE', type: 'TEXT' }])).toBe(5);
  expect(await count([{ key: 'contact_code', value: `=${code(2).toLowerCase()}` }])).toBe(4);
  expect(await count([{ key: 'contact_code', value: `=RP-${tag}` }])).toBe(0);
  // LIKE wildcards in the value are plain characters.
  expect(await count([{ key: 'contact_name', value: '%' }])).toBe(0);
  expect(await count([{ key: 'total_amount', value: 20 }])).toBe(4);
  expect(await count([{ key: 'total_amount', value: '7..11', type: 'AMOUNT' }])).toBe(8);
  expect(await count([{ key: 'total_amount', value: '10.5..' }])).toBe(9);
  expect(await count([{ key: 'total_amount', value: '..10.5' }])).toBe(8);
  expect(await count([{ key: 'performed_on', value: '2026-02-01..2026-02-28', type: 'date' }])).toBe(4);
  expect(await count([{ key: 'performed_on', value: '2026-03-15' }])).toBe(3);
  expect(await count([{ key: 'performed_on', value: `${day('2026-01-05')}..${day('2026-02-10')}` }])).toBe(9);
  expect(await count([{ key: 'performed_on', value: `${day('2026-01-05') + 1}..` }])).toBe(7);
  expect(await count([{ key: 'contact_name,reference_number', value: 'hopper', type: 'text,text' }])).toBe(4);
  // Every filter must hold.
  expect(await count([{ key: 'contact_name', value: 'a' }, { key: 'total_amount', value: 20 }])).toBe(4);
  expect(await count([{ key: 'email_opt_out', value: true }], 'contacts')).toBe(1);
  expect(await count([{ key: 'email_opt_out', value: 'false', type: 'BOOLEAN' }], 'contacts')).toBe(2);
  expect(await count([{ key: 'number', value: '1..' }])).toBe(10);
});

test('group_by_set: one row per group with the amounts summed and a count; dates group by day', async () => {
  const res = await preview('purchases', {
    group_by_set: [{ order: 1, key: 'contact_code', label: 'Customer', type: 'TEXT' }],
    columns_set: [{ order: 1, key: 'contact_code', label: 'Customer' }, { order: 2, key: 'total_amount', label: 'Spent' }, { order: 3, key: 'tax_amount' }],
  });
  expect(res.status).toBe(200);
  expect(res.body.content[0].fields.map((f: any) => [f.order, f.key, f.label])).toEqual([[1, 'contact_code', 'Customer'], [2, 'total_amount', 'Spent'], [3, 'tax_amount', 'Tax amount'], [4, 'count', 'Count']]);
  // Tax: 15% rounded per purchase (1.58 for 10.5, 3 for 20, 1.09 for 7.25).
  expect(values(res)).toEqual([[code(1), 52.5, 7.9, 5], [code(2), 80, 12, 4], [code(3), 21.75, 3.27, 3]]);

  const byDay = await preview('purchases', { group_by_set: [{ key: 'performed_on' }], filters_set: [{ key: 'total_amount', value: '..10.5' }] });
  expect(byDay.status).toBe(200);
  // Without columns_set: the group keys, then every amount summed, then the count (10 columns at most).
  expect(byDay.body.content[0].fields.map((f: any) => f.key)).toEqual(['performed_on', 'total_amount', 'net_amount', 'tax_amount', 'returned_amount', 'count']);
  expect(values(byDay)).toEqual([[day('2026-01-05') - 12 * 3600, 52.5, 44.6, 7.9, 0, 5], [day('2026-03-15') - 12 * 3600, 21.75, 18.48, 3.27, 0, 3]]);

  const twoKeys = await preview('purchases', { group_by_set: [{ key: 'currency_code,life_cycle_state' }], columns_set: [{ key: 'life_cycle_state' }, { key: 'total_amount' }] });
  expect(values(twoKeys)).toEqual([['POSTED', 154.25, 12]]);
});

test('journals: credits and debits only, the signed amount sums to the net movement', async () => {
  const res = await preview('journals', { group_by_set: [{ key: 'contact_name' }], columns_set: [{ key: 'contact_name' }, { key: 'amount' }, { key: 'signed_amount' }] });
  expect(values(res)).toEqual([['Grace Hopper', 130.5, 69.5, 2]]);
  const debits = await preview('journals', { filters_set: [{ key: 'classification', value: '=DEBIT' }], columns_set: [{ key: 'classification' }, { key: 'signed_amount' }, { key: 'currency_code' }] });
  expect(values(debits)).toEqual([['DEBIT', -30.5, 'EUR']]);
  // wallet_transactions holds the journals too (and every other kind of transaction).
  expect((await preview('wallet_transactions', { columns_set: [{ key: 'description' }] })).body.content.length).toBeGreaterThanOrEqual(2);
});

test('every report previews with every column, grouped by each groupable one, filtered on each filterable one', async () => {
  const sample: Record<string, string> = { TEXT: 'a', INTEGER: '0..', NUMBER: '0..', AMOUNT: '..1000000', DATE: '2000-01-01..', BOOLEAN: 'false' };
  const reports = (await api('GET', '/reports', { key: a.secretKey })).body.content;
  const failures: string[] = [];
  const check = async (what: string, report: string, body: object) => {
    const res = await preview(report, body);
    if (res.status !== 200) failures.push(`${report} ${what}: ${res.status} ${res.text.slice(0, 200)}`);
  };
  for (const r of reports) {
    await check('all columns', r.id, { columns_set: r.columns.map((c: any) => ({ key: c.key, type: c.type })) });
    for (const c of r.columns.filter((x: any) => x.groupable)) await check(`grouped by ${c.key}`, r.id, { group_by_set: [{ key: c.key }] });
    for (const c of r.columns.filter((x: any) => x.filterable)) await check(`filtered on ${c.key}`, r.id, { filters_set: [{ key: c.key, value: sample[c.type] }] });
  }
  expect(failures).toEqual([]);
});

test('keyset pages: a row at a time reads exactly what one page reads, null group keys included', async () => {
  const root: Db = openDatabase();
  try {
    const sql = txSql(scopedClient(root, a.organisationId), a.organisationId);
    const all = async (report: string, body: object, limit: number) => {
      const compiled = compileReport(reportDef(report), body, { dates: 'epoch', timeZone: 'UTC' });
      const rows: Cell[][] = [];
      let cursor: Cursor | null = null;
      let pages = 0;
      do {
        const page = await readPage(sql, compiled, cursor, limit);
        rows.push(...page.rows);
        cursor = page.next;
        pages++;
      } while (cursor);
      return { rows, pages };
    };
    // merchant_name is null for Grace's and Alan's purchases: nulls sort first.
    const grouped = { group_by_set: [{ key: 'merchant_name' }, { key: 'contact_code' }], columns_set: [{ key: 'merchant_name' }, { key: 'contact_code' }, { key: 'total_amount' }] };
    const whole = await all('purchases', grouped, 100);
    expect(whole.rows).toEqual([[null, code(2), '80', '4'], [null, code(3), '21.75', '3'], ['Cafe', code(1), '52.5', '5']]);
    expect(await all('purchases', grouped, 1)).toEqual({ rows: whole.rows, pages: 4 });
    const plain = { columns_set: [{ key: 'code' }] };
    const contactsWhole = await all('contacts', plain, 100);
    expect(contactsWhole.rows).toEqual([[code(1)], [code(2)], [code(3)]]);
    expect((await all('contacts', plain, 2)).rows).toEqual(contactsWhole.rows);
    expect((await all('purchases', { columns_set: [{ key: 'number' }] }, 5)).rows.map((r) => Number(r[0]))).toEqual(
      (await all('purchases', { columns_set: [{ key: 'number' }] }, 100)).rows.map((r) => Number(r[0])),
    );
  } finally {
    await root.$disconnect();
  }
});

test('bad bodies: 400 naming the field, whichever check refuses it', async () => {
  expectError(await preview('purchases', { filters_set: [{ key: 'no_such_column', value: 'x' }] }), 400, 'INVALID_REQUEST', 'filters_set.0.key');
  expectError(await preview('purchases', { columns_set: [{ key: 'id' }, { key: 'contact_code,nope' }] }), 400, 'INVALID_REQUEST', 'columns_set.1.key');
  expectError(await preview('purchases', { columns_set: [{ key: 'total_amount', type: 'TEXT' }] }), 400, 'INVALID_REQUEST', 'columns_set.0.type');
  expectError(await preview('purchases', { columns_set: [{ key: 'contact_code,contact_name', type: 'text' }] }), 400, 'INVALID_REQUEST', 'columns_set.0.type');
  expectError(await preview('purchases', { filters_set: [{ key: 'total_amount', value: 'lots' }] }), 400, 'INVALID_REQUEST', 'filters_set.0.value');
  expectError(await preview('purchases', { filters_set: [{ key: 'performed_on', value: '2026-02-30' }] }), 400, 'INVALID_REQUEST', 'filters_set.0.value');
  expectError(await preview('purchases', { filters_set: [{ key: 'performed_on', value: '..' }] }), 400, 'INVALID_REQUEST', 'filters_set.0.value');
  expectError(await preview('contacts', { filters_set: [{ key: 'email_opt_out', value: 'yes' }] }), 400, 'INVALID_REQUEST', 'filters_set.0.value');
  expectError(await preview('purchases', { filters_set: [{ key: 'total_amount' }] }), 400, 'INVALID_REQUEST', 'filters_set.0.value');
  expectError(await preview('purchases', { group_by_set: [{ key: 'reference_number' }] }), 400, 'INVALID_REQUEST', 'group_by_set.0.key');
  expectError(await preview('purchases', { group_by_set: [{ key: 'contact_code' }], columns_set: [{ key: 'contact_code' }, { key: 'reference_number' }] }), 400, 'INVALID_REQUEST', 'columns_set.1.key');
  expectError(await preview('purchases', { format: 'CSV' }), 400, 'INVALID_REQUEST', 'format');
});

test('the body may come URL-encoded in ?body= instead, with the same answer and the same 400s', async () => {
  const body = { filters_set: [{ key: 'total_amount', value: 20 }], columns_set: [{ key: 'contact_name' }] };
  const viaQuery = await api('GET', `/reports/purchases/preview?body=${encodeURIComponent(JSON.stringify(body))}`, { key: a.secretKey });
  expect(viaQuery.status).toBe(200);
  expect(viaQuery.body).toEqual((await preview('purchases', body)).body);
  expect(values(viaQuery)).toEqual(Array(4).fill(['Grace Hopper']));
  const bad = encodeURIComponent(JSON.stringify({ columns_set: [{ key: 'nope' }] }));
  expectError(await api('GET', `/reports/purchases/preview?body=${bad}`, { key: a.secretKey }), 400, 'INVALID_REQUEST', 'columns_set.0.key');
  expectError(await api('GET', `/reports/purchases/preview?body=${encodeURIComponent(JSON.stringify({ columns_set: 'x' }))}`, { key: a.secretKey }), 400, 'INVALID_REQUEST', 'columns_set');
  expectError(await api('GET', '/reports/purchases/preview?body=%7Bnot-json', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'body');
  expectError(await api('GET', `/reports/purchases/preview?body=${encodeURIComponent('{}')}`, { key: a.secretKey, body }), 400, 'INVALID_REQUEST', 'body');
});

test("another organisation's rows never appear", async () => {
  const mine = await preview('purchases', { columns_set: [{ key: 'total_amount' }], filters_set: [{ key: 'total_amount', value: 999 }] });
  expect(mine.body.content).toEqual([]);
  const theirs = await preview('purchases', { columns_set: [{ key: 'contact_name' }] }, b.secretKey);
  expect(values(theirs)).toEqual([['Bob Other']]);
  const contactsOfB = await preview('contacts', { columns_set: [{ key: 'code' }] }, b.secretKey);
  expect(values(contactsOfB)).toEqual([[code(9)]]);
});

test('401 without a credential, 403 without the reports scope', async () => {
  expectError(await api('GET', '/reports'), 401, 'INVALID_CREDENTIAL');
  expectError(await api('GET', '/reports/purchases/preview'), 401, 'INVALID_CREDENTIAL');
  const other = await keyWith(a.secretKey, ['contacts']);
  expectError(await preview('purchases', {}, other), 403, 'FORBIDDEN');
  expectError(await api('GET', '/reports', { key: other }), 403, 'FORBIDDEN');
  const reader = await keyWith(a.secretKey, ['reports:read']);
  expect((await preview('purchases', {}, reader)).status).toBe(200);
});

test('a country filter names a country, alpha-2 or alpha-3, and compares whole codes: CY is Cyprus, never the Cayman Islands', async () => {
  const t = await createTenant('Reports countries');
  for (const country of ['CYP', 'CYM', 'GRC']) {
    await createId(t.secretKey, '/contacts', { contact_type: 'PERSON', first_name: 'In', last_name: country, addresses: [{ address_line_1: '1 Main St', country_code: country }] });
  }
  const found = async (value: string) =>
    values(await preview('contacts', { filters_set: [{ key: 'country_code', value }], columns_set: [{ key: 'last_name' }] }, t.secretKey)).flat().sort();
  for (const value of ['CY', '=cy', 'cyp', '=CYP']) expect([value, await found(value)]).toEqual([value, ['CYP']]);
  expect(await found('KY')).toEqual(['CYM']);
  // Text that names no country keeps the TEXT rule: a substring.
  expect(await found('Y')).toEqual(['CYM', 'CYP']);
});
