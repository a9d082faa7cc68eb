// The organisation's money settings (docs/money-reference.md "Settings"): one row, created by the
// first PUT; until then, and for every field never set, the defaults below.
import type { z } from 'zod';
import type { settingsBody } from '../../api/money/settings/schemas';
import type { OrganisationSetting, Tx } from '../../db/client';
import { txSql, type OrgSql } from '../../db/sql';
import { checkTimeZoneKnown } from '../analytics/time-zone';
import { audit, type AuditActor } from '../audit';
import { invalid } from '../errors';
import { lockOrganisation } from '../locks';
import { Money } from '../money';
import { limitRulesFromInput, limitRulesFromJson, limitRulesToJson, type LimitRule } from './limit-rules';

export type SettingsPatch = z.output<typeof settingsBody>;

export interface Settings {
  systemCurrencyCode: string;
  alternativeCurrencyCode: string | null;
  /** Alternative units per one system unit; set exactly when alternativeCurrencyCode is. */
  alternativeCurrencyRate: Money | null;
  /** Range of an account's credit_limit; null: unbounded on that side. */
  creditLimitMin: Money | null;
  creditLimitMax: Money | null;
  /** Minimum balance of a wallet that sets none. */
  defaultWalletMinimumBalance: Money;
  /** Global rules: apply to wallets without rules of their own. */
  limitRules: LimitRule[];
  /** IANA zone of the analytics' hours, days, weeks and months (docs/analytics.md). */
  timeZone: string;
  /** Null while the organisation has never set anything (all defaults). */
  updatedAt: Date | null;
}

export const SETTINGS_DEFAULTS: Settings = {
  systemCurrencyCode: 'EUR',
  alternativeCurrencyCode: null,
  alternativeCurrencyRate: null,
  creditLimitMin: null,
  creditLimitMax: null,
  defaultWalletMinimumBalance: new Money(0),
  limitRules: [],
  timeZone: 'UTC',
  updatedAt: null,
};

/** The settings through a Prisma client or transaction; one read, the one getSettingsSql makes. */
export async function getSettings(tx: Tx, organisationId: string): Promise<Settings> {
  return getSettingsSql(txSql(tx, organisationId));
}

/** Partial update: the merged result must hold together (the rules below name the field). */
export async function updateSettings(tx: Tx, actor: AuditActor, patch: SettingsPatch): Promise<Settings> {
  const { organisationId } = actor;
  // Two partial updates must not each pass against the old row and together break a rule.
  await lockOrganisation(tx, organisationId, 'settings');
  const next = merge(await getSettings(tx, organisationId), patch);
  check(next);
  if (patch.time_zone !== undefined) await checkTimeZoneKnown(txSql(tx, organisationId), patch.time_zone);
  const data = {
    systemCurrencyCode: next.systemCurrencyCode,
    alternativeCurrencyCode: next.alternativeCurrencyCode,
    alternativeCurrencyRate: next.alternativeCurrencyRate,
    creditLimitMin: next.creditLimitMin,
    creditLimitMax: next.creditLimitMax,
    defaultWalletMinimumBalance: next.defaultWalletMinimumBalance,
    limitRules: limitRulesToJson(next.limitRules),
    timeZone: next.timeZone,
  };
  const row = await tx.organisationSetting.upsert({ where: { organisationId }, create: { organisationId, ...data }, update: data });
  await audit(tx, actor, { action: 'UPDATE', entityType: 'organisation_settings', entityId: organisationId, changes: { fields: Object.keys(patch) } });
  return fromRow(row);
}

function merge(current: Settings, patch: SettingsPatch): Settings {
  const pick = <T>(given: T | undefined, kept: T): T => (given === undefined ? kept : given);
  const code = pick(patch.alternative_currency_code, current.alternativeCurrencyCode);
  // Clearing the alternative currency clears its rate with it.
  const keptRate = patch.alternative_currency_code === null ? null : current.alternativeCurrencyRate;
  return {
    systemCurrencyCode: pick(patch.system_currency_code, current.systemCurrencyCode),
    alternativeCurrencyCode: code,
    alternativeCurrencyRate: pick(patch.alternative_currency_rate, keptRate),
    creditLimitMin: pick(patch.credit_limit_min, current.creditLimitMin),
    creditLimitMax: pick(patch.credit_limit_max, current.creditLimitMax),
    defaultWalletMinimumBalance: pick(patch.default_wallet_minimum_balance, current.defaultWalletMinimumBalance),
    limitRules: patch.limit_rules ? limitRulesFromInput(patch.limit_rules) : current.limitRules,
    timeZone: pick(patch.time_zone, current.timeZone),
    updatedAt: current.updatedAt,
  };
}

function check(s: Settings): void {
  if (s.alternativeCurrencyCode !== null && s.alternativeCurrencyRate === null) {
    throw invalid('alternative_currency_rate', 'alternative_currency_rate is required when alternative_currency_code is set');
  }
  if (s.alternativeCurrencyCode === null && s.alternativeCurrencyRate !== null) {
    throw invalid('alternative_currency_rate', 'alternative_currency_rate needs an alternative_currency_code');
  }
  if (s.alternativeCurrencyCode === s.systemCurrencyCode) {
    throw invalid('alternative_currency_code', 'alternative_currency_code must differ from system_currency_code');
  }
  if (s.creditLimitMin !== null && s.creditLimitMax !== null && s.creditLimitMin.gt(s.creditLimitMax)) {
    throw invalid('credit_limit_max', 'credit_limit_max must not be less than credit_limit_min');
  }
}

function fromRow(row: OrganisationSetting): Settings {
  return {
    systemCurrencyCode: row.systemCurrencyCode,
    alternativeCurrencyCode: row.alternativeCurrencyCode,
    alternativeCurrencyRate: row.alternativeCurrencyRate,
    creditLimitMin: row.creditLimitMin,
    creditLimitMax: row.creditLimitMax,
    defaultWalletMinimumBalance: row.defaultWalletMinimumBalance,
    limitRules: limitRulesFromJson(row.limitRules),
    timeZone: row.timeZone,
    updatedAt: row.updatedAt,
  };
}

/** The organisation's time zone as an SQL expression ($1 = the organisation), for statements that read it along. */
export const TIME_ZONE_SQL = `COALESCE((SELECT s.time_zone FROM organisation_settings s WHERE s.organisation_id = $1), '${SETTINGS_DEFAULTS.timeZone}')`;

export const SETTINGS_ROW = `SELECT system_currency_code AS "systemCurrencyCode", alternative_currency_code AS "alternativeCurrencyCode",
  alternative_currency_rate::text AS "alternativeCurrencyRate", credit_limit_min::text AS "creditLimitMin", credit_limit_max::text AS "creditLimitMax",
  default_wallet_minimum_balance::text AS "defaultWalletMinimumBalance", limit_rules AS "limitRules",
  time_zone AS "timeZone", updated_at AS "updatedAt"
FROM organisation_settings WHERE organisation_id = $1`;

/** The settings on ctx.sql (the ledger's own transactions hold no Prisma client). */
export async function getSettingsSql(sql: OrgSql): Promise<Settings> {
  const [row] = await sql.rows<SettingsRow>(SETTINGS_ROW);
  return settingsOf(row);
}

export type SettingsRow = Record<string, string | null> & { limitRules: unknown; updatedAt: Date };

/** Settings from a SETTINGS_ROW row (also read as JSON inside a larger statement); none: the defaults. */
export function settingsOf(row: SettingsRow | null | undefined): Settings {
  if (!row) return { ...SETTINGS_DEFAULTS };
  const money = (v: string | null) => (v === null ? null : new Money(v));
  return {
    systemCurrencyCode: row.systemCurrencyCode!,
    alternativeCurrencyCode: row.alternativeCurrencyCode,
    alternativeCurrencyRate: money(row.alternativeCurrencyRate),
    creditLimitMin: money(row.creditLimitMin),
    creditLimitMax: money(row.creditLimitMax),
    defaultWalletMinimumBalance: new Money(row.defaultWalletMinimumBalance!),
    limitRules: limitRulesFromJson(row.limitRules),
    timeZone: row.timeZone!,
    updatedAt: row.updatedAt === null ? null : new Date(row.updatedAt),
  };
}
