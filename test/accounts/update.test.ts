// PUT /accounts/{id} and POST /accounts/{id}/life_cycle_state (ACTIVE ⇄ SUSPENDED): partial
// changes, one primary per contact, refusals that leave everything as it was.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { addAccount, contactWithAddresses, createId, expectError, keyWith, markTerminated, openDatabase, primaries, type TestContact, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
let ann: TestContact;
let main: string;
let spare: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Account updates A'), createTenant('Account updates B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  expect((await api('PUT', '/settings', { key: a.secretKey, body: { credit_limit_max: 500 } })).status).toBe(200);
  ann = await contactWithAddresses(a.secretKey, db);
  main = await addAccount(a.secretKey, ann.id, { name: 'Main' });
  spare = await addAccount(a.secretKey, ann.id, { name: 'Spare' });
});

afterAll(async () => {
  await root?.$disconnect();
});

const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/accounts/${id}`, { key, body });
const move = (id: string, state: string, key = a.secretKey) => api('POST', `/accounts/${id}/life_cycle_state`, { key, body: { life_cycle_state: state } });
const row = (id: string) => db.account.findFirstOrThrow({ where: { id } });

test('a partial update changes only what it names, and is audited', async () => {
  const cls = await createId(a.secretKey, '/account_classifications', { code: `UPD-${Date.now()}`, name: 'Gold' });
  expect((await put(spare, { name: 'Rainy day', classification_id: cls, credit_limit: '499.9999', billing_address_id: ann.addressIds[1] })).body).toEqual({ id: spare });
  expect(await row(spare)).toMatchObject({ name: 'Rainy day', classificationId: cls, billingAddressId: ann.addressIds[1], isPrimary: false, currencyCode: 'EUR' });
  expect((await row(spare)).creditLimit?.toFixed()).toBe('499.9999');
  expect((await put(spare, { classification_id: null, credit_limit: null, billing_address_id: null })).status).toBe(200);
  expect(await row(spare)).toMatchObject({ name: 'Rainy day', classificationId: null, creditLimit: null, billingAddressId: null });
  expect(await db.auditEntry.count({ where: { entityType: 'account', entityId: spare, action: 'UPDATE' } })).toBe(2);
});

test('is_primary: true moves the primary; false on the primary is 409 PRIMARY_REQUIRED; false elsewhere changes nothing', async () => {
  expect((await put(spare, { is_primary: true })).status).toBe(200);
  expect(await primaries(db, ann.id)).toEqual([spare]);
  expectError(await put(spare, { is_primary: false }), 409, 'PRIMARY_REQUIRED', 'is_primary');
  expect((await put(main, { is_primary: 'false' })).status).toBe(200);
  expect((await put(main, { is_primary: true })).status).toBe(200);
  expect(await primaries(db, ann.id)).toEqual([main]);
});

test('refusals name their field and leave the old primary and every value in place', async () => {
  const before = await row(spare);
  expectError(await put(spare, { is_primary: true, credit_limit: 501 }), 400, 'INVALID_REQUEST', 'credit_limit');
  const other = await contactWithAddresses(a.secretKey, db);
  expectError(await put(spare, { is_primary: true, billing_address_id: other.addressIds[0] }), 400, 'INVALID_REQUEST', 'billing_address_id');
  expectError(await put(spare, { is_primary: true, classification_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'classification_id');
  expectError(await put(spare, { name: '' }), 400, 'INVALID_REQUEST', 'name');
  expectError(await put(spare, { currency_code: 'USD' }), 400, 'INVALID_REQUEST', 'currency_code');
  expect(await primaries(db, ann.id)).toEqual([main]);
  expect(await row(spare)).toEqual(before);
});

test('another organisation and unknown ids are 404; scopes are checked', async () => {
  expectError(await put(main, { name: 'x' }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await put(UNKNOWN_ID, { name: 'x' }), 404, 'NOT_FOUND');
  expectError(await move(main, 'SUSPENDED', b.secretKey), 404, 'NOT_FOUND');
  const reader = await keyWith(a.secretKey, ['accounts:read']);
  expectError(await put(main, { name: 'x' }, reader), 403, 'FORBIDDEN');
  expectError(await move(main, 'SUSPENDED', reader), 403, 'FORBIDDEN');
});

test('ACTIVE ⇄ SUSPENDED; the same state again is a no-op; nothing leaves TERMINATED', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const id = await addAccount(a.secretKey, c.id);
  expect((await move(id, 'SUSPENDED')).body).toEqual({ id });
  expect((await row(id)).lifeCycleState).toBe('SUSPENDED');
  expect((await move(id, 'SUSPENDED')).body).toEqual({ id });
  expect((await move(id, 'ACTIVE')).body).toEqual({ id });
  expect((await row(id)).lifeCycleState).toBe('ACTIVE');
  expectError(await move(id, 'CLOSED'), 400, 'INVALID_REQUEST', 'life_cycle_state');
  // A suspended account still takes setting changes: suspension is about money.
  await move(id, 'SUSPENDED');
  expect((await put(id, { name: 'Paused' })).status).toBe(200);

  await markTerminated(root, a.organisationId, id);
  for (const state of ['ACTIVE', 'SUSPENDED']) {
    const res = await move(id, state);
    expectError(res, 409, 'INVALID_STATE_TRANSITION', 'life_cycle_state');
    expect(res.body.message).toEqual(expect.stringContaining('TERMINATED'));
    expect(res.body.message).toEqual(expect.stringContaining(state));
  }
  expectError(await put(id, { name: 'Back' }), 409, 'ACCOUNT_TERMINATED');
  expect((await row(id)).name).toBe('Paused');
});

test("an anonymized contact's account takes no name back (409 naming name), other changes still apply", async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const id = await addAccount(a.secretKey, c.id, { name: 'Ann personal' });
  expect((await api('POST', `/contacts/${c.id}/anonymize`, { key: a.secretKey })).status).toBe(200);
  expectError(await put(id, { name: 'Ann again' }), 409, 'CONTACT_ANONYMIZED', 'name');
  expect((await put(id, { credit_limit: 100, name: null })).status).toBe(200);
  expect(await row(id)).toMatchObject({ name: null, billingAddressId: null });
});
