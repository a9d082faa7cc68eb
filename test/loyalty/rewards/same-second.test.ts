// Times at the API's resolution (docs/DEVELOPING.md "Times"): an epoch second names the whole
// second, so what the service writes "now" and what a caller sends for that same second compare
// as equal, and a time the API states is the moment the service acts on.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';
import { openDatabase } from '../../money/helpers';
import { contactWithAccount, expectLedgerHolds, newWallet, walletOf } from '../../wallets/setup';
import { purchase, purchaseBody, schemeWithOffers } from '../purchases/setup';

let tenant: Tenant;
let root: Db;
let db: Db;
let key: string;

beforeAll(async () => {
  tenant = await createTenant('Same second');
  key = tenant.secretKey;
  root = openDatabase();
  db = scopedClient(root, tenant.organisationId);
});
afterEach(async () => expectLedgerHolds(root, tenant.organisationId));
afterAll(async () => root?.$disconnect());

async function buyer() {
  const c = await contactWithAccount(key, root);
  return { ...c, walletId: await newWallet(key, c.accountId) };
}

test('a purchase performed in the second of the scheme sign-up earns the award', async () => {
  const b = await buyer();
  const { schemeId } = await schemeWithOffers(db, tenant.organisationId, null, [{ awardType: 'FIXED', awardValue: '5' }]);
  expect((await api('POST', `/accounts/${b.accountId}/reward_schemes`, { key, body: { reward_scheme_id: schemeId } })).status).toBe(200);
  const rewards = await api('GET', `/accounts/${b.accountId}/rewards`, { key });
  const signedUpOn: number = rewards.body.joined_reward_schemes[0].signed_up_on;

  const res = await purchase(key, purchaseBody(b.contactId, 40, { performed_on: signedUpOn }));
  expect(res.status).toBe(200);
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(5);
});

test('a participation stored with milliseconds still awards a purchase performed in its second', async () => {
  const b = await buyer();
  const { schemeId } = await schemeWithOffers(db, tenant.organisationId, null, [{ awardType: 'FIXED', awardValue: '3' }]);
  const second = Math.floor(Date.now() / 1000) - 60;
  await db.accountRewardScheme.create({ data: { organisationId: tenant.organisationId, accountId: b.accountId, schemeId, signedUpOn: new Date(second * 1000 + 700) } });

  expect((await purchase(key, purchaseBody(b.contactId, 40, { performed_on: second }))).status).toBe(200);
  expect((await walletOf(key, b.contactId, b.walletId)).balance).toBe(3);
});

test('an award of a purchase without performed_on expires at the very second its expiration_date states', async () => {
  const b = await buyer();
  await schemeWithOffers(db, tenant.organisationId, b.accountId, [{ awardType: 'FIXED', awardValue: '2', validityPeriod: 1, validityUot: 'DAY' }]);
  const { id } = (await purchase(key, purchaseBody(b.contactId, 40))).body;
  const listed = await api('GET', `/purchases?contact_id=${b.contactId}`, { key });
  const performedOn: number = listed.body.purchases.find((p: { id: string }) => p.id === id).performed_on;

  const award = await root.walletTransaction.findFirstOrThrow({ where: { purchaseId: id, classification: 'AWARD' } });
  const lot = await root.lot.findFirstOrThrow({ where: { entry: { transactionId: award.id } } });
  expect(award.transactionDate.getTime()).toBe(performedOn * 1000);
  expect(lot.validTo!.getTime()).toBe((performedOn + 86_400) * 1000);
});

test('a voucher expires at the very second its expiration_date states', async () => {
  const b = await buyer();
  const typeId = newId();
  await db.voucherType.create({
    data: { id: typeId, organisationId: tenant.organisationId, name: 'Same second', valueType: 'FIXED', value: 10, currencyCode: 'EUR', validityPeriod: 1, validityUot: 'DAY', classification: 'REFUND', category: 'IDENTIFIES_CUSTOMER' },
  });
  const issued = await api('POST', '/vouchers', { key, body: { contact_id: b.contactId, voucher_type_id: typeId } });
  expect(issued.status).toBe(200);
  const read = await api('GET', `/vouchers/${issued.body.id}`, { key });

  const row = await db.voucher.findUniqueOrThrow({ where: { id: issued.body.id } });
  expect(row.expirationDate.getTime()).toBe(read.body.expiration_date * 1000);
});
