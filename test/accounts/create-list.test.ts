// POST and GET /contacts/{id}/accounts: defaults from the settings and the contact, one primary
// per contact, the rules' 400/409 naming the field, and the list with its first live wallet.
import { checkLedger } from '../../src/domain/money/ledger/check';
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { addAccount, contactWithAddresses, createId, expectError, keyWith, listAccounts, openDatabase, primaries, type TestContact, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
let ann: TestContact;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Accounts A'), createTenant('Accounts B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const settings = await api('PUT', '/settings', { key: a.secretKey, body: { system_currency_code: 'USD', credit_limit_min: 10, credit_limit_max: 1000 } });
  expect(settings.status).toBe(200);
  ann = await contactWithAddresses(a.secretKey, db);
});

// Every money test ends with the ledger's invariants (docs/money.md "Proof").
afterEach(async () => expect(await checkLedger(root, a.organisationId)).toEqual([]));

afterAll(async () => {
  await root?.$disconnect();
});

const post = (contact: string, body: object, key = a.secretKey) => api('POST', `/contacts/${encodeURIComponent(contact)}/accounts`, { key, body });

test('the first account is primary whatever it says; defaults come from the settings and the contact', async () => {
  const first = await addAccount(a.secretKey, ann.code, { is_primary: false, name: 'First' });
  const second = await addAccount(a.secretKey, ann.id, { name: 'Second', currency_code: 'eur', credit_limit: 12.3456, billing_address_id: ann.addressIds[1] });
  const res = await listAccounts(a.secretKey, ann.code, 'sort=created_on&order=ASC');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    accounts: [
      {
        id: first, is_primary: true, name: 'First', number: expect.stringMatching(/^\d{10}$/), life_cycle_state: 'ACTIVE', currency_code: 'USD',
        classification: null, balance: 0, credit_limit: null, overdue_amount: 0, billing_address_id: ann.addressIds[0], wallet: null, custom_fields: [],
      },
      expect.objectContaining({ id: second, is_primary: false, currency_code: 'EUR', credit_limit: 12.3456, billing_address_id: ann.addressIds[1] }),
    ],
    paging: { page: 1, size: 20, total: 2 },
  });
  const audits = await db.auditEntry.findMany({ where: { entityType: 'account', entityId: { in: [first, second] }, action: 'CREATE' } });
  expect(audits).toHaveLength(2);
});

test('is_primary: true makes the new account primary and the previous one not, with an audit row each', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const old = await addAccount(a.secretKey, c.id, { billing_address_id: null });
  const next = await addAccount(a.secretKey, c.id, { is_primary: 'true' });
  expect(await primaries(db, c.id)).toEqual([next]);
  expect(await db.auditEntry.count({ where: { entityType: 'account', entityId: old, action: 'UPDATE' } })).toBe(1);
  const only = await listAccounts(a.secretKey, c.id, 'primary_only=true');
  expect(only.body.accounts.map((x: { id: string }) => x.id)).toEqual([next]);
  expect(only.body.paging.total).toBe(1);
  expect((await listAccounts(a.secretKey, c.id)).body.accounts.find((x: { id: string }) => x.id === old).billing_address_id).toBeNull();
});

test('classification, sorting and paging', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const cls = await createId(a.secretKey, '/account_classifications', { code: `CLS-${Date.now()}`, name: 'Retail' });
  const one = await addAccount(a.secretKey, c.id, { name: 'b', classification_id: cls });
  const two = await addAccount(a.secretKey, c.id, { name: 'a' });
  const byName = await listAccounts(a.secretKey, c.id, 'sort=name&order=ASC');
  expect(byName.body.accounts.map((x: { id: string }) => x.id)).toEqual([two, one]);
  expect(byName.body.accounts[1].classification).toEqual({ id: cls, name: 'Retail' });
  const page = await listAccounts(a.secretKey, c.id, 'sort=number&size=1&page=2');
  expect(page.body.accounts).toHaveLength(1);
  expect(page.body.paging).toEqual({ page: 2, size: 1, total: 2 });
  expectError(await listAccounts(a.secretKey, c.id, 'sort=balance'), 400, 'INVALID_REQUEST', 'sort');
  expectError(await listAccounts(a.secretKey, c.id, 'primary=true'), 400, 'INVALID_REQUEST', 'primary');
});

test('each rule answers 4xx naming its field, and a refusal writes nothing', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const primary = await addAccount(a.secretKey, c.id);
  expectError(await post(c.id, { credit_limit: 5 }), 400, 'INVALID_REQUEST', 'credit_limit');
  expectError(await post(c.id, { credit_limit: 1000.0001 }), 400, 'INVALID_REQUEST', 'credit_limit');
  expectError(await post(c.id, { credit_limit: -1 }), 400, 'INVALID_REQUEST', 'credit_limit');
  expectError(await post(c.id, { classification_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'classification_id');
  expectError(await post(c.id, { billing_address_id: ann.addressIds[0] }), 400, 'INVALID_REQUEST', 'billing_address_id');
  expectError(await post(c.id, { billing_address_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'billing_address_id');
  expectError(await post(c.id, { currency_code: 'EURO' }), 400, 'INVALID_REQUEST', 'currency_code');
  expectError(await post(c.id, { balance: 5 }), 400, 'INVALID_REQUEST', 'balance');
  // is_primary with a refused field: no new account, the old primary stays.
  expectError(await post(c.id, { is_primary: true, credit_limit: 2000 }), 400, 'INVALID_REQUEST', 'credit_limit');
  expectError(await post(c.id, { is_primary: true, billing_address_id: ann.addressIds[1] }), 400, 'INVALID_REQUEST', 'billing_address_id');
  expect(await primaries(db, c.id)).toEqual([primary]);
  expect(await db.account.count({ where: { contactId: c.id } })).toBe(1);
});

test('an anonymized contact takes no account (409); unknown and foreign contacts are 404', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  expect((await api('POST', `/contacts/${c.id}/anonymize`, { key: a.secretKey })).status).toBe(200);
  expectError(await post(c.id, {}), 409, 'CONTACT_ANONYMIZED');
  expectError(await post('NO-SUCH-CODE', {}), 404, 'NOT_FOUND');
  expectError(await post(ann.id, {}, b.secretKey), 404, 'NOT_FOUND');
  expectError(await post(ann.code, {}, b.secretKey), 404, 'NOT_FOUND');
  expectError(await listAccounts(b.secretKey, ann.id), 404, 'NOT_FOUND');
});

test('scopes: accounts:read lists, only accounts:write adds; contacts scope alone is 403', async () => {
  const [reader, contactsOnly] = await Promise.all([keyWith(a.secretKey, ['accounts:read']), keyWith(a.secretKey, ['contacts'])]);
  expect((await listAccounts(reader, ann.id)).status).toBe(200);
  expectError(await post(ann.id, {}, reader), 403, 'FORBIDDEN');
  expectError(await listAccounts(contactsOnly, ann.id), 403, 'FORBIDDEN');
  expectError(await api('GET', `/contacts/${ann.id}/accounts`), 401, 'INVALID_CREDENTIAL');
});

test('the list shows the first wallet by creation that is not cancelled, with its ledger balance', async () => {
  const c = await contactWithAddresses(a.secretKey, db);
  const account = await addAccount(a.secretKey, c.id);
  const cancelled = await createId(a.secretKey, `/accounts/${account}/wallets`, {});
  const live = await createId(a.secretKey, `/accounts/${account}/wallets`, { currency_code: 'USD' });
  await createId(a.secretKey, `/accounts/${account}/wallets`, {});
  expect((await api('POST', `/wallets/${cancelled}/cancel`, { key: a.secretKey, body: {} })).status).toBe(200);
  await createId(a.secretKey, '/journals', { wallet_id: live, amount: '25.1234', type: 'CREDIT' });
  const [item] = (await listAccounts(a.secretKey, c.id)).body.accounts;
  const code = (await db.wallet.findFirstOrThrow({ where: { id: live } })).code;
  expect(item.wallet).toEqual({ id: live, code, balance: 25.1234, currency_code: 'USD', life_cycle_state: 'EFFECTIVE' });
});

test('accounts made with the contact follow the same settings: currency default and credit-limit range', async () => {
  const body = { contact_type: 'PERSON', first_name: 'Bo', last_name: 'Th', accounts: [{ name: 'A' }, { name: 'B', credit_limit: 2000 }] };
  expectError(await api('POST', '/contacts', { key: a.secretKey, body }), 400, 'INVALID_REQUEST', 'accounts.1.credit_limit');
  const id = await createId(a.secretKey, '/contacts', { ...body, accounts: [{ name: 'A' }, { name: 'B', credit_limit: 20 }] });
  const accounts = (await listAccounts(a.secretKey, id, 'sort=name&order=ASC')).body.accounts;
  expect(accounts.map((x: { currency_code: string; is_primary: boolean }) => [x.currency_code, x.is_primary])).toEqual([['USD', true], ['USD', false]]);
});
