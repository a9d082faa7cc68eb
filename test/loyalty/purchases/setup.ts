// Shared by the purchase tests: a merchant with a tap, a scheme with offers the account joins
// (written straight to the database: the reference-data API has tests of its own), purchases.
import type { Db } from '../../../src/db/client';
import { newId } from '../../../src/domain/ids';
import { api } from '../../support/api';
import { createId } from '../../money/helpers';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}-${Date.now().toString(36)}`;

/** A MERCHANT unit with one tap; answers the unit id and the tap code. */
export async function merchant(key: string, extra: Record<string, unknown> = {}): Promise<{ unitId: string; tapCode: string }> {
  const tapCode = unique('TAP');
  const unitId = await createId(key, '/organisations', { code: unique('M'), name: 'Cafe', type: 'MERCHANT', taps: [{ name: 'Till', code: tapCode }], ...extra });
  return { unitId, tapCode };
}

export interface OfferSpec {
  awardType?: 'PERCENTAGE' | 'FIXED';
  awardValue?: string;
  minimumPurchase?: string;
  spendConditionId?: string;
  validityPeriod?: number;
  validityUot?: string;
  voucherTypeId?: string;
  merchants?: string[];
  productIds?: string[];
}

/** A scheme with one offer per spec, joined by the account; answers the scheme and offer ids. */
export async function schemeWithOffers(db: Db, organisationId: string, accountId: string | null, offers: OfferSpec[], schemeMerchants: string[] = []) {
  const schemeId = newId();
  await db.rewardScheme.create({ data: { id: schemeId, organisationId, name: 'Club', code: unique('S'), signUpOption: 'OPEN' } });
  for (const [position, unitId] of schemeMerchants.entries()) await db.rewardSchemeMerchant.create({ data: { organisationId, schemeId, unitId, position } });
  const offerIds: string[] = [];
  for (const o of offers) {
    const id = newId();
    offerIds.push(id);
    await db.rewardOffer.create({
      data: {
        id, organisationId, schemeId, name: `Offer ${offerIds.length}`, awardType: o.awardType ?? 'PERCENTAGE', awardValue: o.awardValue ?? '10',
        minimumPurchase: o.minimumPurchase, spendConditionId: o.spendConditionId, validityPeriod: o.validityPeriod, validityUot: o.validityUot, voucherTypeId: o.voucherTypeId,
      },
    });
    for (const [position, unitId] of (o.merchants ?? []).entries()) await db.rewardOfferMerchant.create({ data: { organisationId, offerId: id, unitId, position } });
    for (const [position, productId] of (o.productIds ?? []).entries()) {
      await db.rewardOfferProduct.create({ data: { id: newId(), organisationId, offerId: id, position, idType: 'PRODUCT', productId } });
    }
  }
  if (accountId) await join(db, organisationId, accountId, schemeId);
  return { schemeId, offerIds };
}

export async function join(db: Db, organisationId: string, accountId: string, schemeId: string): Promise<void> {
  await db.accountRewardScheme.create({ data: { organisationId, accountId, schemeId, signedUpOn: new Date(Date.now() - 60_000) } });
}

/** A purchase body of one line; total = net + tax. */
export function purchaseBody(contactId: string, total: number, extra: Record<string, unknown> = {}) {
  const tax = Math.round(total * 15) / 100;
  return {
    contact_id: contactId,
    reference_number: unique('REF'),
    products: [{ product_sku: 'SKU-1', net_amount: Math.round((total - tax) * 100) / 100, tax_amount: tax, total_amount: total }],
    ...extra,
  };
}

export function purchase(key: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return api('POST', '/purchases', { key, body, headers });
}
