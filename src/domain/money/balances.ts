// Account balances at a moment, for period closing (and later the financials read).
import type { Tx } from '../../db/client';
import type { Money } from '../money';

/**
 * Every account's balance at `at`: everything booked before that moment (exclusive), in the
 * account's currency; an account missing from the map has 0. One query for all accounts, so a
 * period close over thousands of accounts stays one round trip. Every closing balance is
 * written through this one function.
 *
 * No ledger entries exist yet, so every balance is 0. The ledger (docs/money.md) replaces this
 * body with one sum of the entries before `at`, grouped by account; callers stay as they are.
 */
export async function accountBalancesAt(_tx: Tx, _organisationId: string, _at: Date): Promise<Map<string, Money>> {
  return new Map();
}
