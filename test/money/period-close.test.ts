// What HTTP cannot show about closing a period: every closing balance is the account's receivable
// book summed up to end_date (entries after it belong to the next period), many accounts are
// recorded by one insert, a failure part-way leaves nothing behind, and the opening balance reads
// the latest close. Runs the domain functions on the test service's database, in an organisation
// of its own, over real ledger entries written here as fixtures. Only the failure is injected.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import type { AuditActor } from '../../src/domain/audit';
import { newId } from '../../src/domain/ids';
import { Money } from '../../src/domain/money';
import { createPeriod } from '../../src/domain/money/accounting-periods';
import { accountBalancesAt } from '../../src/domain/money/balances';
import { checkLedger } from '../../src/domain/money/ledger/check';
import { closePeriod, latestClosedPeriod, openingBalance } from '../../src/domain/money/period-close';
import { getSettings } from '../../src/domain/money/settings';
import { openDatabase } from './helpers';

// The real function, wrapped so one test can make it fail part-way through a close.
jest.mock('../../src/domain/money/balances', () => {
  const actual = jest.requireActual('../../src/domain/money/balances');
  return { accountBalancesAt: jest.fn(actual.accountBalancesAt) };
});
const balancesAt = accountBalancesAt as jest.MockedFunction<typeof accountBalancesAt>;

let root: Db;
let db: Db;
const organisationId = newId();
const actor: AuditActor = { organisationId, actorType: 'api_key', actorId: 'test-key', requestId: 'req-close' };
const ACCOUNTS = 1500;
let accountIds: string[];
/** The year 2015, OPEN until the second test closes it. */
let first: string;

/** What each account's book holds at the end of 2015: its index in cents; the last one has nothing. */
const in2015 = (i: number) => (i === ACCOUNTS - 1 ? null : new Money(i).div(100));
/** Every account gets 5 more in 2016. */
const IN_2016 = new Money(5);
const epoch = (iso: string) => Date.parse(iso) / 1000;

/** Appends one receivable-book entry per account (with its transaction row) and keeps accounts.balance equal to the book. */
async function appendEntries(contactId: string, amounts: Array<[string, Money]>, at: string): Promise<void> {
  const ids = amounts.map(() => newId());
  const accounts = amounts.map(([a]) => a);
  const values = amounts.map(([, m]) => m.toFixed());
  await root.$executeRawUnsafe(
    `INSERT INTO wallet_transactions (id, organisation_id, contact_id, account_id, classification, amount, transaction_date, created_by, created_at)
     SELECT t.id, $1::uuid, $2::uuid, t.account_id, 'TRANSFER', abs(t.amount), $6, 'fixture', $6
     FROM unnest($3::uuid[], $4::uuid[], $5::numeric[]) AS t(id, account_id, amount)`, organisationId, contactId, ids, accounts, values, new Date(at));
  await root.$executeRawUnsafe(
    `INSERT INTO ledger_entries (id, organisation_id, transaction_id, account_id, amount, cause, idempotency_key, created_at)
     SELECT gen_random_uuid(), $1::uuid, t.id, t.account_id, t.amount, 'TRANSFER', 'fixture:' || t.id, $5
     FROM unnest($2::uuid[], $3::uuid[], $4::numeric[]) AS t(id, account_id, amount)`, organisationId, ids, accounts, values, new Date(at));
  await root.$executeRawUnsafe(
    `UPDATE accounts a SET balance = a.balance + t.amount FROM unnest($1::uuid[], $2::numeric[]) AS t(account_id, amount) WHERE a.id = t.account_id`,
    accounts, values);
}

beforeAll(async () => {
  root = openDatabase();
  db = scopedClient(root, organisationId);
  // Its row, as the admin command line makes it: the organisation's number sequences come with it.
  await root.organisation.create({ data: { id: organisationId, name: 'Period close' } });
  const contactId = newId();
  await db.contact.create({ data: { id: contactId, organisationId, contactType: 'PERSON', firstName: 'Many', lastName: 'Accounts' } });
  accountIds = Array.from({ length: ACCOUNTS }, () => newId());
  await db.account.createMany({
    data: accountIds.map((id, i) => ({ id, organisationId, contactId, number: String(i).padStart(10, '0'), currencyCode: 'EUR' })),
  });
  const withBalance = accountIds.flatMap((id, i) => (in2015(i) ? [[id, in2015(i)!] as [string, Money]] : []));
  await appendEntries(contactId, withBalance, '2015-06-01T00:00:00Z');
  // The last millisecond of 2015 belongs to 2015; the first of 2016 does not.
  await appendEntries(contactId, [[accountIds[7], new Money('0.5')]], '2015-12-31T23:59:59.999Z');
  await appendEntries(contactId, accountIds.map((id) => [id, IN_2016] as [string, Money]), '2016-01-01T00:00:00Z');
  ({ id: first } = await db.$transaction((tx) => createPeriod(tx, actor, { name: '2015', start_date: epoch('2015-01-01T00:00:00Z'), end_date: epoch('2016-01-01T00:00:00Z') })));
});

afterAll(async () => {
  if (root) expect(await checkLedger(root, organisationId)).toEqual([]);
  await root?.$disconnect();
});

test('a failure part-way through the closing leaves the period open and no balance behind', async () => {
  // The period row is already updated when the balances are asked for.
  balancesAt.mockRejectedValueOnce(new Error('ledger unavailable'));
  await expect(db.$transaction((tx) => closePeriod(tx, actor, first), { timeout: 60_000 })).rejects.toThrow('ledger unavailable');
  expect((await db.accountingPeriod.findFirstOrThrow({ where: { id: first } })).state).toBe('OPEN');
  expect(await db.accountingPeriodBalance.count({ where: { periodId: first } })).toBe(0);
  expect(await db.auditEntry.count({ where: { entityId: first, action: 'CLOSE' } })).toBe(0);
});

test('every account closes at its book summed before end_date; opening balances follow the latest close', async () => {
  expect(await latestClosedPeriod(db, organisationId)).toBeNull();
  expect((await openingBalance(db, organisationId, accountIds[5])).toFixed()).toBe('0');

  await db.$transaction((tx) => closePeriod(tx, actor, first), { timeout: 60_000 });
  const rows = await db.accountingPeriodBalance.findMany({ where: { periodId: first } });
  expect(rows).toHaveLength(ACCOUNTS);
  const expected = (id: string) => (in2015(accountIds.indexOf(id)) ?? new Money(0)).plus(id === accountIds[7] ? '0.5' : 0);
  expect(rows.filter((r) => !r.closingBalance.eq(expected(r.accountId)))).toEqual([]);
  expect((await latestClosedPeriod(db, organisationId))?.id).toBe(first);
  expect((await openingBalance(db, organisationId, accountIds[1234])).toFixed()).toBe('12.34');
  expect((await openingBalance(db, organisationId, accountIds[7])).toFixed()).toBe('0.57');
  expect((await openingBalance(db, organisationId, accountIds[ACCOUNTS - 1])).toFixed()).toBe('0');

  // A later close takes over; an account unknown to it brings nothing forward.
  const { id: second } = await db.$transaction((tx) => createPeriod(tx, actor, { name: '2016', start_date: epoch('2016-01-01T00:00:00Z'), end_date: epoch('2017-01-01T00:00:00Z') }));
  await db.$transaction((tx) => closePeriod(tx, actor, second), { timeout: 60_000 });
  expect((await latestClosedPeriod(db, organisationId))?.id).toBe(second);
  expect((await openingBalance(db, organisationId, accountIds[1234])).toFixed()).toBe('17.34');
  expect((await openingBalance(db, organisationId, accountIds[ACCOUNTS - 1])).toFixed()).toBe('5');
  expect((await openingBalance(db, organisationId, newId())).toFixed()).toBe('0');
});

test('getSettings gives typed defaults before anything is set', async () => {
  const settings = await getSettings(db, organisationId);
  expect(settings.systemCurrencyCode).toBe('EUR');
  expect(settings.defaultWalletMinimumBalance.toFixed()).toBe('0');
  expect(settings).toMatchObject({ alternativeCurrencyCode: null, alternativeCurrencyRate: null, creditLimitMin: null, creditLimitMax: null, limitRules: [], updatedAt: null });
});
