// Organisation settings (API-CONVENTIONS "Organisations and reference data"), one record per
// organisation; decisions in docs/money-reference.md "Settings".
import { actorOf } from '../../../domain/audit';
import { getSettings, updateSettings } from '../../../domain/money/settings';
import { route, type RouteDef } from '../../route';
import { presentSettings } from './present';
import { settingsBody, settingsResponse } from './schemas';

const TAG = 'Settings';

export function settingsRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/settings', operationId: 'getSettings', tag: TAG, auth: { scope: 'settings:read' },
      summary: "Get the organisation's money settings",
      description: 'Defaults until set: system currency EUR, no alternative currency, no credit-limit bounds, wallet minimum balance 0, no global limit rules, time_zone UTC.',
      response: settingsResponse,
      handler: async ({ ctx }) => presentSettings(await getSettings(ctx.db, ctx.organisationId)),
    }),
    route({
      method: 'put', path: '/settings', operationId: 'updateSettings', tag: TAG, auth: { scope: 'settings:write' },
      summary: "Change the organisation's money settings",
      description:
        'Partial: only the fields given change (limit_rules replaces the list). alternative_currency_rate is required while alternative_currency_code is set; ' +
        'credit_limit_min must not exceed credit_limit_max. time_zone is an IANA name known to the database (400 naming it otherwise). The organisation has one settings record, so this answers with the settings rather than an id.',
      body: settingsBody, response: settingsResponse,
      example: {
        system_currency_code: 'EUR',
        alternative_currency_code: 'PTS',
        alternative_currency_rate: 10,
        credit_limit_min: 0,
        credit_limit_max: 5000,
        default_wallet_minimum_balance: 0,
        limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: 1, maximum_amount: 500 }],
        time_zone: 'Europe/Berlin',
      },
      handler: async ({ ctx, body }) => presentSettings(await updateSettings(ctx.db, actorOf(ctx), body)),
    }),
  ];
}
