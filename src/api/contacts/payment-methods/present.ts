import type { PaymentMethod } from '../../../db/client';
import type { BankDetails, CardClassification, CardHolderDetails, PaymentMethodType } from '../../../domain/contacts/payment-methods/types';
import { epoch } from '../../present';
import type { PaymentMethodItem } from './schemas';

type FundingType = NonNullable<PaymentMethodItem['card']>['funding_type'];

/** List item of spec 2.2, plus the card and holder details the caller gave (tokens stay hidden). */
export function presentPaymentMethod(row: PaymentMethod, accounts: PaymentMethodItem['accounts']): PaymentMethodItem {
  const bank = row.bank as BankDetails | null;
  const holder = row.holder as CardHolderDetails | null;
  const classification = row.classification as CardClassification | null;
  return {
    id: row.id,
    payment_method_type: row.type as PaymentMethodType,
    bank: bank
      ? [{ sort_code: bank.sort_code ?? null, account_number: bank.account_number ?? null, bank: bank.bank ?? null, branch: bank.branch ?? null, iban: bank.iban ?? null }]
      : [],
    payment_gateway_token: row.gatewayUsername,
    card:
      row.maskedNumber && row.last4
        ? {
            name: row.cardName,
            brand_name: row.brand,
            card_number: row.maskedNumber,
            first6: row.first6,
            last4: row.last4,
            expiration_month: row.expirationMonth ?? 0,
            expiration_year: row.expirationYear ?? 0,
            funding_type: row.fundingType as FundingType,
            classification: classification ? { id: classification.id ?? null, name: classification.name ?? null } : null,
          }
        : null,
    card_holder_details: holder
      ? {
          card_holder_name: holder.card_holder_name ?? null,
          address_line_1: holder.address_line_1 ?? null,
          address_line_2: holder.address_line_2 ?? null,
          address_city: holder.address_city ?? null,
          address_zip: holder.address_zip ?? null,
          address_state: holder.address_state ?? null,
          address_country: holder.address_country ?? null,
          use_billing_address: holder.use_billing_address ?? false,
        }
      : null,
    accounts,
    is_default: row.isDefault,
    notes: row.notes,
    created_on: epoch(row.createdAt),
  };
}
