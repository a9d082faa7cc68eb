// Numbers per organisation (docs/money.md "Numbers"): an organisation's wallet transactions and
// purchases are numbered 1, 2, 3 ... by sequences of its own, whatever other tenants write in
// between, so no tenant can read another's volume from the gaps in its numbers.
import type { Db } from '../../src/db/client';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { openDatabase } from './helpers';
import { contactWithAccount, credit, newWallet } from '../wallets/setup';
import { purchase, purchaseBody } from '../loyalty/purchases/setup';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Numbers A'), createTenant('Numbers B')]);
  root = openDatabase();
});
afterAll(async () => root?.$disconnect());

async function buyer(t: Tenant) {
  const c = await contactWithAccount(t.secretKey, root);
  return { ...c, walletId: await newWallet(t.secretKey, c.accountId) };
}

const transactionNumbers = async (t: Tenant, contactId: string) => {
  const res = await api('GET', `/contacts/${contactId}/wallet_transactions?size=50`, { key: t.secretKey });
  expect(res.status).toBe(200);
  return res.body.content.map((x: { number: unknown }) => Number(x.number)).sort((x: number, y: number) => x - y);
};

test('wallet transactions: each organisation counts from 1, with no gap for the other\'s writes in between', async () => {
  const [ba, bb] = await Promise.all([buyer(a), buyer(b)]);
  for (let i = 0; i < 3; i++) {
    await credit(a.secretKey, ba.walletId, 10);
    await credit(b.secretKey, bb.walletId, 10);
    await credit(b.secretKey, bb.walletId, 10);
  }
  expect(await transactionNumbers(a, ba.contactId)).toEqual([1, 2, 3]);
  expect(await transactionNumbers(b, bb.contactId)).toEqual([1, 2, 3, 4, 5, 6]);
});

test('purchases: the same, each organisation its own sequence', async () => {
  const [ba, bb] = await Promise.all([buyer(a), buyer(b)]);
  const made: Record<string, string[]> = { a: [], b: [] };
  for (let i = 0; i < 2; i++) {
    for (const [name, t, c] of [['a', a, ba], ['b', b, bb], ['b', b, bb]] as const) {
      const res = await purchase(t.secretKey, purchaseBody(c.contactId, 10));
      expect(res.status).toBe(200);
      made[name].push(res.body.id);
    }
  }
  const numbers = async (t: Tenant, ids: string[]) => {
    const res = await api('GET', '/purchases?size=50', { key: t.secretKey });
    expect(res.status).toBe(200);
    return ids.map((id) => Number(res.body.purchases.find((p: { id: string }) => p.id === id).number));
  };
  expect(await numbers(a, made.a)).toEqual([1, 2]);
  expect(await numbers(b, made.b)).toEqual([1, 2, 3, 4]);
});

test('an organisation that already has numbers (before the migration) goes on after its highest', async () => {
  const t = await createTenant('Numbers C');
  const c = await buyer(t);
  for (let i = 0; i < 2; i++) await credit(t.secretKey, c.walletId, 5);
  // As the migration found it: no sequence of its own yet, numbers from the old shared one.
  await root.$executeRawUnsafe(`UPDATE wallet_transactions SET number = number + 1000 WHERE organisation_id = $1::uuid`, t.organisationId);
  await root.$executeRawUnsafe(`DROP SEQUENCE org_numbers.${'wallet_transactions_' + t.organisationId.replace(/-/g, '')}`);
  // Made again as the migration does, under the empty search_path pg_restore runs with.
  await root.$transaction([
    root.$executeRawUnsafe(`SET LOCAL search_path = ''`),
    root.$executeRawUnsafe(`SELECT 1 FROM org_numbers.create_for($1::uuid)`, t.organisationId),
  ]);
  await credit(t.secretKey, c.walletId, 5);
  expect(await transactionNumbers(t, c.contactId)).toEqual([1001, 1002, 1003]);
});
