import type { z } from 'zod';
import type { paymentMethodBody } from '../../../api/contacts/payment-methods/schemas';

export * from './kinds';

/** What the request schema produces (z.output): the domain's input is the API's contract. */
export type PaymentMethodInput = z.output<typeof paymentMethodBody>;
export type BankDetails = NonNullable<PaymentMethodInput['bank']>;
export type CardInput = NonNullable<PaymentMethodInput['card']>;
/** A card classification is a free reference (from R18.2.0), stored as given. */
export type CardClassification = NonNullable<CardInput['classification']>;
export type CardHolderDetails = NonNullable<PaymentMethodInput['card_holder_details']>;
export type CardGatewayToken = NonNullable<PaymentMethodInput['card_gateway_token']>[number];
