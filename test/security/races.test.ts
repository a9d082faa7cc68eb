// Races tell the truth (issue 31): parallel terminations of one account commit to one target and
// refuse the others with 409 (docs/accounts.md "Termination"), and failed refreshes from one
// address are throttled like failed logins (docs/security.md "Sign-in and sessions").
import type { Db } from '../../src/db/client';
import { expectError, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, credit, expectLedgerHolds, newWallet, walletOf } from '../wallets/setup';

let tenant: Tenant;
let db: Db;

beforeAll(async () => {
  tenant = await createTenant('Races');
  db = openDatabase();
});
afterAll(async () => db?.$disconnect());

const terminate = (accountId: string, target: string) =>
  api('POST', `/accounts/${accountId}/life_cycle_state`, { key: tenant.secretKey, body: { life_cycle_state: 'TERMINATED', transfer_to_account_id: target } });
const walletsOf = (accountId: string) => db.wallet.findMany({ where: { organisationId: tenant.organisationId, accountId } });

describe('parallel terminations of one account', () => {
  afterEach(async () => expectLedgerHolds(db, tenant.organisationId));

  test('to four targets: exactly one answers 200 and gets the money, three answer 409 TERMINATION_IN_PROGRESS', async () => {
    const { accountId } = await contactWithAccount(tenant.secretKey, db);
    await credit(tenant.secretKey, await newWallet(tenant.secretKey, accountId), 500);
    const targets = await Promise.all([1, 2, 3, 4].map(() => contactWithAccount(tenant.secretKey, db)));
    const answers = await Promise.all(targets.map((t) => terminate(accountId, t.accountId)));
    const won = answers.flatMap((res, i) => (res.status === 200 ? [targets[i].accountId] : []));
    expect(won).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) expectError(res, 409, 'TERMINATION_IN_PROGRESS', 'transfer_to_account_id');
    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect([account.lifeCycleState, account.terminatedToAccountId]).toEqual(['TERMINATED', won[0]]);
    for (const target of targets) {
      const wallets = await walletsOf(target.accountId);
      const balances = await Promise.all(wallets.map(async (w) => (await walletOf(tenant.secretKey, target.contactId, w.id)).balance as number));
      expect([target.accountId, balances]).toEqual([target.accountId, target.accountId === won[0] ? [500] : []]);
    }
  });

  test('to two targets, twice each: the winner\'s both join its one workflow (200), the other two are 409', async () => {
    const { accountId } = await contactWithAccount(tenant.secretKey, db);
    await credit(tenant.secretKey, await newWallet(tenant.secretKey, accountId), 500);
    const [t1, t2] = await Promise.all([1, 2].map(async () => (await contactWithAccount(tenant.secretKey, db)).accountId));
    const asked = [t1, t2, t1, t2];
    const answers = await Promise.all(asked.map((t) => terminate(accountId, t)));
    const winners = new Set(answers.flatMap((res, i) => (res.status === 200 ? [asked[i]] : [])));
    expect(winners.size).toBe(1);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(2);
    for (const res of answers.filter((r) => r.status !== 200)) expectError(res, 409, 'TERMINATION_IN_PROGRESS', 'transfer_to_account_id');
    const [winner] = [...winners];
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).terminatedToAccountId).toBe(winner);
    // Afterwards the loser's target is refused as a terminated account, the winner's is a no-op.
    expectError(await terminate(accountId, winner === t1 ? t2 : t1), 409, 'ACCOUNT_TERMINATED', 'life_cycle_state');
    expect((await terminate(accountId, winner)).status).toBe(200);
  });

  test('a committed target that can no longer be reached frees the account for another', async () => {
    const { accountId } = await contactWithAccount(tenant.secretKey, db);
    const [gone, next] = await Promise.all([1, 2].map(async () => (await contactWithAccount(tenant.secretKey, db)).accountId));
    // As if a request had committed the account to `gone` and `gone` was terminated before its run.
    await db.account.update({ where: { id: accountId }, data: { terminatingToAccountId: gone } });
    expectError(await terminate(accountId, next), 409, 'TERMINATION_IN_PROGRESS', 'transfer_to_account_id');
    const sink = (await contactWithAccount(tenant.secretKey, db)).accountId;
    expect((await terminate(gone, sink)).status).toBe(200);
    expect((await terminate(accountId, next)).status).toBe(200);
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).terminatedToAccountId).toBe(next);
  });
});

describe('refresh attempts are throttled', () => {
  // An address of this test's own: the shared service's other files sign in from 127.0.0.1.
  const localAddress = '127.0.0.131';
  const refresh = (token: string) => api('POST', '/users/refresh', { body: { refresh_token: token }, localAddress });

  test('unknown refresh tokens from one address get 429 with Retry-After after 11; a login from it still works', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await refresh(`rt_unknown_${i}_${'x'.repeat(40)}`);
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers['retry-after'] as string;
    }
    // Ten are free; the eleventh is the first failure beyond them, and it starts the lock.
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(401));
    expect(statuses.slice(11)).toEqual(Array(9).fill(429));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // The lock is the refreshes' own: signing in from the address is not held by it.
    const login = await api('POST', '/users/login', { body: { username: tenant.admin.username, password: tenant.admin.password }, localAddress });
    expect(login.status).toBe(200);
  });
});
