// Expired value leaves the balance through an EXPIRY transaction (docs/money.md "Expiry"),
// written lot by lot by the ledger-expiry workflow's activity. Each lot's expiry runs in its own
// transaction under its wallet's lock and carries the key expiry:<lot>, so a repeat after a
// crash finds nothing left to expire and writes nothing twice.
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { newId } from '../../ids';
import { Money } from '../../money';
import { debitWallet, recordTransaction } from './entries';
import { recordMoneyChange } from './record';
import { lockWallet } from './wallet';
import { nowSeconds } from '../../clock';

/** Lots past their valid_to with something left, oldest first; across organisations (unscoped). */
export const EXPIRED_LOTS = `SELECT entry_id AS "lotId", organisation_id AS "organisationId", wallet_id AS "walletId" FROM lots
WHERE valid_to <= now() AND remaining > 0 ORDER BY valid_to, entry_id LIMIT $1`;

const LOT = `SELECT remaining::text AS remaining, valid_to AS "validTo" FROM lots WHERE organisation_id = $1 AND entry_id = $2::uuid`;

/** Expires what remains of one lot; answers the amount expired (0 when nothing was left). */
export async function expireLot(sql: OrgSql, actor: AuditActor, walletId: string, lotId: string, now = nowSeconds()): Promise<Money> {
  const wallet = await lockWallet(sql, walletId);
  const [lot] = await sql.rows<{ remaining: string; validTo: Date | null }>(LOT, [lotId]);
  const remaining = new Money(lot?.remaining ?? 0);
  if (!lot || remaining.isZero() || !lot.validTo || lot.validTo > now) return new Money(0);
  const id = newId();
  await recordTransaction(sql, {
    id, contactId: wallet.contactId, accountId: wallet.accountId, walletId, classification: 'EXPIRY', amount: remaining,
    description: 'Expired credit', transactionDate: now, createdBy: actor.actorId,
  });
  await debitWallet(sql, wallet, {
    transactionId: id, cause: 'EXPIRY', idempotencyKey: `expiry:${lotId}`, amount: remaining,
    consumptions: [{ lotEntryId: lotId, amount: remaining }], uncovered: new Money(0),
  });
  await recordMoneyChange(
    sql, actor,
    { action: 'EXPIRE', entityType: 'wallet_transaction', entityId: id, changes: { lot: lotId, amount: remaining.toFixed() } },
    { type: 'WALLET_TRANSACTION_POSTED', payload: { transaction_id: id, wallet_id: walletId, contact_id: wallet.contactId, classification: 'EXPIRY', amount: remaining.toFixed(), currency_code: wallet.currencyCode } },
  );
  return remaining;
}
