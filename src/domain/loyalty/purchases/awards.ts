// The awards of a purchase (docs/loyalty.md "Awards"): every active offer of every scheme the
// account has joined, restricted by merchant and products, on the part of the purchase not paid
// from the wallet. Each award is a credit of the wallet caused by the purchase.
import { Money } from '../../money';
import { expirationOf, type ValidityUnit } from '../validity';

/** A purchased product as the award rules read it (src/domain/loyalty/purchases/resolve.ts loads them). */
export interface ProductRef {
  id: string;
  typeId: string | null;
  familyId: string | null;
}

export interface Offer {
  id: string;
  name: string;
  awardType: 'PERCENTAGE' | 'FIXED';
  awardValue: string;
  minimumPurchase: string | null;
  spendConditionId: string | null;
  validityPeriod: number | null;
  validityUot: string | null;
  voucherTypeId: string | null;
  products: ProductRule[];
  merchants: string[];
  schemeMerchants: string[];
}

/**
 * The offers that may award a purchase of the primary account `a` performed at $3: json of
 * Offer[], a column of the purchase's context statement (resolve.ts). A sign-up counts from its
 * whole second, so a purchase in that second earns (docs/DEVELOPING.md "Times").
 */
export const OFFERS_OF_ACCOUNT = `COALESCE((SELECT json_agg(json_build_object('id', o.id, 'name', o.name, 'awardType', o.award_type,
    'awardValue', o.award_value::text, 'minimumPurchase', o.minimum_purchase::text, 'spendConditionId', o.spend_condition_id,
    'validityPeriod', o.validity_period, 'validityUot', o.validity_uot, 'voucherTypeId', o.voucher_type_id,
    'products', COALESCE((SELECT json_agg(json_build_object('idType', p.id_type, 'id', COALESCE(p.product_id, p.product_type_id, p.product_family_id)))
      FROM reward_offer_products p WHERE p.organisation_id = $1 AND p.offer_id = o.id), '[]'::json),
    'merchants', COALESCE((SELECT json_agg(m.unit_id) FROM reward_offer_merchants m WHERE m.organisation_id = $1 AND m.offer_id = o.id), '[]'::json),
    'schemeMerchants', COALESCE((SELECT json_agg(m.unit_id) FROM reward_scheme_merchants m WHERE m.organisation_id = $1 AND m.scheme_id = o.scheme_id), '[]'::json))
    ORDER BY o.created_at, o.id)
  FROM account_reward_schemes s JOIN reward_offers o ON o.organisation_id = s.organisation_id AND o.scheme_id = s.scheme_id
  WHERE s.organisation_id = $1 AND s.account_id = a.id AND s.ended_on IS NULL AND s.signed_up_on < $3::timestamptz + interval '1 second'
    AND o.life_cycle_state = 'ACTIVE' AND (o.valid_from IS NULL OR o.valid_from <= $3) AND (o.valid_to IS NULL OR o.valid_to > $3)), '[]'::json)`;

export interface Line {
  total: Money;
  product: ProductRef | undefined;
}

export interface AwardPlan {
  offer: Offer;
  amount: Money;
  validTo: Date | null;
}

export interface AwardInput {
  offers: Offer[];
  lines: Line[];
  total: Money;
  /** What the purchase paid from the wallet: it earns nothing. */
  spent: Money;
  merchantUnitId: string | null;
  outletUnitId: string | null;
  performedOn: Date;
}

/** What each offer awards; offers that award nothing are left out. Amounts are in cents, rounded half up. */
export function planAwards(input: AwardInput): AwardPlan[] {
  const paidShare = input.total.isZero() ? new Money(0) : input.total.minus(input.spent).div(input.total);
  const plans: AwardPlan[] = [];
  for (const offer of input.offers) {
    if (!atMerchant(offer.merchants, input) || !atMerchant(offer.schemeMerchants, input)) continue;
    const qualifying = amountOf(input.lines, offer.products);
    if (qualifying.isZero() || (offer.minimumPurchase !== null && qualifying.lt(offer.minimumPurchase))) continue;
    const value = new Money(offer.awardValue);
    const amount = (offer.awardType === 'FIXED' ? value : qualifying.times(paidShare).times(value).div(100)).toDecimalPlaces(2, Money.ROUND_HALF_UP);
    if (!amount.gt(0)) continue;
    const validTo = offer.validityPeriod && offer.validityUot ? expirationOf(input.performedOn, offer.validityPeriod, offer.validityUot as ValidityUnit) : null;
    plans.push({ offer, amount, validTo });
  }
  return plans;
}

/** An offer or scheme without merchants applies everywhere; otherwise the merchant or the outlet must be one of them. */
function atMerchant(units: string[], at: { merchantUnitId: string | null; outletUnitId: string | null }): boolean {
  return !units.length || units.some((u) => u === at.merchantUnitId || u === at.outletUnitId);
}

export interface ProductRule {
  idType: string;
  id: string;
}

/** What the lines come to that the rules cover (no rules: every line); offers and spend conditions share it. */
export function amountOf(lines: Line[], rules: ProductRule[]): Money {
  return lines.filter((l) => covers(rules, l.product)).reduce((sum, l) => sum.plus(l.total), new Money(0));
}

function covers(rules: ProductRule[], product: ProductRef | undefined): boolean {
  if (!rules.length) return true;
  if (!product) return false;
  return rules.some((p) => (p.idType === 'PRODUCT' ? p.id === product.id : p.idType === 'TYPE' ? p.id === product.typeId : p.id === product.familyId));
}
