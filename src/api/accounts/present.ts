// Account records → responses (spec 2.3). Amounts leave through amount(): exact decimals as JSON numbers.
import type { z } from 'zod';
import type { AccountFinancials, AccountListRow, FiguredWallet } from '../../domain/accounts/read';
import type { MemberView } from '../../domain/accounts/members-read';
import { customFieldsOf } from '../../domain/custom-fields/values';
import { limitRulesFromJson } from '../../domain/money/limit-rules';
import type { Settings } from '../../domain/money/settings';
import type { SortField } from '../lists';
import { amount } from '../present';
import { presentLimitRules } from '../money/settings/present';
import type { accountFinancials, accountItem, memberItem } from './schemas';

type Item = z.input<typeof accountItem>;
type Financials = z.input<typeof accountFinancials>;

export const ACCOUNT_SORT: Record<string, SortField> = { number: 'number', name: { field: 'name', nullable: true }, created_on: 'createdAt' };

/** Invoices with due dates do not exist yet, so nothing is overdue (docs/money.md "Balances"). */
const OVERDUE = 0;

export function presentAccountItem(a: AccountListRow): Item {
  const w = a.wallet;
  return {
    id: a.id,
    is_primary: a.isPrimary,
    name: a.name,
    number: a.number,
    life_cycle_state: a.lifeCycleState,
    currency_code: a.currencyCode,
    classification: a.classification,
    balance: amount(a.balance),
    credit_limit: amount(a.creditLimit),
    overdue_amount: OVERDUE,
    billing_address_id: a.billingAddressId,
    wallet: w && { id: w.wallet.id, code: w.wallet.code, balance: amount(w.figures.balance), currency_code: w.wallet.currencyCode, life_cycle_state: w.wallet.lifeCycleState },
    custom_fields: customFieldsOf(a.customFields),
  };
}

export function presentFinancials(f: AccountFinancials): Financials {
  const { account: a, period } = f;
  const address = a.billingAddress;
  return {
    name: a.name,
    number: a.number,
    is_primary: a.isPrimary,
    life_cycle_state: a.lifeCycleState,
    currency_code: a.currencyCode,
    balance: amount(a.balance),
    overdue_amount: OVERDUE,
    credit_limit: amount(a.creditLimit),
    accounting_period_id: period?.id ?? null,
    accounting_period_name: period?.name ?? null,
    opening_balance: amount(f.openingBalance),
    classification: a.classification,
    wallet: f.wallets.map((w) => presentWallet(w, f.settings)),
    billing_address: address && {
      id: address.id,
      address_line_1: address.addressLine1,
      address_line_2: address.addressLine2,
      state_province_county: address.stateProvinceCounty,
      town_city: address.townCity,
      postal_code: address.postalCode,
      country_code: address.countryCode,
    },
    custom_fields: customFieldsOf(a.customFields),
  };
}

/** Stored as the wallets write it: amounts as decimal text (src/domain/wallets). */
type StoredTopup = { threshold: string; amount: string; payment_method: string; payment_method_id?: string | null };

function presentWallet({ wallet: w, figures }: FiguredWallet, settings: Settings): Financials['wallet'][number] {
  const topup = w.autoTopup as StoredTopup | null;
  return {
    id: w.id,
    code: w.code,
    balance: amount(figures.balance),
    commerce_balance: amount(figures.commerce),
    open_balance: amount(figures.open),
    life_cycle_state: w.lifeCycleState,
    // A wallet without its own minimum or rules follows the organisation's (spec 8 "global rules").
    minimum_balance: amount(w.minimumBalance ?? settings.defaultWalletMinimumBalance),
    limit_rules: presentLimitRules(w.limitRules === null ? settings.limitRules : limitRulesFromJson(w.limitRules)),
    auto_topup: topup && { threshold: amount(topup.threshold), amount: amount(topup.amount), payment_method: topup.payment_method, payment_method_id: topup.payment_method_id ?? null },
  };
}

export function presentMember(m: MemberView): z.input<typeof memberItem> {
  return {
    id: m.row.id,
    member_account_id: m.row.memberAccountId,
    number: m.row.member.number,
    funding_scope: m.row.fundingScope as z.input<typeof memberItem>['funding_scope'],
    products: m.products,
    product_types: m.productTypes,
    product_families: m.productFamilies,
  };
}
