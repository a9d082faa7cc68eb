// Using and cancelling vouchers over HTTPS (docs/vouchers.md "Life cycle"): fixed and variable
// values, the secret number, used / expired / cancelled refusals, a race of two uses, and the
// audit and outbox rows each move leaves (or does not leave) behind.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';
import { createId, expectError, openDatabase } from '../../money/helpers';

let tenant: Tenant;
let root: Db;
let db: Db;
let key: string;
let counter = 0;

beforeAll(async () => {
  tenant = await createTenant();
  key = tenant.secretKey;
  root = openDatabase();
  db = scopedClient(root, tenant.organisationId);
});
afterAll(async () => root?.$disconnect());

async function voucherType(data: Record<string, unknown> = {}): Promise<string> {
  const id = newId();
  await db.voucherType.create({
    data: {
      id, organisationId: tenant.organisationId, name: `Type ${++counter}`, valueType: 'FIXED', value: 10, currencyCode: 'EUR',
      validityPeriod: 1, validityUot: 'YEAR', classification: 'REFUND', category: 'IDENTIFIES_CUSTOMER', ...data,
    },
  });
  return id;
}

async function newVoucher(typeData: Record<string, unknown> = {}, body: object = {}) {
  const contactId = await createId(key, '/contacts', { contact_type: 'PERSON', code: `U-${process.pid}-${++counter}-${Date.now().toString(36)}`, first_name: 'Use', last_name: 'R', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
  const res = await api('POST', '/vouchers', { key, body: { contact_id: contactId, voucher_type_id: await voucherType(typeData), ...body } });
  expect(res.status).toBe(200);
  return { ...(res.body as { id: string; number: string; secret_number: string }), contactId };
}

const useIt = (id: string, body: object) => api('POST', `/vouchers/${id}`, { key, body });
const cancelIt = (id: string, body: object = {}) => api('POST', `/vouchers/${id}/cancel`, { key, body });
const get = async (id: string) => (await api('GET', `/vouchers/${id}`, { key })).body;
const auditsOf = (id: string) => db.auditEntry.findMany({ where: { entityType: 'voucher', entityId: id }, orderBy: { createdAt: 'asc' } });
const eventsOf = (id: string) => db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });

test('a fixed voucher is used for its value: USED, used_on, used_value, used_by, custom fields kept; audit and VOUCHER_USED event; no wallet money moves', async () => {
  const v = await newVoucher({ value: 15, extraAddedValue: 5 }, { custom_fields: [{ key: 'campaign', value: 'spring' }, { key: 'note', value: 'a' }] });
  const before = Math.floor(Date.now() / 1000);
  // Spaces and hyphens a person types are not part of the secret.
  const secret = v.secret_number.replace(/(\d{4})(?=\d)/g, '$1-');
  const res = await useIt(v.id, { secret_number: secret, custom_fields: [{ key: 'till', value: 'T-12' }, { key: 'note', value: 'b' }] });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: v.id });

  const got = await get(v.id);
  expect(got).toMatchObject({ life_cycle_state: 'USED', used_value: 15, value: 15, extra_added_value: 5, used_by: { id: expect.any(String) } });
  expect(got.used_on).toBeGreaterThanOrEqual(before - 1);
  expect(got.used_on).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  expect(got.custom_fields).toEqual([{ key: 'campaign', value: 'spring' }, { key: 'note', value: 'b' }, { key: 'till', value: 'T-12' }]);

  const audits = await auditsOf(v.id);
  expect(audits.map((a) => a.action)).toEqual(['ISSUE', 'USE']);
  expect(audits[1].changes).toMatchObject({ voucher_id: v.id, used_value: '15', custom_fields: [{ key: 'till', value: 'T-12' }, { key: 'note', value: 'b' }] });
  expect(audits[1].actorId).toBe(got.used_by.id);
  const events = await eventsOf(v.id);
  expect(events.map((e) => e.type)).toEqual(['VOUCHER_ISSUED', 'VOUCHER_USED']);
  expect(events[1].payload).toMatchObject({ voucher_id: v.id, number: v.number, contact_id: v.contactId, used_value: '15', currency_code: 'EUR', used_on: got.used_on });
  expect(JSON.stringify([audits, events])).not.toContain(v.secret_number);
  // Redeemed at the till: the contact's wallets and transactions are untouched.
  expect(await db.walletTransaction.count({ where: { contactId: v.contactId } })).toBe(0);
});

test('a fixed voucher refuses a value: 400 naming value, and stays usable', async () => {
  const v = await newVoucher({ value: 10 });
  expectError(await useIt(v.id, { secret_number: v.secret_number, value: 10 }), 400, 'INVALID_REQUEST', 'value');
  expect((await get(v.id)).life_cycle_state).toBe('ACTIVATED');
  expect((await useIt(v.id, { secret_number: v.secret_number })).status).toBe(200);
});

test('a variable voucher needs a value within its bounds; it is used for the value chosen', async () => {
  const v = await newVoucher({ valueType: 'VARIABLE', value: null, minimumValue: 5, maximumValue: 50 });
  expectError(await useIt(v.id, { secret_number: v.secret_number }), 400, 'INVALID_REQUEST', 'value');
  expectError(await useIt(v.id, { secret_number: v.secret_number, value: 4.9999 }), 400, 'INVALID_REQUEST', 'value');
  expectError(await useIt(v.id, { secret_number: v.secret_number, value: 50.0001 }), 400, 'INVALID_REQUEST', 'value');
  expectError(await useIt(v.id, { secret_number: v.secret_number, value: -1 }), 400, 'INVALID_REQUEST', 'value');
  expectError(await useIt(v.id, { secret_number: v.secret_number, value: 'ten' }), 400, 'INVALID_REQUEST', 'value');
  expect((await get(v.id)).life_cycle_state).toBe('ACTIVATED');
  expect((await useIt(v.id, { secret_number: v.secret_number, value: '12.34' })).status).toBe(200);
  expect(await get(v.id)).toMatchObject({ life_cycle_state: 'USED', used_value: 12.34, value: null, minimum_value: 5, maximum_value: 50 });

  // The bounds themselves are allowed.
  const w = await newVoucher({ valueType: 'VARIABLE', value: null, minimumValue: 5, maximumValue: 50 });
  expect((await useIt(w.id, { secret_number: w.secret_number, value: 50 })).status).toBe(200);
  expect((await get(w.id)).used_value).toBe(50);
});

test("a wrong secret number: 400 naming secret_number, whatever the voucher's state; nothing is written", async () => {
  const v = await newVoucher();
  const wrong = v.secret_number.slice(0, -1) + String((Number(v.secret_number.slice(-1)) + 1) % 10);
  expectError(await useIt(v.id, { secret_number: wrong }), 400, 'INVALID_REQUEST', 'secret_number');
  expectError(await useIt(v.id, { secret_number: `${v.secret_number}0` }), 400, 'INVALID_REQUEST', 'secret_number');
  expectError(await useIt(v.id, { secret_number: '' }), 400, 'INVALID_REQUEST', 'secret_number');
  expectError(await useIt(v.id, { secret_number: Number(v.secret_number) }), 400, 'INVALID_REQUEST', 'secret_number');
  expect((await get(v.id)).life_cycle_state).toBe('ACTIVATED');
  expect((await auditsOf(v.id)).map((a) => a.action)).toEqual(['ISSUE']);
  // Another voucher's secret does not open this one.
  const u = await newVoucher();
  expectError(await useIt(v.id, { secret_number: u.secret_number }), 400, 'INVALID_REQUEST', 'secret_number');
  // Once used, a wrong secret still answers 400 (it learns nothing about the state).
  expect((await useIt(v.id, { secret_number: v.secret_number })).status).toBe(200);
  expectError(await useIt(v.id, { secret_number: wrong }), 400, 'INVALID_REQUEST', 'secret_number');
});

test('a used voucher: 409 VOUCHER_USED for another use and for cancel', async () => {
  const v = await newVoucher();
  expect((await useIt(v.id, { secret_number: v.secret_number })).status).toBe(200);
  expectError(await useIt(v.id, { secret_number: v.secret_number }), 409, 'VOUCHER_USED');
  expectError(await cancelIt(v.id), 409, 'VOUCHER_USED');
  expect((await auditsOf(v.id)).map((a) => a.action)).toEqual(['ISSUE', 'USE']);
});

test('an expired voucher: 409 VOUCHER_EXPIRED, shown EXPIRED; it may still be cancelled', async () => {
  const v = await newVoucher();
  await root.$executeRawUnsafe('UPDATE vouchers SET expiration_date = now() - interval \'1 second\' WHERE id = $1::uuid', v.id);
  expect((await get(v.id)).life_cycle_state).toBe('EXPIRED');
  expectError(await useIt(v.id, { secret_number: v.secret_number }), 409, 'VOUCHER_EXPIRED');
  expect((await eventsOf(v.id)).map((e) => e.type)).toEqual(['VOUCHER_ISSUED']);
  expect((await cancelIt(v.id)).status).toBe(200);
  expect((await get(v.id)).life_cycle_state).toBe('CANCELLED');
  expectError(await useIt(v.id, { secret_number: v.secret_number }), 409, 'VOUCHER_CANCELLED');
});

test('cancel: ACTIVATED → CANCELLED (final), custom fields kept, audit row, VOUCHER_CANCELLED event; then 409 VOUCHER_CANCELLED', async () => {
  const v = await newVoucher({}, { custom_fields: [{ key: 'campaign', value: 'x' }] });
  const res = await cancelIt(v.id, { custom_fields: [{ key: 'reason', value: 'issued in error' }] });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: v.id });
  expect(await get(v.id)).toMatchObject({ life_cycle_state: 'CANCELLED', used_on: null, used_value: null, used_by: null, custom_fields: [{ key: 'campaign', value: 'x' }, { key: 'reason', value: 'issued in error' }] });
  expectError(await useIt(v.id, { secret_number: v.secret_number }), 409, 'VOUCHER_CANCELLED');
  expectError(await cancelIt(v.id), 409, 'VOUCHER_CANCELLED');
  const audits = await auditsOf(v.id);
  expect(audits.map((a) => a.action)).toEqual(['ISSUE', 'CANCEL']);
  expect(audits[1].changes).toMatchObject({ number: v.number, custom_fields: [{ key: 'reason', value: 'issued in error' }] });
  expect((await eventsOf(v.id)).map((e) => e.type)).toEqual(['VOUCHER_ISSUED', 'VOUCHER_CANCELLED']);
  // A body is optional in content: an empty object does.
  const w = await newVoucher();
  expect((await cancelIt(w.id, {})).status).toBe(200);
});

test('a race of uses with the right secret: exactly one wins, the others answer 409 VOUCHER_USED', async () => {
  for (let round = 0; round < 3; round++) {
    const v = await newVoucher({ valueType: 'VARIABLE', value: null, minimumValue: 1, maximumValue: 100 });
    const results = await Promise.all([1, 2, 3, 4].map((n) => useIt(v.id, { secret_number: v.secret_number, value: n * 10 })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('VOUCHER_USED');
    const winner = results.findIndex((r) => r.status === 200);
    expect((await get(v.id)).used_value).toBe((winner + 1) * 10);
    expect((await auditsOf(v.id)).filter((a) => a.action === 'USE')).toHaveLength(1);
    expect((await eventsOf(v.id)).filter((e) => e.type === 'VOUCHER_USED')).toHaveLength(1);
  }
});

test('a use racing a cancel: exactly one of them happens', async () => {
  const v = await newVoucher();
  const [used, cancelled] = await Promise.all([useIt(v.id, { secret_number: v.secret_number }), cancelIt(v.id)]);
  expect([used.status, cancelled.status].sort()).toEqual([200, 409]);
  const state = (await get(v.id)).life_cycle_state;
  expect(state).toBe(used.status === 200 ? 'USED' : 'CANCELLED');
  if (used.status === 409) expect(used.body.code).toBe('VOUCHER_CANCELLED');
  else expect(cancelled.body.code).toBe('VOUCHER_USED');
});
