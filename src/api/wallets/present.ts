// Money leaves here as JSON numbers; alternative figures use the settings' rate (docs/money.md).
import type { z } from 'zod';
import type { ContactWallet, TransactionRow, BalanceBucket } from '../../domain/money/ledger/reads';
import type { Settings } from '../../domain/money/settings';
import type { Money } from '../../domain/money';
import type { SpendConditionView } from '../../domain/spend-conditions/read';
import { presentSpendCondition } from '../spend-conditions/present';
import { alternativeAmount, amount, epoch } from '../present';
import type { balanceItem, contactWallet, walletTransaction } from './responses';

const alternative = (settings: Settings, value: Money) => alternativeAmount(settings.alternativeCurrencyRate, value);

export function presentContactWallet(w: ContactWallet, settings: Settings): z.input<typeof contactWallet> {
  const f = w.figures;
  return {
    id: w.id, account_id: w.accountId, number: w.code, life_cycle_state: w.lifeCycleState,
    balance: amount(f.balance), alternative_balance: alternative(settings, f.balance),
    currency_code: w.currencyCode, alternative_currency_code: settings.alternativeCurrencyCode,
    conditional_balance: amount(f.conditional), conditional_alternative_balance: alternative(settings, f.conditional),
    unconditional_balance: amount(f.unconditional), unconditional_alternative_balance: alternative(settings, f.unconditional),
    commerce_balance: amount(f.commerce), open_balance: amount(f.open),
    amount_on_hold: amount(f.onHold), alternative_amount_on_hold: alternative(settings, f.onHold),
  };
}

export function presentTransaction(t: TransactionRow): z.input<typeof walletTransaction> {
  return {
    id: t.id, account_id: t.accountId, wallet_id: t.walletId, number: t.number, classification: t.classification, life_cycle_state: t.lifeCycleState,
    // No exchange rates exist: the amount is in the wallet's currency and nothing extra is added.
    amount: amount(t.amount), currency_code: t.currencyCode, extra_added_amount: null,
    transaction_date: epoch(t.transactionDate), expiration_date: t.expirationDate ? epoch(t.expirationDate) : null,
    created_by: { id: t.createdBy }, created_on: epoch(t.createdAt),
  };
}

export function presentBalance(b: BalanceBucket, condition: SpendConditionView | undefined, withExpiration: boolean): z.input<typeof balanceItem> {
  const c = condition ? presentSpendCondition(condition) : null;
  return {
    amount: amount(b.amount),
    id: b.spendConditionId,
    name: c?.name ?? null,
    organisations: c?.organisations ?? [],
    products: c?.products ?? [],
    timings: c?.timings ?? [],
    ...(withExpiration
      ? { expiration: { zero_to_thirty: amount(b.expiration.zeroToThirty), thirty_to_sixty: amount(b.expiration.thirtyToSixty), sixty_to_ninety: amount(b.expiration.sixtyToNinety), ninety_plus: amount(b.expiration.ninetyPlus) } }
      : {}),
  };
}
