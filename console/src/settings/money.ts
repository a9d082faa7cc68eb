// The organisation's money settings as a form: amounts and rates as the text typed (the API takes
// decimal strings, so nothing passes through a binary float), and the body of only what changed.
import type { Body, Get } from '../api/types';

export type Settings = Get<'/settings'>;
type SettingsBody = Body<'/settings', 'put'>;
type Rule = Settings['limit_rules'][number];

export interface DraftRule {
  key: string;
  period: Rule['period'];
  transaction_type: Rule['transaction_type'];
  minimum_amount: string;
  maximum_amount: string;
}

export interface Draft {
  system_currency_code: string;
  alternative_currency_code: string;
  alternative_currency_rate: string;
  credit_limit_min: string;
  credit_limit_max: string;
  default_wallet_minimum_balance: string;
  time_zone: string;
  limit_rules: DraftRule[];
}

export const TOP_FIELDS = [
  'system_currency_code',
  'alternative_currency_code',
  'alternative_currency_rate',
  'credit_limit_min',
  'credit_limit_max',
  'default_wallet_minimum_balance',
  'time_zone',
  'limit_rules',
] as const;

/** The form's field names, for errors at the field: `limit_rules.1.maximum_amount` is a rule's. */
export const fieldsOf = (d: Draft) => [
  ...TOP_FIELDS,
  ...d.limit_rules.flatMap((_, i) => ['period', 'transaction_type', 'minimum_amount', 'maximum_amount'].map((f) => `limit_rules.${i}.${f}`)),
];

const text = (n: number | null) => (n === null ? '' : String(n));
let keys = 0;
export const newRule = (): DraftRule => ({ key: `rule-${++keys}`, period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: '', maximum_amount: '' });

export function draftOf(s: Settings): Draft {
  return {
    system_currency_code: s.system_currency_code,
    alternative_currency_code: s.alternative_currency_code ?? '',
    alternative_currency_rate: text(s.alternative_currency_rate),
    credit_limit_min: text(s.credit_limit_min),
    credit_limit_max: text(s.credit_limit_max),
    default_wallet_minimum_balance: text(s.default_wallet_minimum_balance),
    time_zone: s.time_zone,
    limit_rules: s.limit_rules.map((r) => ({ ...newRule(), period: r.period, transaction_type: r.transaction_type, minimum_amount: text(r.minimum_amount), maximum_amount: text(r.maximum_amount) })),
  };
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
const rulesOf = (rules: DraftRule[]) =>
  rules.map((r) => ({ period: r.period, transaction_type: r.transaction_type, minimum_amount: orNull(r.minimum_amount), maximum_amount: orNull(r.maximum_amount) }));

/** Only the fields that differ from what was loaded: a partial PUT leaves the others as they are. */
export function changesOf(d: Draft, loaded: Settings): SettingsBody {
  const before = draftOf(loaded);
  const body: SettingsBody = {};
  const changed = (f: keyof Omit<Draft, 'limit_rules'>) => d[f].trim() !== before[f];
  if (changed('system_currency_code')) body.system_currency_code = d.system_currency_code.trim();
  if (changed('alternative_currency_code')) body.alternative_currency_code = orNull(d.alternative_currency_code);
  if (changed('alternative_currency_rate')) body.alternative_currency_rate = orNull(d.alternative_currency_rate);
  if (changed('credit_limit_min')) body.credit_limit_min = orNull(d.credit_limit_min);
  if (changed('credit_limit_max')) body.credit_limit_max = orNull(d.credit_limit_max);
  // Required by the API when given: an emptied field is sent as is, so the API names it.
  if (changed('default_wallet_minimum_balance')) body.default_wallet_minimum_balance = d.default_wallet_minimum_balance.trim();
  if (changed('time_zone')) body.time_zone = d.time_zone;
  if (JSON.stringify(rulesOf(d.limit_rules)) !== JSON.stringify(rulesOf(before.limit_rules))) body.limit_rules = rulesOf(d.limit_rules);
  return body;
}
