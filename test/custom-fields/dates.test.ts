// DATE custom fields are answered as integers (issue 34, docs/custom-fields.md "DATE values"): the
// epoch seconds of the day at 00:00 UTC, whether the writer sent YYYY-MM-DD, an epoch integer or
// its digits, on every record that carries custom_fields[]; a TEXT that looks like a date stays
// text; and the migration converts values stored in the old form (YYYY-MM-DD) in every table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { createId, databaseUrl, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { purchaseBody } from '../loyalty/purchases/setup';
import { contactWithAccount, credit, expectLedgerHolds, newWallet } from '../wallets/setup';

let tenant: Tenant;
let key: string;
let root: Db;
let db: Db;

// 2027-01-31 at 00:00 UTC; NOON is 12:00 that day, which means the same day.
const DAY = '2027-01-31';
const MIDNIGHT = 1801353600;
const NOON = MIDNIGHT + 12 * 3600;

beforeAll(async () => {
  tenant = await createTenant('Custom field dates');
  key = tenant.secretKey;
  root = openDatabase();
  db = scopedClient(root, tenant.organisationId);
  for (const entity of ['CONTACTS', 'ACCOUNTS', 'WALLETS', 'WALLET_TRANSACTIONS', 'VOUCHERS', 'PURCHASES']) {
    await createId(key, '/custom_fields', { entity, key: 'due', name: 'Due', type: 'DATE' });
    await createId(key, '/custom_fields', { entity, key: 'note', name: 'Note', type: 'TEXT' });
  }
});
afterAll(async () => {
  await expectLedgerHolds(root, tenant.organisationId);
  await root?.$disconnect();
});

const post = (p: string, body: object) => api('POST', p, { key, body });
const ok = async (p: string, body: object) => {
  const res = await post(p, body);
  expect([p, res.status, res.text]).toEqual([p, 200, expect.any(String)]);
  return res.body;
};
/** The three ways of writing the same day, each with a TEXT that looks like a date or an epoch. */
const WRITES = [
  [{ key: 'due', value: DAY }, { key: 'note', value: DAY }],
  [{ key: 'due', value: NOON }, { key: 'note', value: String(MIDNIGHT) }],
  [{ key: 'due', value: String(MIDNIGHT) }, { key: 'note', value: 'x' }],
];
const ANSWERS = [
  [{ key: 'due', value: MIDNIGHT }, { key: 'note', value: DAY }],
  [{ key: 'due', value: MIDNIGHT }, { key: 'note', value: String(MIDNIGHT) }],
  [{ key: 'due', value: MIDNIGHT }, { key: 'note', value: 'x' }],
];
const byKey = (fields: Array<{ key: string }>) => [...fields].sort((x, y) => (x.key < y.key ? -1 : 1));

test('contacts: create, update and bulk update answer the same integer for each form', async () => {
  for (const [i, fields] of WRITES.entries()) {
    const { id } = await ok('/contacts', { contact_type: 'PERSON', first_name: 'Dee', last_name: `Date ${i}`, custom_fields: fields });
    expect(byKey((await api('GET', `/contacts/${id}`, { key })).body.custom_fields)).toEqual(ANSWERS[i]);
  }
  const { id } = await ok('/contacts', { contact_type: 'PERSON', first_name: 'Dee', last_name: 'Updated' });
  expect((await api('PUT', `/contacts/${id}`, { key, body: { custom_fields: [{ key: 'due', value: '2024-02-29' }] } })).status).toBe(200);
  expect((await api('GET', `/contacts/${id}`, { key })).body.custom_fields).toEqual([{ key: 'due', value: 1709164800 }]);
  expect((await api('PUT', '/contacts', { key, body: { contacts: [{ contact: { id }, custom_fields: [{ key: 'due', value: NOON }] }] } })).status).toBe(200);
  expect((await api('GET', `/contacts/${id}`, { key })).body.custom_fields).toEqual([{ key: 'due', value: MIDNIGHT }]);
});

test('accounts: create and update; the list and the financials answer the integer', async () => {
  const { contactId } = await contactWithAccount(key, db);
  for (const [i, fields] of WRITES.entries()) {
    const { id } = await ok(`/contacts/${contactId}/accounts`, { name: `Dated ${i}`, custom_fields: fields });
    expect((await api('GET', `/accounts/${id}/financials`, { key })).body.custom_fields).toEqual(ANSWERS[i]);
    const list = (await api('GET', `/contacts/${contactId}/accounts`, { key })).body.accounts as Array<{ id: string; custom_fields: unknown }>;
    expect(list.find((a) => a.id === id)?.custom_fields).toEqual(ANSWERS[i]);
  }
  const { id } = await ok(`/contacts/${contactId}/accounts`, { name: 'Moved' });
  expect((await api('PUT', `/accounts/${id}`, { key, body: { custom_fields: [{ key: 'due', value: NOON }] } })).status).toBe(200);
  expect((await api('GET', `/accounts/${id}/financials`, { key })).body.custom_fields).toEqual([{ key: 'due', value: MIDNIGHT }]);
});

test('wallets and voids (not answered by the API) keep the integer as a JSON number', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const wallets: string[] = [];
  for (const fields of WRITES) wallets.push(await newWallet(key, accountId, { custom_fields: fields }));
  expect((await db.wallet.findMany({ where: { id: { in: wallets } } })).map((w) => [wallets.indexOf(w.id), w.customFields]).sort())
    .toEqual(ANSWERS.map((a, i) => [i, a]));
  await ok(`/wallets/${wallets[0]}/cancel`, { custom_fields: [{ key: 'due', value: NOON }] });
  expect((await db.wallet.findUniqueOrThrow({ where: { id: wallets[0] } })).customFields).toEqual([{ key: 'due', value: MIDNIGHT }]);

  const transaction = await credit(key, wallets[1], 5);
  await ok(`/contacts/${contactId}/wallet_transactions/${transaction}`, { custom_fields: [{ key: 'due', value: DAY }, { key: 'note', value: DAY }] });
  expect((await db.walletTransaction.findUniqueOrThrow({ where: { id: transaction } })).customFields).toEqual(ANSWERS[0]);
});

test('vouchers: issue, use and cancel; the voucher read answers the integer', async () => {
  const { contactId } = await contactWithAccount(key, db);
  const typeId = await voucherType();
  const issued: Array<{ id: string; secret_number: string }> = [];
  for (const [i, fields] of WRITES.entries()) {
    const v = await ok('/vouchers', { contact_id: contactId, voucher_type_id: typeId, custom_fields: fields });
    issued.push(v);
    expect((await api('GET', `/vouchers/${v.id}`, { key })).body.custom_fields).toEqual(ANSWERS[i]);
  }
  await ok(`/vouchers/${issued[2].id}`, { secret_number: issued[2].secret_number, custom_fields: [{ key: 'due', value: '2024-02-29' }] });
  expect((await api('GET', `/vouchers/${issued[2].id}`, { key })).body.custom_fields).toEqual([{ key: 'due', value: 1709164800 }, { key: 'note', value: 'x' }]);
  await ok(`/vouchers/${issued[1].id}/cancel`, { custom_fields: [{ key: 'due', value: 0 }] });
  expect((await api('GET', `/vouchers/${issued[1].id}`, { key })).body.custom_fields).toEqual([{ key: 'due', value: 0 }, { key: 'note', value: String(MIDNIGHT) }]);
});

test('purchases: POST /purchases; the list answers the integer', async () => {
  const { contactId } = await contactWithAccount(key, db);
  const ids: string[] = [];
  for (const fields of WRITES) ids.push((await ok('/purchases', purchaseBody(contactId, 10, { custom_fields: fields }))).id);
  const list = (await api('GET', `/purchases?contact_id=${contactId}`, { key })).body.purchases as Array<{ id: string; custom_fields: unknown }>;
  expect(ids.map((id) => list.find((p) => p.id === id)?.custom_fields)).toEqual(ANSWERS);
});

test('the migration converts values stored as YYYY-MM-DD under DATE keys in every table, and nothing else', async () => {
  const { contactId, accountId } = await contactWithAccount(key, db);
  const contact = (await ok('/contacts', { contact_type: 'PERSON', first_name: 'Old', last_name: 'Form' })).id as string;
  const walletId = await newWallet(key, accountId);
  const transaction = await credit(key, walletId, 3);
  const voucher = (await ok('/vouchers', { contact_id: contactId, voucher_type_id: await voucherType() })).id as string;
  const purchase = (await ok('/purchases', purchaseBody(contactId, 4))).id as string;
  // The old form, as the service wrote it before issue 34: the day as text. Beside it a TEXT that
  // looks like a day, a DATE value that is not a calendar day (written before the definition), a
  // null, and an undefined key: all stay as they are.
  const old = [
    { key: 'due', value: DAY }, { key: 'note', value: DAY }, { key: 'due', value: '2023-02-29' }, { key: 'due', value: null }, { key: 'other', value: DAY },
  ];
  const converted = [{ key: 'due', value: MIDNIGHT }, ...old.slice(1)];
  // A pg Pool, not Prisma: the migration is several statements (the simple query protocol).
  const pool = new Pool({ connectionString: databaseUrl(), max: 1 });
  try {
    const org = tenant.organisationId;
    await pool.query(
      `INSERT INTO contact_custom_fields (id, organisation_id, contact_id, key, value, updated_at)
       SELECT gen_random_uuid(), $1, $2, x.key, to_jsonb(x.value), now() FROM jsonb_to_recordset($3::jsonb) AS x(key text, value text)`,
      [org, contact, JSON.stringify([{ key: 'due', value: DAY }, { key: 'note', value: DAY }, { key: 'other', value: DAY }])],
    );
    for (const [table, id] of [['accounts', accountId], ['wallets', walletId], ['wallet_transactions', transaction], ['vouchers', voucher], ['purchases', purchase]]) {
      await pool.query(`UPDATE ${table} SET custom_fields = $3::jsonb WHERE organisation_id = $1 AND id = $2`, [org, id, JSON.stringify(old)]);
    }
    expect((await api('GET', `/accounts/${accountId}/financials`, { key })).body.custom_fields).toEqual(old);

    // The migration's own text, run again: converting twice changes nothing.
    for (let i = 0; i < 2; i++) await pool.query(readFileSync(MIGRATION, 'utf8'));
  } finally {
    await pool.end();
  }
  expect(byKey((await api('GET', `/contacts/${contact}`, { key })).body.custom_fields)).toEqual([
    { key: 'due', value: MIDNIGHT }, { key: 'note', value: DAY }, { key: 'other', value: DAY },
  ]);
  expect((await api('GET', `/accounts/${accountId}/financials`, { key })).body.custom_fields).toEqual(converted);
  expect((await api('GET', `/vouchers/${voucher}`, { key })).body.custom_fields).toEqual(converted);
  const purchases = (await api('GET', `/purchases?contact_id=${contactId}`, { key })).body.purchases as Array<{ id: string; custom_fields: unknown }>;
  expect(purchases.find((p) => p.id === purchase)?.custom_fields).toEqual(converted);
  expect((await db.wallet.findUniqueOrThrow({ where: { id: walletId } })).customFields).toEqual(converted);
  expect((await db.walletTransaction.findUniqueOrThrow({ where: { id: transaction } })).customFields).toEqual(converted);
});

const MIGRATION = path.join(__dirname, '../../prisma/migrations/20261203143350_custom_field_dates_epoch/migration.sql');

async function voucherType(): Promise<string> {
  const id = newId();
  await db.voucherType.create({
    data: { id, organisationId: tenant.organisationId, name: `Ten ${id}`, valueType: 'FIXED', value: 10, currencyCode: 'EUR', validityPeriod: 1, validityUot: 'YEAR', classification: 'REFUND', category: 'IDENTIFIES_CUSTOMER' },
  });
  return id;
}
