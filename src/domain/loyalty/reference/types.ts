// The input types of the loyalty reference data: the request schemas' outputs.
import type { z } from 'zod';
import type {
  rewardOfferCreateBody,
  rewardOfferUpdateBody,
  rewardSchemeCreateBody,
  rewardSchemeUpdateBody,
  rewardTierCreateBody,
  rewardTierUpdateBody,
  voucherTypeCreateBody,
  voucherTypeUpdateBody,
} from '../../../api/loyalty/reference/schemas';

export type RewardSchemeInput = z.output<typeof rewardSchemeCreateBody>;
export type RewardSchemePatch = z.output<typeof rewardSchemeUpdateBody>;
export type RewardTierInput = z.output<typeof rewardTierCreateBody>;
export type RewardTierPatch = z.output<typeof rewardTierUpdateBody>;
export type RewardOfferInput = z.output<typeof rewardOfferCreateBody>;
export type RewardOfferPatch = z.output<typeof rewardOfferUpdateBody>;
export type VoucherTypeInput = z.output<typeof voucherTypeCreateBody>;
export type VoucherTypePatch = z.output<typeof voucherTypeUpdateBody>;

