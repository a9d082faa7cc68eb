// Which parts a payment method of each type needs, and the checks on each part. Pure: the
// database is only consulted later, for the billing address.
import { invalid } from '../../errors';
import { validateIban } from '../iban';
import { checkExpiry, checkMaskedCard } from './card';
import type { BankDetails, CardClassification, CardGatewayToken, CardHolderDetails, PaymentMethodInput } from './types';

/** The stored form of a payment method, before the contact and default flag are attached. */
export interface CheckedPaymentMethod {
  type: string;
  notes: string | null;
  bank: BankDetails | null;
  iban: string | null;
  accountNumber: string | null;
  cardName: string | null;
  brand: string | null;
  maskedNumber: string | null;
  first6: string | null;
  last4: string | null;
  fingerprint: string | null;
  expirationMonth: number | null;
  expirationYear: number | null;
  fundingType: string | null;
  classification: CardClassification | null;
  holder: CardHolderDetails | null;
  gatewayTokens: CardGatewayToken[] | null;
  gatewayUsername: string | null;
}

export function checkPaymentMethod(input: PaymentMethodInput, now: Date): CheckedPaymentMethod {
  const type = input.payment_method_type;
  const isCard = type === 'CARD';
  const isBank = type === 'BANK';
  const isOnline = !isCard && !isBank;
  refuseUnless(isCard, input.card, 'card', 'CARD');
  refuseUnless(isCard, input.card_holder_details, 'card_holder_details', 'CARD');
  refuseUnless(isCard, input.card_gateway_token, 'card_gateway_token', 'CARD');
  refuseUnless(isBank, input.bank, 'bank', 'BANK');
  refuseUnless(isOnline, input.payment_gateway_token, 'payment_gateway_token', 'online gateway');
  if (isCard && !input.card) throw invalid('card', 'card is required when payment_method_type is CARD');
  if (isBank && !input.bank) throw invalid('bank', 'bank is required when payment_method_type is BANK');
  if (isOnline && !input.payment_gateway_token) {
    throw invalid('payment_gateway_token', `payment_gateway_token (the ${type} account username) is required when payment_method_type is ${type}`);
  }

  const bank = input.bank ? checkBank(input.bank) : null;
  const card = input.card;
  const masked = card ? checkMaskedCard(card) : null;
  if (card) checkExpiry(card, now);
  const gatewayTokens = input.card_gateway_token ? checkGatewayTokens(input.card_gateway_token) : null;
  return {
    type,
    notes: input.notes ?? null,
    bank,
    iban: bank?.iban ?? null,
    accountNumber: bank?.account_number ?? null,
    cardName: card?.name ?? null,
    brand: card?.brand ?? null,
    maskedNumber: masked?.maskedNumber ?? null,
    first6: masked?.first6 ?? null,
    last4: masked?.last4 ?? null,
    fingerprint: card?.fingerprint ?? null,
    expirationMonth: card?.expiration_month ?? null,
    expirationYear: card?.expiration_year ?? null,
    fundingType: card?.funding_type ?? null,
    classification: card?.classification ?? null,
    holder: input.card_holder_details ?? null,
    gatewayTokens,
    gatewayUsername: input.payment_gateway_token ?? null,
  };
}

/** A part that belongs to another type is refused rather than silently stored. */
function refuseUnless(allowed: boolean, part: unknown, attribute: string, owner: string) {
  if (!allowed && part !== undefined) throw invalid(attribute, `${attribute} is only allowed when payment_method_type is ${owner}`);
}

function checkBank(bank: BankDetails): BankDetails {
  if (!bank.account_number && !bank.iban) throw invalid('bank.account_number', 'bank needs an account_number or an iban');
  if (bank.iban === undefined) return bank;
  const result = validateIban(bank.iban);
  if (!result.ok) throw invalid('bank.iban', `bank.iban ${result.reason}`);
  return { ...bank, iban: result.iban };
}

function checkGatewayTokens(tokens: CardGatewayToken[]): CardGatewayToken[] {
  tokens.forEach((t, i) => {
    const at = `card_gateway_token.${i}.gateway_code`;
    if (t.gateway === 'GENERIC' && !t.gateway_code) throw invalid(at, `${at} is required when gateway is GENERIC`);
    if (t.gateway !== 'GENERIC' && t.gateway_code !== undefined) throw invalid(at, `${at} is only allowed when gateway is GENERIC`);
  });
  return tokens;
}
