import type { z } from 'zod';
import type { LimitRule } from '../../../domain/money/limit-rules';
import type { Settings } from '../../../domain/money/settings';
import { amount, epoch } from '../../present';
import type { settingsResponse } from './schemas';

export function presentSettings(s: Settings): z.input<typeof settingsResponse> {
  return {
    system_currency_code: s.systemCurrencyCode,
    alternative_currency_code: s.alternativeCurrencyCode,
    alternative_currency_rate: amount(s.alternativeCurrencyRate),
    credit_limit_min: amount(s.creditLimitMin),
    credit_limit_max: amount(s.creditLimitMax),
    default_wallet_minimum_balance: amount(s.defaultWalletMinimumBalance),
    limit_rules: presentLimitRules(s.limitRules),
    time_zone: s.timeZone,
    updated_on: epoch(s.updatedAt),
  };
}

/** The settings' global rules and a wallet's own (account financials) leave in one form. */
export function presentLimitRules(rules: LimitRule[]): z.input<typeof settingsResponse>['limit_rules'] {
  return rules.map((r) => ({
    period: r.period,
    transaction_type: r.transactionType,
    minimum_amount: amount(r.minimumAmount),
    maximum_amount: amount(r.maximumAmount),
  }));
}
