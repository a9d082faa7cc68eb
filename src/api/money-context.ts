// What a ledger write needs from its request (docs/money.md "The write path"): the request's
// transaction as ctx.sql, the actor, the settings on demand, and the top-up workflow starter.
import { actorOf } from '../domain/audit';
import type { MoneyContext } from '../domain/money/ledger/journal';
import { getSettingsSql } from '../domain/money/settings';
import { searchAttributes } from '../search-attributes';
import type { AppDeps } from './app';
import type { RequestContext } from './route';

export function moneyContext(deps: AppDeps, ctx: RequestContext): MoneyContext {
  let settings: ReturnType<typeof getSettingsSql> | undefined;
  return {
    sql: ctx.sql,
    actor: actorOf(ctx),
    // Read once per request, on its transaction.
    settings: () => (settings ??= getSettingsSql(ctx.sql)),
    startTopup: async (causeId, currencyCode, walletId) => {
      const input = { organisationId: ctx.organisationId, causeId, currencyCode };
      await deps.workflows.workflow.start('walletTopupWorkflow', {
        workflowId: `wallet-topup:${causeId}`, taskQueue: ctx.config.TEMPORAL_TASK_QUEUE, args: [input],
        typedSearchAttributes: searchAttributes({ organisationId: ctx.organisationId, entityType: 'WALLETS', entityId: walletId }),
      });
    },
  };
}
