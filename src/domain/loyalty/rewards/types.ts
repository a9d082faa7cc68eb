// Inputs of the reward operations: what the request schemas produce after validation.
import type { z } from 'zod';
import type { merchantListQuery, rewardMerchantsBody, rewardsUpdateBody, schemeSignUpBody } from '../../../api/loyalty/rewards/schemas';

export type RewardsUpdateInput = z.output<typeof rewardsUpdateBody>;
export type AutoSpendInput = NonNullable<RewardsUpdateInput['automatic_spend_settings']>;
export type MerchantsInput = z.output<typeof rewardMerchantsBody>;
export type SchemeSignUpInput = z.output<typeof schemeSignUpBody>;
export type MerchantListFilter = Pick<z.output<typeof merchantListQuery>, 'reward_scheme_id' | 'include_schemes' | 'include_venues'>;
