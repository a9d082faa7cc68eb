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
