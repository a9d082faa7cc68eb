// Vouchers over HTTPS (docs/vouchers.md): issuing (the secret once, only a keyed hash kept),
// reading and listing with every filter, tenancy and scopes. Voucher types are written straight
// into the database: their own operations are another group's.
import { createHash } from 'node:crypto';
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../../money/helpers';

let tenant: Tenant;
let other: Tenant;
let root: Db;
let key: string;
let counter = 0;

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
  key = tenant.secretKey;
  root = openDatabase();
});
afterAll(async () => root?.$disconnect());

type TypeData = Partial<{ valueType: string; value: number | null; extraAddedValue: number | null; minimumValue: number | null; maximumValue: number | null;
  currencyCode: string; validityPeriod: number; validityUot: string; classification: string; category: string; name: string }>;

async function voucherType(t: Tenant, data: TypeData = {}): Promise<string> {
  const id = newId();
  await scopedClient(root, t.organisationId).voucherType.create({
    data: {
      id, organisationId: t.organisationId, name: `Type ${++counter}`, valueType: 'FIXED', value: 10, currencyCode: 'EUR',
      validityPeriod: 1, validityUot: 'YEAR', classification: 'REFUND', category: 'IDENTIFIES_CUSTOMER', ...data,
    },
  });
  return id;
}

async function contact(t: Tenant): Promise<{ id: string; code: string }> {
  const code = `V-${process.pid}-${++counter}-${Date.now().toString(36)}`;
  const id = await createId(t.secretKey, '/contacts', { contact_type: 'PERSON', code, first_name: 'Vou', last_name: 'Cher' });
  return { id, code };
}

async function issue(t: Tenant, contactId: string, voucherTypeId: string, extra: object = {}) {
  const res = await api('POST', '/vouchers', { key: t.secretKey, body: { contact_id: contactId, voucher_type_id: voucherTypeId, ...extra } });
  if (res.status !== 200) throw new Error(`issue: ${res.status} ${res.text}`);
  return res.body as { id: string; number: string; secret_number: string };
}

/** Calendar months in UTC, the day clamped to the target month's end (docs/vouchers.md "Expiry"). */
function plusMonths(d: Date, months: number): number {
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months + 1, 0));
  return Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d.getUTCDate(), target.getUTCDate()), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

test('issuing answers id, number and the secret number once; the row keeps only a keyed hash of it', async () => {
  const c = await contact(tenant);
  const typeId = await voucherType(tenant, { value: 25.5, extraAddedValue: 2.5, validityPeriod: 2, validityUot: 'YEAR', classification: 'GIFT', category: 'BEARER', currencyCode: 'USD' });
  const issued = await issue(tenant, c.code, typeId, { custom_fields: [{ key: 'campaign', value: 'spring' }] });
  expect(issued).toEqual({ id: expect.any(String), number: expect.stringMatching(/^[1-9]\d{15}$/), secret_number: expect.stringMatching(/^\d{16}$/) });
  const secret = issued.secret_number;

  const row = await scopedClient(root, tenant.organisationId).voucher.findUniqueOrThrow({ where: { id: issued.id } });
  expect(row).toMatchObject({ contactId: c.id, voucherTypeId: typeId, number: issued.number, lifeCycleState: 'ACTIVATED', classification: 'GIFT', category: 'BEARER', currencyCode: 'USD', validityPeriod: 2, validityUot: 'YEAR', purchaseId: null, usedAt: null, usedValue: null, usedBy: null });
  expect([row.value?.toFixed(), row.extraAddedValue?.toFixed(), row.minimumValue, row.maximumValue]).toEqual(['25.5', '2.5', null, null]);
  // Only a keyed hash: neither the secret nor its plain SHA-256 appears anywhere in the row.
  const stored = JSON.stringify(row);
  expect(row.secretHash).toMatch(/^hmac-sha256:[0-9a-f]{8}:[A-Za-z0-9_-]{43}$/);
  for (const leak of [secret, createHash('sha256').update(secret).digest('hex'), createHash('sha256').update(secret).digest('base64url')]) {
    expect(stored).not.toContain(leak);
  }
  // Two years later in calendar terms, from the same instant as created_at.
  expect(row.expirationDate.getTime()).toBe(plusMonths(row.createdAt, 24));

  const got = await api('GET', `/vouchers/${issued.id}`, { key });
  expect(got.status).toBe(200);
  expect(got.text).not.toContain(secret);
  expect(got.body).toEqual({
    id: issued.id, contact_id: c.id, number: issued.number, classification: 'GIFT', life_cycle_state: 'ACTIVATED', category: 'BEARER',
    value: 25.5, extra_added_value: 2.5, minimum_value: null, maximum_value: null, currency_code: 'USD', validity_period: 2, validity_UOT: 'YEAR',
    expiration_date: Math.floor(row.expirationDate.getTime() / 1000), voucher_type: { id: typeId, name: expect.stringMatching(/^Type /) },
    purchase_id: null, used_on: null, used_value: null, used_by: null, custom_fields: [{ key: 'campaign', value: 'spring' }],
    created_on: Math.floor(row.createdAt.getTime() / 1000),
  });
  const listed = await api('GET', `/vouchers?number=${issued.number}`, { key });
  expect(listed.text).not.toContain(secret);
});

test('an Idempotency-Key replay answers the same voucher without its secret number, and issues nothing more', async () => {
  const c = await contact(tenant);
  const typeId = await voucherType(tenant);
  const headers = { 'Idempotency-Key': `issue-${newId()}` };
  const body = { contact_id: c.id, voucher_type_id: typeId };
  const first = await api('POST', '/vouchers', { key, body, headers });
  const again = await api('POST', '/vouchers', { key, body, headers });
  expect(first.status).toBe(200);
  expect(first.body.secret_number).toMatch(/^\d{16}$/);
  expect(again.status).toBe(200);
  expect(again.body).toEqual({ id: first.body.id, number: first.body.number, secret_number: null });
  expect(await scopedClient(root, tenant.organisationId).voucher.count({ where: { contactId: c.id } })).toBe(1);
});

test('a variable type gives a voucher without value and with its bounds; MONTH validity is calendar months in UTC', async () => {
  const c = await contact(tenant);
  const typeId = await voucherType(tenant, { valueType: 'VARIABLE', value: null, minimumValue: 5, maximumValue: 50, validityPeriod: 1, validityUot: 'MONTH' });
  const issued = await issue(tenant, c.id, typeId);
  const got = (await api('GET', `/vouchers/${issued.id}`, { key })).body;
  expect(got).toMatchObject({ value: null, minimum_value: 5, maximum_value: 50, validity_period: 1, validity_UOT: 'MONTH', extra_added_value: null });
  const row = await scopedClient(root, tenant.organisationId).voucher.findUniqueOrThrow({ where: { id: issued.id } });
  expect(row.expirationDate.getTime()).toBe(plusMonths(row.createdAt, 1));
  // DAY and WEEK are fixed lengths.
  const weekly = await issue(tenant, c.id, await voucherType(tenant, { validityPeriod: 3, validityUot: 'WEEK' }));
  const w = await scopedClient(root, tenant.organisationId).voucher.findUniqueOrThrow({ where: { id: weekly.id } });
  expect(w.expirationDate.getTime() - w.createdAt.getTime()).toBe(21 * 86_400_000);
});

test('refusals: unknown contact or type (400 naming it), another organisation\'s type, an anonymized contact (409); nothing is written', async () => {
  const c = await contact(tenant);
  const typeId = await voucherType(tenant);
  const before = await scopedClient(root, tenant.organisationId).voucher.count();
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: 'no-such-code', voucher_type_id: typeId } }), 400, 'INVALID_REQUEST', 'contact_id');
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: UNKNOWN_ID, voucher_type_id: typeId } }), 400, 'INVALID_REQUEST', 'contact_id');
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: c.id, voucher_type_id: UNKNOWN_ID } }), 400, 'INVALID_REQUEST', 'voucher_type_id');
  const foreignType = await voucherType(other);
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: c.id, voucher_type_id: foreignType } }), 400, 'INVALID_REQUEST', 'voucher_type_id');
  const foreignContact = await contact(other);
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: foreignContact.id, voucher_type_id: typeId } }), 400, 'INVALID_REQUEST', 'contact_id');
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: c.id, voucher_type_id: 'not-a-guid' } }), 400, 'INVALID_REQUEST', 'voucher_type_id');
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: c.id, voucher_type_id: typeId, secret_number: '1' } }), 400, 'INVALID_REQUEST', 'secret_number');

  const gone = await contact(tenant);
  expect((await api('POST', `/contacts/${gone.id}/anonymize`, { key })).status).toBe(200);
  expectError(await api('POST', '/vouchers', { key, body: { contact_id: gone.id, voucher_type_id: typeId } }), 409, 'CONTACT_ANONYMIZED', 'contact_id');
  expect(await scopedClient(root, tenant.organisationId).voucher.count()).toBe(before);
  expect(await scopedClient(root, tenant.organisationId).auditEntry.count({ where: { entityType: 'voucher', action: 'ISSUE', changes: { path: ['contact_id'], equals: gone.id } } })).toBe(0);
});

test('issuing writes an audit row and a VOUCHER_ISSUED outbox event, neither carrying the secret', async () => {
  const c = await contact(tenant);
  const typeId = await voucherType(tenant, { value: 7 });
  const issued = await issue(tenant, c.id, typeId, { custom_fields: [{ key: 'k', value: 'v' }] });
  const db = scopedClient(root, tenant.organisationId);
  const audits = await db.auditEntry.findMany({ where: { entityType: 'voucher', entityId: issued.id } });
  expect(audits).toEqual([expect.objectContaining({ action: 'ISSUE', actorType: 'api_key', requestId: expect.any(String) })]);
  expect(audits[0].changes).toMatchObject({ voucher_id: issued.id, number: issued.number, contact_id: c.id, voucher_type_id: typeId, value: '7', custom_fields: [{ key: 'k', value: 'v' }] });
  const events = await db.outboxEvent.findMany({ where: { entityId: issued.id } });
  expect(events).toEqual([expect.objectContaining({ type: 'VOUCHER_ISSUED', entityType: 'voucher' })]);
  expect(events[0].payload).toMatchObject({ voucher_id: issued.id, number: issued.number, contact_id: c.id, value: '7', currency_code: 'EUR', expiration_date: expect.any(Number) });
  expect(JSON.stringify([audits, events])).not.toContain(issued.secret_number);
});

describe('listing', () => {
  // An organisation of its own, so totals are exact.
  let t: Tenant;
  let k: string;
  const v: Record<string, { id: string; number: string; secret_number: string }> = {};
  let alice: { id: string; code: string };
  let bob: { id: string; code: string };
  let refund: string;
  let gift: string;
  let variable: string;

  beforeAll(async () => {
    t = await createTenant();
    k = t.secretKey;
    [alice, bob] = [await contact(t), await contact(t)];
    refund = await voucherType(t, { value: 10, classification: 'REFUND', category: 'IDENTIFIES_CUSTOMER' });
    gift = await voucherType(t, { value: 30, classification: 'GIFT', category: 'BEARER' });
    variable = await voucherType(t, { valueType: 'VARIABLE', value: null, minimumValue: 1, maximumValue: 100, classification: 'PROMOTION', category: 'BEARER' });
    // Issued one after the other: creation order a, b, c, d, e, f.
    v.a = await issue(t, alice.id, refund);
    v.b = await issue(t, alice.id, gift);
    v.c = await issue(t, bob.id, variable);
    v.d = await issue(t, bob.id, refund);
    v.e = await issue(t, bob.id, gift);
    v.f = await issue(t, alice.id, refund);
    // b used, d cancelled, e expired.
    expect((await api('POST', `/vouchers/${v.b.id}`, { key: k, body: { secret_number: v.b.secret_number } })).status).toBe(200);
    expect((await api('POST', `/vouchers/${v.d.id}/cancel`, { key: k, body: {} })).status).toBe(200);
    await root.$executeRawUnsafe('UPDATE vouchers SET expiration_date = now() - interval \'1 second\' WHERE id = $1::uuid', v.e.id);
  });

  const ids = async (query: string) => {
    const res = await api('GET', `/vouchers${query}`, { key: k });
    expect(res.status).toBe(200);
    return { ids: res.body.content.map((x: { id: string }) => Object.keys(v).find((n) => v[n].id === x.id)), paging: res.body.paging, content: res.body.content };
  };

  test('newest first by default, in {content, paging}; each filter narrows it', async () => {
    expect(await ids('')).toMatchObject({ ids: ['f', 'e', 'd', 'c', 'b', 'a'], paging: { page: 1, size: 20, total: 6 } });
    expect((await ids('?classification=REFUND')).ids).toEqual(['f', 'd', 'a']);
    expect((await ids('?classification=gift')).ids).toEqual(['e', 'b']);
    expect((await ids('?category=BEARER')).ids).toEqual(['e', 'c', 'b']);
    expect((await ids('?category=IDENTIFIES_CUSTOMER')).ids).toEqual(['f', 'd', 'a']);
    expect((await ids(`?voucher_type_id=${variable}`)).ids).toEqual(['c']);
    expect((await ids(`?voucher_type_id=${refund.replace(/-/g, '').toUpperCase()}`)).ids).toEqual(['f', 'd', 'a']);
    expect((await ids(`?number=${v.c.number}`)).ids).toEqual(['c']);
    expect((await ids('?number=0000000000000000')).ids).toEqual([]);
    expect((await ids(`?contact_id=${alice.id}`)).ids).toEqual(['f', 'b', 'a']);
    expect((await ids(`?contact_id=${encodeURIComponent(bob.code)}`)).ids).toEqual(['e', 'd', 'c']);
    expect(await ids('?contact_id=nobody')).toMatchObject({ ids: [], paging: { total: 0 } });
    expect((await ids(`?contact_id=${bob.id}&classification=REFUND`)).ids).toEqual(['d']);
  });

  test('life_cycle_state: EXPIRED is derived from expiration_date, and ACTIVATED means usable now', async () => {
    expect((await ids('?life_cycle_state=ACTIVATED')).ids).toEqual(['f', 'c', 'a']);
    expect((await ids('?life_cycle_state=expired')).ids).toEqual(['e']);
    expect((await ids('?life_cycle_state=USED')).ids).toEqual(['b']);
    expect((await ids('?life_cycle_state=CANCELLED')).ids).toEqual(['d']);
    const all = (await ids('')).content;
    expect(Object.fromEntries(all.map((x: { number: string; life_cycle_state: string }) => [x.number, x.life_cycle_state]))).toEqual({
      [v.a.number]: 'ACTIVATED', [v.b.number]: 'USED', [v.c.number]: 'ACTIVATED', [v.d.number]: 'CANCELLED', [v.e.number]: 'EXPIRED', [v.f.number]: 'ACTIVATED',
    });
    // The row itself stays ACTIVATED.
    expect((await scopedClient(root, t.organisationId).voucher.findUniqueOrThrow({ where: { id: v.e.id } })).lifeCycleState).toBe('ACTIVATED');
    expect((await api('GET', `/vouchers/${v.e.id}`, { key: k })).body.life_cycle_state).toBe('EXPIRED');
  });

  test('paging, sort and order', async () => {
    expect(await ids('?size=4')).toMatchObject({ ids: ['f', 'e', 'd', 'c'], paging: { page: 1, size: 4, total: 6 } });
    expect(await ids('?size=4&page=2')).toMatchObject({ ids: ['b', 'a'], paging: { page: 2, size: 4, total: 6 } });
    expect(await ids('?size=4&page=3')).toMatchObject({ ids: [], paging: { page: 3, size: 4, total: 6 } });
    expect((await ids('?order=asc')).ids).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    const byNumber = Object.keys(v).sort((x, y) => v[x].number.localeCompare(v[y].number));
    expect((await ids('?sort=number&order=ASC')).ids).toEqual(byNumber);
    // The variable voucher has no value: last either way.
    const byValue = (await ids('?sort=value&order=ASC')).content.map((x: { value: number | null }) => x.value);
    expect(byValue).toEqual([10, 10, 10, 30, 30, null]);
    expect((await ids('?sort=value&order=DESC')).content.map((x: { value: number | null }) => x.value)).toEqual([30, 30, 10, 10, 10, null]);
    expect((await ids('?sort=used_on')).ids[0]).toBe('b');
    expect((await ids('?sort=expiration_date&order=ASC')).ids[0]).toBe('e');
  });

  test('bad list parameters: 400 naming them', async () => {
    for (const [query, attribute] of [
      ['?sort=secret_hash', 'sort'], ['?life_cycle_state=NEW', 'life_cycle_state'], ['?classification=NOPE', 'classification'],
      ['?category=x', 'category'], ['?voucher_type_id=abc', 'voucher_type_id'], ['?size=101', 'size'], ['?page=0', 'page'], ['?secret_number=1', 'secret_number'],
    ]) {
      expectError(await api('GET', `/vouchers${query}`, { key: k }), 400, 'INVALID_REQUEST', attribute);
    }
  });
});

test("another organisation's voucher is not found for every operation, and not listed", async () => {
  const c = await contact(tenant);
  const issued = await issue(tenant, c.id, await voucherType(tenant));
  const okey = other.secretKey;
  expectError(await api('GET', `/vouchers/${issued.id}`, { key: okey }), 404, 'NOT_FOUND');
  expectError(await api('POST', `/vouchers/${issued.id}`, { key: okey, body: { secret_number: issued.secret_number } }), 404, 'NOT_FOUND');
  expectError(await api('POST', `/vouchers/${issued.id}/cancel`, { key: okey, body: {} }), 404, 'NOT_FOUND');
  expect((await api('GET', `/vouchers?number=${issued.number}`, { key: okey })).body).toEqual({ content: [], paging: { page: 1, size: 20, total: 0 } });
  expect((await api('GET', `/vouchers?contact_id=${c.id}`, { key: okey })).body.content).toEqual([]);
  expectError(await api('GET', `/vouchers/${UNKNOWN_ID}`, { key }), 404, 'NOT_FOUND');
  expectError(await api('POST', `/vouchers/${UNKNOWN_ID}`, { key, body: { secret_number: '1' } }), 404, 'NOT_FOUND');
  expectError(await api('POST', `/vouchers/${UNKNOWN_ID}/cancel`, { key, body: {} }), 404, 'NOT_FOUND');
  // Untouched by the other organisation's attempts.
  expect((await api('GET', `/vouchers/${issued.id}`, { key })).body.life_cycle_state).toBe('ACTIVATED');
});

test('401 without a credential; 403 without the vouchers scope, or with read only for a write', async () => {
  const c = await contact(tenant);
  const typeId = await voucherType(tenant);
  const issued = await issue(tenant, c.id, typeId);
  expectError(await api('GET', '/vouchers'), 401, 'INVALID_CREDENTIAL');
  expectError(await api('POST', '/vouchers', { body: { contact_id: c.id, voucher_type_id: typeId } }), 401, 'INVALID_CREDENTIAL');
  expectError(await api('GET', '/vouchers', { key: 'sk_not_a_real_key' }), 401, 'INVALID_CREDENTIAL');

  const wallets = await keyWith(key, ['wallets']);
  expectError(await api('GET', '/vouchers', { key: wallets }), 403, 'FORBIDDEN');
  expectError(await api('GET', `/vouchers/${issued.id}`, { key: wallets }), 403, 'FORBIDDEN');
  expectError(await api('POST', '/vouchers', { key: wallets, body: { contact_id: c.id, voucher_type_id: typeId } }), 403, 'FORBIDDEN');
  expectError(await api('POST', `/vouchers/${issued.id}`, { key: wallets, body: { secret_number: issued.secret_number } }), 403, 'FORBIDDEN');
  expectError(await api('POST', `/vouchers/${issued.id}/cancel`, { key: wallets, body: {} }), 403, 'FORBIDDEN');

  const reader = await keyWith(key, ['vouchers:read']);
  expect((await api('GET', `/vouchers/${issued.id}`, { key: reader })).status).toBe(200);
  expectError(await api('POST', `/vouchers/${issued.id}`, { key: reader, body: { secret_number: issued.secret_number } }), 403, 'FORBIDDEN');
  expectError(await api('POST', '/vouchers', { key: reader, body: { contact_id: c.id, voucher_type_id: typeId } }), 403, 'FORBIDDEN');

  const writer = await keyWith(key, ['vouchers']);
  expect((await api('POST', '/vouchers', { key: writer, body: { contact_id: c.id, voucher_type_id: typeId } })).status).toBe(200);
  // A public key is for communications only.
  expectError(await api('GET', '/vouchers', { key: tenant.publicKey }), 403, 'FORBIDDEN');
  expect((await api('GET', `/vouchers/${issued.id}`, { key })).body.life_cycle_state).toBe('ACTIVATED');
});
