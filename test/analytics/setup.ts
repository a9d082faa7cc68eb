// Shared by the analytics tests: facts made through the API, as a till and a back office would
// make them (network units with taps, a buyer whose account earns a fixed award per purchase,
// purchases at chosen instants).
import { api } from '../support/api';
import { createId } from '../money/helpers';

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}-${Date.now().toString(36)}`;

export interface Unit {
  id: string;
  tap: string;
}

/** A unit with one tap. */
export async function unit(key: string, name: string, type: 'MERCHANT' | 'VENUE' | 'SUBSIDIARY', parentId?: string): Promise<Unit> {
  const tap = unique('TAP');
  const id = await createId(key, '/organisations', { code: unique('U'), name, type, parent_id: parentId, taps: [{ name: 'Till', code: tap }] });
  return { id, tap };
}

export interface Buyer {
  contactId: string;
  code: string;
  accountId: string;
  walletId: string;
}

/**
 * A contact whose primary account has a wallet and, since `signedUpOn`, a scheme with one
 * FIXED offer of 1: every purchase writes exactly one AWARD transaction.
 */
export async function buyer(key: string, signedUpOn: number): Promise<Buyer> {
  const code = unique('C');
  const contactId = await createId(key, '/contacts', { contact_type: 'PERSON', code, first_name: 'Ana', last_name: 'Lytics', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
  const accountId = (await api('GET', `/contacts/${contactId}/accounts`, { key })).body.accounts[0].id as string;
  const walletId = await createId(key, `/accounts/${accountId}/wallets`, {});
  const schemeId = await createId(key, '/reward_schemes', { name: 'Club', code: unique('S'), sign_up_option: 'OPEN' });
  await createId(key, '/reward_offers', { reward_scheme_id: schemeId, name: 'One back', award_type: 'FIXED', award_value: 1 });
  const joined = await api('POST', `/accounts/${accountId}/reward_schemes`, { key, body: { reward_scheme_id: schemeId, signed_up_on: signedUpOn } });
  expect(joined.status).toBe(200);
  return { contactId, code, accountId, walletId };
}

/** A purchase of `quantity` items at epoch second `at`; `merchant`/`outlet` are tap codes. */
export async function purchase(key: string, contactId: string, at: number, o: { merchant?: string; outlet?: string; quantity?: number; reference?: string } = {}): Promise<string> {
  return createId(key, '/purchases', {
    contact_id: contactId,
    reference_number: o.reference ?? unique('REF'),
    performed_on: at,
    products: [{ product_sku: 'SKU-1', net_amount: 10, tax_amount: 0, total_amount: 10, quantity: o.quantity ?? 1 }],
    ...(o.merchant ? { merchant_tap: { code: o.merchant } } : {}),
    ...(o.outlet ? { outlet_tap: { code: o.outlet } } : {}),
  });
}

export const epochOf = (iso: string) => Date.parse(iso) / 1000;
