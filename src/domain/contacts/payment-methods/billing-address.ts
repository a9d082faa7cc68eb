import type { Tx } from '../../../db/client';
import { invalid } from '../../errors';
import type { CardHolderDetails } from './types';

/**
 * `use_billing_address: true` copies the billing address of the contact's primary account
 * into the holder address fields; a contact whose primary account has none falls back to its
 * primary address. The copy is taken now: a later change of the address does not follow.
 */
export async function withBillingAddress(tx: Tx, organisationId: string, contactId: string, holder: CardHolderDetails): Promise<CardHolderDetails> {
  const account = await tx.account.findFirst({
    where: { organisationId, contactId, isPrimary: true },
    select: { billingAddress: true },
  });
  const address =
    account?.billingAddress ?? (await tx.contactAddress.findFirst({ where: { organisationId, contactId, isPrimary: true }, orderBy: { createdAt: 'asc' } }));
  if (!address) {
    throw invalid('card_holder_details.use_billing_address', 'The contact has no billing address (primary account) and no primary address to copy');
  }
  return {
    card_holder_name: holder.card_holder_name,
    address_line_1: address.addressLine1 ?? undefined,
    address_line_2: address.addressLine2 ?? undefined,
    address_city: address.townCity ?? undefined,
    address_zip: address.postalCode ?? undefined,
    address_state: address.stateProvinceCounty ?? undefined,
    address_country: address.countryCode ?? undefined,
    use_billing_address: true,
  };
}
