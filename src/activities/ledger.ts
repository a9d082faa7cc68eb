// Ledger activities: each step commits its own transaction scoped to one organisation and is
// safe to repeat (docs/money.md: idempotency keys and re-checks under the wallet lock).
import type { Db } from '../db/client';
import type { AuditActor } from '../domain/audit';
import { ApplicationFailure } from '@temporalio/common';
import { Money } from '../domain/money';
import { EXPIRED_LOTS, expireLot } from '../domain/money/ledger/expiry';
import { creditTopup, planTopup, type TopupPlan } from '../domain/money/ledger/topup';
import { GatewayUnavailable, type ChargeResult, type PaymentGateway } from '../payments/gateway';
import { checkIds, intended, notRequested } from './ownership';
import { topupWorkflowId, type TopupInput } from '../workflows/contracts';
import { inOrgTransaction } from './transaction';
import type { OrgSql } from '../db/sql';

export const EXPIRY_PAGE = 200;

const system = (organisationId: string, actorId: string): AuditActor => ({ organisationId, actorType: 'system', actorId });

export function ledgerActivities(db: Db) {
  return {
    /** Expires up to EXPIRY_PAGE lots past their valid_to; `more` when there may be others. */
    async expireLots(): Promise<{ expired: number; more: boolean }> {
      const lots = await db.$queryRawUnsafe<Array<{ lotId: string; organisationId: string; walletId: string }>>(EXPIRED_LOTS, EXPIRY_PAGE);
      let expired = 0;
      for (const lot of lots) {
        const amount = await inOrgTransaction(db, lot.organisationId, (_tx, sql) =>
          expireLot(sql, system(lot.organisationId, 'ledger-expiry'), lot.walletId, lot.lotId),
        );
        if (!amount.isZero()) expired++;
      }
      return { expired, more: lots.length === EXPIRY_PAGE };
    },
  };
}

/** Auto top-up steps (docs/money.md "Auto top-up"); the gateway is outside the service. */
export function topupActivities(db: Db, gateway: PaymentGateway) {
  /**
   * In the organisation, once the debit's intent is found: a top-up acts only for a debit that
   * asked for one (the intent commits with it), whoever started the workflow. An intent is kept
   * RETENTION_OUTBOX_DAYS after it started the run; a restart later than that charges nothing.
   */
  const forDebit = <T>(input: TopupInput, fn: (sql: OrgSql) => Promise<T>) => {
    checkIds({ organisationId: input.organisationId, causeId: input.causeId });
    return inOrgTransaction(db, input.organisationId, async (_tx, sql) => {
      if (!(await intended(sql, topupWorkflowId(input.causeId), 'walletTopupWorkflow'))) throw notRequested(`a top-up for debit ${input.causeId}`);
      return fn(sql);
    });
  };
  return {
    async planTopup(input: TopupInput): Promise<TopupPlan | null> {
      return forDebit(input, (sql) => planTopup(sql, input.causeId));
    },
    async chargeTopup(input: TopupInput & { amount: string; currencyCode: string; paymentMethod: string; paymentMethodId: string | null }): Promise<ChargeResult> {
      await forDebit(input, async () => undefined);
      try {
        return await gateway.charge({ key: `topup:${input.causeId}`, amount: input.amount, currencyCode: input.currencyCode, paymentMethod: input.paymentMethod, paymentMethodId: input.paymentMethodId });
      } catch (err) {
        // An outage is retried by Temporal; the same key makes a retried charge the same charge.
        if (err instanceof GatewayUnavailable) throw err;
        throw ApplicationFailure.nonRetryable(String(err), 'GATEWAY_ERROR');
      }
    },
    async creditTopup(input: TopupInput & { walletId: string; amount: string; chargeId: string }): Promise<void> {
      await forDebit(input, (sql) =>
        creditTopup(sql, system(input.organisationId, 'auto-topup'), input.causeId, input.walletId, new Money(input.amount), input.chargeId),
      );
    },
  };
}
