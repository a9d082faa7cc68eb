// What HTTP cannot show about closing a period: every closing balance comes from
// accountBalancesAt at end_date, many accounts are recorded by one insert, a failure part-way
// leaves nothing behind, and the opening balance reads the latest close. Runs the domain
// functions on the test service's database, in an organisation of its own; the balance
// function is replaced, since the ledger that will compute real balances does not exist yet.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import type { AuditActor } from '../../src/domain/audit';
import { newId } from '../../src/domain/ids';
import { Money } from '../../src/domain/money';
import { createPeriod } from '../../src/domain/money/accounting-periods';
import { accountBalancesAt } from '../../src/domain/money/balances';
import { closePeriod, latestClosedPeriod, openingBalance } from '../../src/domain/money/period-close';
import { getSettings } from '../../src/domain/money/settings';
import { openDatabase } from './helpers';

jest.mock('../../src/domain/money/balances', () => ({ accountBalancesAt: jest.fn() }));
const balancesAt = accountBalancesAt as jest.MockedFunction<typeof accountBalancesAt>;

let root: Db;
let db: Db;
const organisationId = newId();
const actor: AuditActor = { organisationId, actorType: 'api_key', actorId: 'test-key', requestId: 'req-close' };
const ACCOUNTS = 1500;
let accountIds: string[];
/** The year 2015, OPEN until the second test closes it. */
let first: string;

/** Closing balance by account: its index in cents, so each one differs. */
const balanceOf = (accountId: string) => new Money(accountIds.indexOf(accountId)).div(100);
const epoch = (iso: string) => Date.parse(iso) / 1000;

beforeAll(async () => {
  root = openDatabase();
  db = scopedClient(root, organisationId);
  const contactId = newId();
  await db.contact.create({ data: { id: contactId, organisationId, contactType: 'PERSON', firstName: 'Many', lastName: 'Accounts' } });
  accountIds = Array.from({ length: ACCOUNTS }, () => newId());
  await db.account.createMany({
    data: accountIds.map((id, i) => ({ id, organisationId, contactId, number: String(i).padStart(10, '0'), currencyCode: 'EUR' })),
  });
  ({ id: first } = await db.$transaction((tx) => createPeriod(tx, actor, { name: '2015', start_date: epoch('2015-01-01T00:00:00Z'), end_date: epoch('2016-01-01T00:00:00Z') })));
});

afterAll(async () => {
  await root?.$disconnect();
});

test('a failure part-way through the closing leaves the period open and no balance behind', async () => {
  // The period row is already updated when the balances are asked for.
  balancesAt.mockRejectedValue(new Error('ledger unavailable'));
  await expect(db.$transaction((tx) => closePeriod(tx, actor, first), { timeout: 60_000 })).rejects.toThrow('ledger unavailable');
  expect((await db.accountingPeriod.findFirstOrThrow({ where: { id: first } })).state).toBe('OPEN');
  expect(await db.accountingPeriodBalance.count({ where: { periodId: first } })).toBe(0);
  expect(await db.auditEntry.count({ where: { entityId: first, action: 'CLOSE' } })).toBe(0);
});

test('every account gets the balance accountBalancesAt gives at end_date; opening balances follow the latest close', async () => {
  expect(await latestClosedPeriod(db, organisationId)).toBeNull();
  expect((await openingBalance(db, organisationId, accountIds[5])).toFixed()).toBe('0');

  const end = new Date('2016-01-01T00:00:00Z');
  balancesAt.mockReset();
  balancesAt.mockImplementation(async (_tx, org, at) => {
    expect([org, at.toISOString()]).toEqual([organisationId, end.toISOString()]);
    // Every account but the last has a balance; the last one is absent, so 0.
    return new Map(accountIds.slice(0, -1).map((id) => [id, balanceOf(id)]));
  });
  await db.$transaction((tx) => closePeriod(tx, actor, first), { timeout: 60_000 });
  expect(balancesAt).toHaveBeenCalledTimes(1);

  const rows = await db.accountingPeriodBalance.findMany({ where: { periodId: first } });
  expect(rows).toHaveLength(ACCOUNTS);
  const last = accountIds[ACCOUNTS - 1];
  expect(rows.every((r) => r.closingBalance.eq(r.accountId === last ? new Money(0) : balanceOf(r.accountId)))).toBe(true);
  expect((await latestClosedPeriod(db, organisationId))?.id).toBe(first);
  expect((await openingBalance(db, organisationId, accountIds[1234])).toFixed()).toBe('12.34');

  // A later close takes over; an account opened after it brings nothing forward.
  const { id: second } = await db.$transaction((tx) => createPeriod(tx, actor, { name: '2016', start_date: epoch('2016-01-01T00:00:00Z'), end_date: epoch('2017-01-01T00:00:00Z') }));
  balancesAt.mockReset();
  balancesAt.mockResolvedValue(new Map(accountIds.map((id) => [id, new Money('7.0001')])));
  await db.$transaction((tx) => closePeriod(tx, actor, second), { timeout: 60_000 });
  expect((await latestClosedPeriod(db, organisationId))?.id).toBe(second);
  expect((await openingBalance(db, organisationId, accountIds[1234])).toFixed()).toBe('7.0001');
  expect((await openingBalance(db, organisationId, newId())).toFixed()).toBe('0');
});

test('getSettings gives typed defaults before anything is set', async () => {
  const settings = await getSettings(db, organisationId);
  expect(settings.systemCurrencyCode).toBe('EUR');
  expect(settings.defaultWalletMinimumBalance.toFixed()).toBe('0');
  expect(settings).toMatchObject({ alternativeCurrencyCode: null, alternativeCurrencyRate: null, creditLimitMin: null, creditLimitMax: null, limitRules: [], updatedAt: null });
});
