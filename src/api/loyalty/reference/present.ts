import type { z } from 'zod';
import type { RewardTier, VoucherType } from '../../../db/client';
import type { RewardOfferFilter, RewardOfferRecord } from '../../../domain/loyalty/reference/offers';
import type { RewardSchemeFilter, RewardSchemeRecord } from '../../../domain/loyalty/reference/schemes';
import type { VoucherTypeFilter } from '../../../domain/loyalty/reference/voucher-types';
import type { ProductIdType } from '../../../domain/spend-conditions/read';
import { nameCodeFilter } from '../../lists';
import { amount, epoch } from '../../present';
import type {
  rewardOfferItem,
  rewardOfferListQuery,
  rewardSchemeItem,
  rewardSchemeListQuery,
  rewardTierItem,
  voucherTypeItem,
  voucherTypeListQuery,
} from './schemas';

type Item<S extends z.ZodType> = z.input<S>;

const stamps = (r: { createdAt: Date; updatedAt: Date }) => ({ created_on: epoch(r.createdAt), updated_on: epoch(r.updatedAt) });
const unit = (u: { id: string; name: string; code: string }) => ({ id: u.id, name: u.name, code: u.code });

export function presentRewardScheme(s: RewardSchemeRecord): Item<typeof rewardSchemeItem> {
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    description: s.description,
    sign_up_option: s.signUpOption as Item<typeof rewardSchemeItem>['sign_up_option'],
    sign_up_codes: s.signUpCodes,
    allowed_domains: s.allowedDomains,
    merchants: s.merchants.map((m) => unit(m.unit)),
    ...stamps(s),
  };
}

export function rewardSchemeFilter(q: z.output<typeof rewardSchemeListQuery>): RewardSchemeFilter {
  return { ...nameCodeFilter(q), signUpOption: q.sign_up_option };
}

export function presentRewardTier(t: RewardTier): Item<typeof rewardTierItem> {
  return {
    id: t.id,
    code: t.code,
    name: t.name,
    color: t.color,
    position: t.position,
    period_value_units: amount(t.periodValueUnits),
    lifetime_value_units: amount(t.lifetimeValueUnits),
    ...stamps(t),
  };
}

export function presentRewardOffer(o: RewardOfferRecord): Item<typeof rewardOfferItem> {
  type Out = Item<typeof rewardOfferItem>;
  return {
    id: o.id,
    code: o.code,
    name: o.name,
    description: o.description,
    reward_scheme: o.scheme,
    life_cycle_state: o.lifeCycleState as Out['life_cycle_state'],
    award_type: o.awardType as Out['award_type'],
    award_value: amount(o.awardValue),
    minimum_purchase: amount(o.minimumPurchase),
    products: o.products.map((p) => {
      // Exactly the reference id_type names is set (src/domain/loyalty/reference/refs.ts).
      const target = (p.productFamily ?? p.productType ?? p.product)!;
      return { id_type: p.idType as ProductIdType, id: target.id, name: target.name, description: target.description };
    }),
    merchants: o.merchants.map((m) => unit(m.unit)),
    spend_condition: o.spendCondition,
    validity: o.validityPeriod !== null && o.validityUot !== null ? { period: o.validityPeriod, uot: o.validityUot as NonNullable<Out['validity']>['uot'] } : null,
    voucher_type: o.voucherType,
    valid_from: epoch(o.validFrom),
    valid_to: epoch(o.validTo),
    ...stamps(o),
  };
}

export function rewardOfferFilter(q: z.output<typeof rewardOfferListQuery>): RewardOfferFilter {
  return { ...nameCodeFilter(q), schemeId: q.reward_scheme_id, lifeCycleState: q.life_cycle_state };
}

export function presentVoucherType(v: VoucherType): Item<typeof voucherTypeItem> {
  type Out = Item<typeof voucherTypeItem>;
  return {
    id: v.id,
    code: v.code,
    name: v.name,
    description: v.description,
    value_type: v.valueType as Out['value_type'],
    value: amount(v.value),
    minimum_value: amount(v.minimumValue),
    maximum_value: amount(v.maximumValue),
    extra_added_value: amount(v.extraAddedValue),
    currency_code: v.currencyCode,
    validity_period: v.validityPeriod,
    validity_uot: v.validityUot as Out['validity_uot'],
    classification: v.classification as Out['classification'],
    category: v.category as Out['category'],
    ...stamps(v),
  };
}

export function voucherTypeFilter(q: z.output<typeof voucherTypeListQuery>): VoucherTypeFilter {
  return { ...nameCodeFilter(q), valueType: q.value_type, classification: q.classification, category: q.category };
}
