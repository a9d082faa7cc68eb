/**
 * What a payment method is made of. Nested parts keep the API's snake_case names because they
 * are stored as given in JSON columns and read back in the same shape (docs/payment-methods.md).
 */

/** CARD, BANK, or the online payment-gateway account types this service knows. */
export const ONLINE_GATEWAY_TYPES = ['PAYPAL', 'STRIPE', 'ADYEN', 'BRAINTREE'] as const;
export const PAYMENT_METHOD_TYPES = ['CARD', 'BANK', ...ONLINE_GATEWAY_TYPES] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/** Gateways a card token can come from; GENERIC names its implementation in gateway_code. */
export const CARD_GATEWAYS = ['GENERIC', 'STRIPE', 'ADYEN', 'BRAINTREE'] as const;
export const CARD_BRANDS = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'DINERS', 'JCB', 'UNIONPAY', 'MAESTRO', 'OTHER'] as const;
export const FUNDING_TYPES = ['DEBIT', 'CREDIT', 'PREPAID'] as const;

export interface BankDetails {
  sort_code?: string;
  account_number?: string;
  bank?: string;
  branch?: string;
  iban?: string;
}

/** A card classification is a free reference (from R18.2.0), stored as given. */
export interface CardClassification {
  id?: string;
  name?: string;
}

export interface CardInput {
  name?: string;
  brand?: (typeof CARD_BRANDS)[number];
  /** Masked: at most the first 6 and the last 4 digits visible. */
  card_number: string;
  first6?: string;
  last4?: string;
  fingerprint?: string;
  expiration_month: number;
  expiration_year: number;
  is_default?: boolean;
  funding_type?: (typeof FUNDING_TYPES)[number];
  classification?: CardClassification;
}

export interface CardHolderDetails {
  card_holder_name?: string;
  address_line_1?: string;
  address_line_2?: string;
  address_city?: string;
  address_zip?: string;
  address_state?: string;
  address_country?: string;
  use_billing_address?: boolean;
}

export interface CardGatewayToken {
  gateway: (typeof CARD_GATEWAYS)[number];
  gateway_code?: string;
  token: string;
}

export interface PaymentMethodInput {
  id?: string;
  payment_method_type: PaymentMethodType;
  notes?: string;
  is_default?: boolean;
  bank?: BankDetails;
  card?: CardInput;
  card_holder_details?: CardHolderDetails;
  card_gateway_token?: CardGatewayToken[];
  /** Account username at the online gateway (PAYPAL, ...); listed as payment_gateway_token. */
  payment_gateway_token?: string;
}
