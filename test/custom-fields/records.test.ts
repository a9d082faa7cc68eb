// Custom field definitions on every other write that carries custom_fields[] (docs/custom-fields.md):
// wallets (create, cancel), wallet transaction voids, vouchers (issue, use, cancel), accounts
// (create, update, and their reads) and purchases (create, and the list). A refused write leaves
// nothing behind.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { createId, expectError, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { purchaseBody } from '../loyalty/purchases/setup';
import { contactWithAccount, credit, expectLedgerHolds, newWallet } from '../wallets/setup';

let tenant: Tenant;
let key: string;
let root: Db;
let db: Db;

beforeAll(async () => {
  tenant = await createTenant('Custom fields records');
  key = tenant.secretKey;
  root = openDatabase();
  db = scopedClient(root, tenant.organisationId);
});
afterAll(async () => {
  await expectLedgerHolds(root, tenant.organisationId);
  await root?.$disconnect();
});

const define = (entity: string, fieldKey: string, type: string, allowed?: string[]) =>
  createId(key, '/custom_fields', { entity, key: fieldKey, name: fieldKey, type, ...(allowed ? { allowed_values: allowed } : {}) });
const post = (path: string, body: object) => api('POST', path, { key, body });

test('wallets: create and cancel check WALLETS definitions; a refused one writes nothing', async () => {
  await define('WALLETS', 'reason', 'LIST', ['CLOSED', 'FRAUD']);
  const { accountId } = await contactWithAccount(key, db);
  expectError(await post(`/accounts/${accountId}/wallets`, { custom_fields: [{ key: 'colour', value: 'red' }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  expect(await db.wallet.count({ where: { accountId } })).toBe(0);
  const walletId = await newWallet(key, accountId, { custom_fields: [{ key: 'reason', value: 'CLOSED' }] });

  expectError(await post(`/wallets/${walletId}/cancel`, { custom_fields: [{ key: 'reason', value: 'closed' }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
  expect(await db.wallet.findUniqueOrThrow({ where: { id: walletId } })).toMatchObject({ lifeCycleState: 'EFFECTIVE', customFields: [{ key: 'reason', value: 'CLOSED' }] });
  expect((await post(`/wallets/${walletId}/cancel`, { custom_fields: [{ key: 'reason', value: 'FRAUD' }] })).status).toBe(200);
  expect(await db.wallet.findUniqueOrThrow({ where: { id: walletId } })).toMatchObject({ lifeCycleState: 'CANCELLED', customFields: [{ key: 'reason', value: 'FRAUD' }] });
});

test('voids check WALLET_TRANSACTIONS definitions; a refused void leaves the transaction posted', async () => {
  await define('WALLET_TRANSACTIONS', 'approved', 'BOOLEAN');
  const { contactId, accountId } = await contactWithAccount(key, db);
  const walletId = await newWallet(key, accountId);
  const transaction = await credit(key, walletId, 5);
  const voidIt = (value: string) => post(`/contacts/${contactId}/wallet_transactions/${transaction}`, { custom_fields: [{ key: 'approved', value }] });
  expectError(await voidIt('yes'), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
  expect(await db.walletTransaction.findUniqueOrThrow({ where: { id: transaction } })).toMatchObject({ lifeCycleState: 'POSTED', customFields: null });
  expect(await db.walletTransaction.count({ where: { walletId, classification: 'VOID' } })).toBe(0);
  expect((await voidIt('true')).status).toBe(200);
  expect(await db.walletTransaction.findUniqueOrThrow({ where: { id: transaction } })).toMatchObject({ lifeCycleState: 'VOID', customFields: [{ key: 'approved', value: 'true' }] });
});

test('vouchers: issue, use and cancel check VOUCHERS definitions; a refused move leaves the voucher as it was', async () => {
  await define('VOUCHERS', 'campaign', 'LIST', ['SPRING']);
  await define('VOUCHERS', 'till', 'NUMBER');
  const { contactId } = await contactWithAccount(key, db);
  const typeId = newId();
  await db.voucherType.create({
    data: { id: typeId, organisationId: tenant.organisationId, name: 'Ten', valueType: 'FIXED', value: 10, currencyCode: 'EUR', validityPeriod: 1, validityUot: 'YEAR', classification: 'REFUND', category: 'IDENTIFIES_CUSTOMER' },
  });
  const issue = (value: string) => post('/vouchers', { contact_id: contactId, voucher_type_id: typeId, custom_fields: [{ key: 'campaign', value }] });
  expectError(await issue('WINTER'), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
  expect(await db.voucher.count({ where: { contactId } })).toBe(0);
  const used = (await issue('SPRING')).body;
  const cancelled = (await issue('SPRING')).body;

  expectError(await post(`/vouchers/${used.id}`, { secret_number: used.secret_number, custom_fields: [{ key: 'shop', value: '1' }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  expect((await api('GET', `/vouchers/${used.id}`, { key })).body).toMatchObject({ life_cycle_state: 'ACTIVATED', custom_fields: [{ key: 'campaign', value: 'SPRING' }] });
  expect((await post(`/vouchers/${used.id}`, { secret_number: used.secret_number, custom_fields: [{ key: 'till', value: '12' }] })).status).toBe(200);
  expect((await api('GET', `/vouchers/${used.id}`, { key })).body).toMatchObject({ life_cycle_state: 'USED', custom_fields: [{ key: 'campaign', value: 'SPRING' }, { key: 'till', value: '12' }] });

  expectError(await post(`/vouchers/${cancelled.id}/cancel`, { custom_fields: [{ key: 'till', value: 'T-12' }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
  expect((await api('GET', `/vouchers/${cancelled.id}`, { key })).body.life_cycle_state).toBe('ACTIVATED');
  expect((await post(`/vouchers/${cancelled.id}/cancel`, { custom_fields: [{ key: 'till', value: '7' }] })).status).toBe(200);
  expect((await api('GET', `/vouchers/${cancelled.id}`, { key })).body.life_cycle_state).toBe('CANCELLED');
});

test('accounts: create and update take custom_fields[], checked against ACCOUNTS definitions, merged by key, shown by both reads', async () => {
  await define('ACCOUNTS', 'renewal_date', 'DATE');
  await define('ACCOUNTS', 'branch', 'TEXT');
  const { contactId, accountId: primary } = await contactWithAccount(key, db);
  const accountsPath = `/contacts/${contactId}/accounts`;
  expectError(await post(accountsPath, { name: 'Savings', custom_fields: [{ key: 'renewal_date', value: '2026-13-01' }] }), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
  expect(await db.account.count({ where: { contactId } })).toBe(1);

  const id = await createId(key, accountsPath, { name: 'Savings', custom_fields: [{ key: 'renewal_date', value: '2027-01-31' }, { key: 'branch', value: 'Nicosia' }] });
  const list = (await api('GET', `${accountsPath}?sort=name&order=ASC`, { key })).body.accounts;
  expect(list.map((x: { id: string; custom_fields: unknown }) => [x.id, x.custom_fields])).toEqual([
    [primary, []],
    [id, [{ key: 'renewal_date', value: 1801353600 }, { key: 'branch', value: 'Nicosia' }]],
  ]);

  expectError(await api('PUT', `/accounts/${id}`, { key, body: { name: 'Changed', custom_fields: [{ key: 'colour', value: 'red' }] } }), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  expect(await db.account.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: 'Savings' });
  expect((await api('PUT', `/accounts/${id}`, { key, body: { custom_fields: [{ key: 'branch', value: 'Limassol' }, { key: 'renewal_date', value: null }] } })).status).toBe(200);
  expect((await api('GET', `/accounts/${id}/financials`, { key })).body.custom_fields).toEqual([{ key: 'renewal_date', value: null }, { key: 'branch', value: 'Limassol' }]);
});

test('purchases: POST /purchases takes custom_fields[], checked against PURCHASES definitions; the list shows them', async () => {
  await define('PURCHASES', 'channel', 'LIST', ['WEB', 'SHOP']);
  const { contactId } = await contactWithAccount(key, db);
  expectError(await post('/purchases', purchaseBody(contactId, 10, { custom_fields: [{ key: 'channel', value: 'PHONE' }] })), 400, 'INVALID_REQUEST', 'custom_fields.0.value');
  expectError(await post('/purchases', purchaseBody(contactId, 10, { custom_fields: [{ key: 'till', value: '1' }] })), 400, 'INVALID_REQUEST', 'custom_fields.0.key');
  expect(await db.purchase.count({ where: { contactId } })).toBe(0);

  const withFields = (await post('/purchases', purchaseBody(contactId, 10, { custom_fields: [{ key: 'channel', value: 'WEB' }] }))).body.id;
  const without = (await post('/purchases', purchaseBody(contactId, 5))).body.id;
  const list = (await api('GET', `/purchases?contact_id=${contactId}`, { key })).body.purchases;
  expect(Object.fromEntries(list.map((p: { id: string; custom_fields: unknown }) => [p.id, p.custom_fields]))).toEqual({
    [withFields]: [{ key: 'channel', value: 'WEB' }],
    [without]: [],
  });
});
