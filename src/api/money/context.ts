// What a ledger write needs from its request (docs/money.md "The write path"): the request's
// transaction as ctx.sql, the actor, and the settings on demand.
import { actorOf } from '../../domain/audit';
import type { MoneyContext } from '../../domain/money/ledger/journal';
import { getSettingsSql } from '../../domain/money/settings';
import type { RequestContext } from '../route';

export function moneyContext(ctx: RequestContext): MoneyContext {
  let settings: ReturnType<typeof getSettingsSql> | undefined;
  return {
    sql: ctx.sql,
    actor: actorOf(ctx),
    // Read once per request, on its transaction.
    settings: () => (settings ??= getSettingsSql(ctx.sql)),
  };
}
