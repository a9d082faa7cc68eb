// Account groups: POST, GET, PUT, DELETE /accounts/{id}/members. One group per member, no
// member of itself, no loop however deep, references of this organisation only.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { addAccount, contactWithAddresses, createId, expectError, keyWith, markTerminated, openDatabase, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
let product: { id: string; sku: string };
let product2: { id: string; sku: string };
let type: string;
let family: string;
let foreignProduct: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Groups A'), createTenant('Groups B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const sku = (n: number) => `SKU-${process.pid}-${Date.now().toString(36)}-${n}`;
  type = await createId(a.secretKey, '/product_types', { name: 'Fuel' });
  family = await createId(a.secretKey, '/product_families', { name: 'Drinks' });
  product = { sku: sku(1), id: '' };
  product.id = await createId(a.secretKey, '/products', { sku: product.sku, name: 'Diesel', product_type_id: type });
  product2 = { sku: sku(2), id: '' };
  product2.id = await createId(a.secretKey, '/products', { sku: product2.sku, name: 'Petrol' });
  foreignProduct = await createId(b.secretKey, '/products', { sku: sku(3), name: 'Elsewhere' });
});

afterAll(async () => {
  await root?.$disconnect();
});

/** A fresh account of a fresh contact. */
async function account(): Promise<string> {
  return addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
}
const add = (group: string, body: object, key = a.secretKey) => api('POST', `/accounts/${group}/members`, { key, body });
const list = (group: string, key = a.secretKey) => api('GET', `/accounts/${group}/members`, { key });
const put = (group: string, member: string, body: object, key = a.secretKey) => api('PUT', `/accounts/${group}/members/${member}`, { key, body });
const remove = (group: string, member: string, key = a.secretKey) => api('DELETE', `/accounts/${group}/members/${member}`, { key });
const FULLY = { funding_scope: 'FULLY' };

test('add, list, change and remove members', async () => {
  const [group, one, two] = await Promise.all([account(), account(), account()]);
  const first = await createId(a.secretKey, `/accounts/${group}/members`, { member_account_id: one, ...FULLY });
  const second = await createId(a.secretKey, `/accounts/${group}/members`, {
    member_account_id: two, funding_scope: 'PARTIALLY', products: [product2.id, product.id], product_types: [type], product_families: [family],
  });
  const numbers = new Map((await db.account.findMany({ where: { id: { in: [one, two] } } })).map((x) => [x.id, x.number]));
  expect((await list(group)).body).toEqual({
    members: [
      { id: first, member_account_id: one, number: numbers.get(one), funding_scope: 'FULLY', products: [], product_types: [], product_families: [] },
      {
        id: second, member_account_id: two, number: numbers.get(two), funding_scope: 'PARTIALLY',
        products: [{ id: product2.id, sku: product2.sku }, { id: product.id, sku: product.sku }],
        product_types: [{ id: type, name: 'Fuel' }], product_families: [{ id: family, name: 'Drinks' }],
      },
    ],
  });
  expect((await put(group, first, { funding_scope: 'PARTIALLY', product_types: [type] })).body).toEqual({ id: first });
  expect((await put(group, second, { funding_scope: 'FULLY', products: [], product_types: [], product_families: [] })).status).toBe(200);
  const after = (await list(group)).body.members;
  expect(after[0]).toMatchObject({ funding_scope: 'PARTIALLY', product_types: [{ id: type, name: 'Fuel' }], products: [] });
  expect(after[1]).toMatchObject({ funding_scope: 'FULLY', products: [], product_types: [], product_families: [] });
  expect((await remove(group, first)).body).toEqual({ id: first });
  expect((await list(group)).body.members.map((m: { id: string }) => m.id)).toEqual([second]);
  expectError(await remove(group, first), 404, 'NOT_FOUND');
  expect(await db.auditEntry.count({ where: { entityType: 'account_member', entityId: { in: [first, second] } } })).toBe(5);
  // Once out, the account may join another group.
  expect((await add(await account(), { member_account_id: one, ...FULLY })).status).toBe(200);
});

test('one group per member (409 ALREADY_MEMBER), never its own member, never a loop', async () => {
  const [top, mid, low, other] = await Promise.all([account(), account(), account(), account()]);
  await createId(a.secretKey, `/accounts/${top}/members`, { member_account_id: mid, ...FULLY });
  await createId(a.secretKey, `/accounts/${mid}/members`, { member_account_id: low, ...FULLY });
  expectError(await add(other, { member_account_id: mid, ...FULLY }), 409, 'ALREADY_MEMBER', 'member_account_id');
  expectError(await add(top, { member_account_id: mid, ...FULLY }), 409, 'ALREADY_MEMBER', 'member_account_id');
  expectError(await add(other, { member_account_id: other, ...FULLY }), 400, 'INVALID_REQUEST', 'member_account_id');
  expectError(await add(mid, { member_account_id: top, ...FULLY }), 409, 'GROUP_CYCLE', 'member_account_id');
  expectError(await add(low, { member_account_id: top, ...FULLY }), 409, 'GROUP_CYCLE', 'member_account_id');
  expect(await db.accountMember.count({ where: { memberAccountId: top } })).toBe(0);
});

test('two opposite adds at once: the lock lets one through, the other sees the loop', async () => {
  const [x, y] = await Promise.all([account(), account()]);
  const results = await Promise.all([add(x, { member_account_id: y, ...FULLY }), add(y, { member_account_id: x, ...FULLY })]);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  expect(results.find((r) => r.status === 409)?.body.code).toBe('GROUP_CYCLE');
});

test('references must exist in this organisation, once each; the funding scope must fit the lists', async () => {
  const [group, member] = await Promise.all([account(), account()]);
  const partial = (extra: object) => add(group, { member_account_id: member, funding_scope: 'PARTIALLY', ...extra });
  expectError(await partial({ products: [product.id, UNKNOWN_ID] }), 400, 'INVALID_REQUEST', 'products.1');
  expectError(await partial({ products: [foreignProduct] }), 400, 'INVALID_REQUEST', 'products.0');
  expectError(await partial({ products: [product.id, product.id] }), 400, 'INVALID_REQUEST', 'products.1');
  expectError(await partial({ product_types: [family] }), 400, 'INVALID_REQUEST', 'product_types.0');
  expectError(await partial({ product_families: [type] }), 400, 'INVALID_REQUEST', 'product_families.0');
  expectError(await partial({ products: ['nope'] }), 400, 'INVALID_REQUEST', 'products.0');
  expectError(await partial({}), 400, 'INVALID_REQUEST', 'funding_scope');
  expectError(await add(group, { member_account_id: member, ...FULLY, products: [product.id] }), 400, 'INVALID_REQUEST', 'products');
  expectError(await add(group, { member_account_id: member, funding_scope: 'SOME' }), 400, 'INVALID_REQUEST', 'funding_scope');
  expectError(await add(group, { member_account_id: UNKNOWN_ID, ...FULLY }), 400, 'INVALID_REQUEST', 'member_account_id');
  const foreign = await addAccount(b.secretKey, (await contactWithAddresses(b.secretKey, scopedClient(root, b.organisationId))).id);
  expectError(await add(group, { member_account_id: foreign, ...FULLY }), 400, 'INVALID_REQUEST', 'member_account_id');
  expect(await db.accountMember.count({ where: { groupAccountId: group } })).toBe(0);

  const id = await createId(a.secretKey, `/accounts/${group}/members`, { member_account_id: member, funding_scope: 'PARTIALLY', products: [product.id] });
  // The merged record must hold together: FULLY while products stay listed is refused.
  expectError(await put(group, id, FULLY), 400, 'INVALID_REQUEST', 'products');
  expectError(await put(group, id, { products: [] }), 400, 'INVALID_REQUEST', 'funding_scope');
  expectError(await put(group, id, { member_account_id: member }), 400, 'INVALID_REQUEST', 'member_account_id');
  expect((await list(group)).body.members[0]).toMatchObject({ funding_scope: 'PARTIALLY', products: [{ id: product.id, sku: product.sku }] });
});

test('terminated accounts: a group takes no member and no change but may lose one; a member cannot join', async () => {
  const [group, member, dead] = await Promise.all([account(), account(), account()]);
  const id = await createId(a.secretKey, `/accounts/${group}/members`, { member_account_id: member, ...FULLY });
  await markTerminated(root, a.organisationId, dead);
  expectError(await add(group, { member_account_id: dead, ...FULLY }), 409, 'ACCOUNT_TERMINATED', 'member_account_id');
  await markTerminated(root, a.organisationId, group);
  expectError(await add(group, { member_account_id: await account(), ...FULLY }), 409, 'ACCOUNT_TERMINATED');
  expectError(await put(group, id, { funding_scope: 'FULLY' }), 409, 'ACCOUNT_TERMINATED');
  expect((await remove(group, id)).status).toBe(200);
});

test('another organisation: 404 for its groups and member records; scopes are checked', async () => {
  const [group, member, elsewhere] = await Promise.all([account(), account(), account()]);
  const id = await createId(a.secretKey, `/accounts/${group}/members`, { member_account_id: member, ...FULLY });
  expectError(await list(group, b.secretKey), 404, 'NOT_FOUND');
  expectError(await add(group, { member_account_id: member, ...FULLY }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await put(group, id, FULLY, b.secretKey), 404, 'NOT_FOUND');
  expectError(await remove(group, id, b.secretKey), 404, 'NOT_FOUND');
  // A member record of another group is not this group's.
  expectError(await remove(elsewhere, id), 404, 'NOT_FOUND');
  expectError(await list(UNKNOWN_ID), 404, 'NOT_FOUND');
  const reader = await keyWith(a.secretKey, ['accounts:read']);
  expect((await list(group, reader)).status).toBe(200);
  expectError(await add(group, { member_account_id: member, ...FULLY }, reader), 403, 'FORBIDDEN');
  expectError(await remove(group, id, reader), 403, 'FORBIDDEN');
  expectError(await list(group, await keyWith(a.secretKey, ['contacts'])), 403, 'FORBIDDEN');
});
