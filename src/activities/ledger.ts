// Ledger activities: each step commits its own transaction scoped to one organisation and is
// safe to repeat (docs/money.md: idempotency keys and re-checks under the wallet lock).
import type { Db } from '../db/client';
import { txSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import type { AuditActor } from '../domain/audit';
import { EXPIRED_LOTS, expireLot } from '../domain/money/ledger/expiry';

export const EXPIRY_PAGE = 200;

const system = (organisationId: string, actorId: string): AuditActor => ({ organisationId, actorType: 'system', actorId });

export function ledgerActivities(db: Db) {
  return {
    /** Expires up to EXPIRY_PAGE lots past their valid_to; `more` when there may be others. */
    async expireLots(): Promise<{ expired: number; more: boolean }> {
      const lots = await db.$queryRawUnsafe<Array<{ lotId: string; organisationId: string; walletId: string }>>(EXPIRED_LOTS, EXPIRY_PAGE);
      let expired = 0;
      for (const lot of lots) {
        const amount = await scopedClient(db, lot.organisationId).$transaction((tx) =>
          expireLot(txSql(tx, lot.organisationId), system(lot.organisationId, 'ledger-expiry'), lot.walletId, lot.lotId),
        );
        if (!amount.isZero()) expired++;
      }
      return { expired, more: lots.length === EXPIRY_PAGE };
    },
  };
}
