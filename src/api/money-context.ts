// What a ledger write needs from its request (docs/money.md "The write path"): the request's
// transaction as ctx.sql, the actor, the settings on demand, and the top-up workflow's intent.
import { actorOf } from '../domain/audit';
import type { MoneyContext } from '../domain/money/ledger/journal';
import { getSettingsSql } from '../domain/money/settings';
import { recordIntent } from '../temporal/intents';
import { topupWorkflowId } from '../workflows/contracts';
import type { RequestContext } from './route';

export function moneyContext(ctx: RequestContext): MoneyContext {
  let settings: ReturnType<typeof getSettingsSql> | undefined;
  return {
    sql: ctx.sql,
    actor: actorOf(ctx),
    // Read once per request, on its transaction.
    settings: () => (settings ??= getSettingsSql(ctx.sql)),
    // With the debit, in its transaction: the top-up starts once the debit committed, and never without it.
    startTopup: async (causeId, currencyCode, walletId) => {
      await recordIntent(ctx.sql, {
        kind: 'start', workflow: 'walletTopupWorkflow', workflowId: topupWorkflowId(causeId),
        input: { organisationId: ctx.organisationId, causeId, currencyCode }, search: { entityType: 'WALLETS', entityId: walletId },
      });
    },
  };
}
