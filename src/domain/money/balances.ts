// Account balances at a moment, for period closing (and the financials read).
import type { Tx } from '../../db/client';
import { Money } from '../money';

/**
 * Every account's balance at `at`: the sum of its receivable book's entries written before that
 * moment (exclusive), in the account's currency; an account missing from the map has 0. One
 * query for all accounts, so a period close over thousands of accounts stays one round trip.
 */
export async function accountBalancesAt(tx: Tx, organisationId: string, at: Date): Promise<Map<string, Money>> {
  const rows = await tx.$queryRaw<Array<{ id: string; balance: string }>>`
    SELECT account_id AS id, SUM(amount)::text AS balance FROM ledger_entries
    WHERE organisation_id = ${organisationId}::uuid AND wallet_id IS NULL AND created_at < ${at}
    GROUP BY account_id`;
  return new Map(rows.map((r) => [r.id, new Money(r.balance)]));
}
