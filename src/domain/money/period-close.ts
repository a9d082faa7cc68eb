// Closing an accounting period, and what the financials read of an account takes from the
// closed periods (spec 2.3: accounting_period_id, accounting_period_name, opening_balance).
import type { AccountingPeriod, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict } from '../errors';
import { lockOrganisation } from '../locks';
import { Money, moneyText } from '../money';
import { getPeriod, PERIOD_LOCK } from './accounting-periods';
import { accountBalancesAt } from './balances';
import { nowSeconds } from '../clock';

/**
 * OPEN → CLOSED, once the period has ended and every earlier period is closed; in the same
 * transaction, every account's balance at end_date is recorded as its closing balance.
 */
export async function closePeriod(tx: Tx, actor: AuditActor, id: string, now = nowSeconds()): Promise<void> {
  const { organisationId } = actor;
  // Serialised with every other period write: a second close waits, then sees CLOSED.
  await lockOrganisation(tx, organisationId, PERIOD_LOCK);
  const period = await getPeriod(tx, organisationId, id);
  if (period.state === 'CLOSED') throw conflict('PERIOD_ALREADY_CLOSED', 'The accounting period is already closed');
  if (period.endDate > now) throw conflict('PERIOD_NOT_ENDED', 'The accounting period has not ended yet: its end_date is in the future');
  const earlier = await tx.accountingPeriod.findFirst({ where: { organisationId, state: 'OPEN', startDate: { lt: period.startDate } }, orderBy: { startDate: 'asc' } });
  if (earlier) throw conflict('EARLIER_PERIOD_OPEN', `Close accounting period "${earlier.name}" (${earlier.id}) first: periods close in order`);

  await tx.accountingPeriod.update({ where: { id }, data: { state: 'CLOSED', closedAt: now } });
  const accounts = await recordClosingBalances(tx, organisationId, period);
  await audit(tx, actor, { action: 'CLOSE', entityType: 'accounting_period', entityId: id, changes: { accounts } });
}

/** One row per account of the organisation, written by one INSERT whatever their number. */
async function recordClosingBalances(tx: Tx, organisationId: string, period: AccountingPeriod): Promise<number> {
  const accounts = await tx.account.findMany({ where: { organisationId }, select: { id: true }, orderBy: { id: 'asc' } });
  const balancesAt = await accountBalancesAt(tx, organisationId, period.endDate);
  const ids = accounts.map((a) => a.id);
  const balances = ids.map((id) => moneyText(balancesAt.get(id) ?? new Money(0)));
  if (ids.length) {
    await tx.$executeRaw`
      INSERT INTO accounting_period_balances (organisation_id, period_id, account_id, closing_balance)
      SELECT ${organisationId}::uuid, ${period.id}::uuid, t.account_id, t.closing_balance
      FROM unnest(${ids}::uuid[], ${balances}::numeric[]) AS t(account_id, closing_balance)`;
  }
  return ids.length;
}

/** The organisation's most recently ended closed period, or null before the first close. */
export async function latestClosedPeriod(tx: Tx, organisationId: string): Promise<AccountingPeriod | null> {
  return tx.accountingPeriod.findFirst({ where: { organisationId, state: 'CLOSED' }, orderBy: { endDate: 'desc' } });
}

/**
 * What the account brings forward: its closing balance in the latest closed period; 0 before
 * any close, and for an account opened after it (it had nothing to bring forward).
 */
export async function openingBalance(tx: Tx, organisationId: string, accountId: string): Promise<Money> {
  const period = await latestClosedPeriod(tx, organisationId);
  if (!period) return new Money(0);
  const row = await tx.accountingPeriodBalance.findFirst({ where: { organisationId, periodId: period.id, accountId } });
  return row?.closingBalance ?? new Money(0);
}
