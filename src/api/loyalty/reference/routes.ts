// Loyalty reference data (issue 8): reward schemes, tiers and offers, voucher types, purchase
// classifications, in the one shape of API-CONVENTIONS "Organisations and reference data".
// Decisions: docs/loyalty-reference.md.
import { createRewardOffer, deleteRewardOffer, getRewardOffer, listRewardOffers, updateRewardOffer } from '../../../domain/loyalty/reference/offers';
import { createRewardScheme, deleteRewardScheme, getRewardScheme, listRewardSchemes, updateRewardScheme } from '../../../domain/loyalty/reference/schemes';
import { createRewardTier, deleteRewardTier, getRewardTier, listRewardTiers, updateRewardTier } from '../../../domain/loyalty/reference/tiers';
import { createVoucherType, deleteVoucherType, getVoucherType, listVoucherTypes, updateVoucherType } from '../../../domain/loyalty/reference/voucher-types';
import { purchaseClassifications } from '../../../domain/reference/catalogue';
import { nameCodeFilter, NAME_CODE_SORT } from '../../lists';
import { catalogueRoutes, REFERENCE_AUTH } from '../../reference/catalogue-routes';
import { resourceRoutes } from '../../resource';
import type { RouteDef } from '../../route';
import { SOME_ID } from '../../validation';
import { presentRewardOffer, presentRewardScheme, presentRewardTier, presentVoucherType, rewardOfferFilter, rewardSchemeFilter, voucherTypeFilter } from './present';
import * as s from './schemas';

const common = { tag: 'Loyalty', auth: REFERENCE_AUTH };

export function loyaltyReferenceRoutes(): RouteDef[] {
  return [
    ...resourceRoutes({
      ...common, path: '/reward_schemes', one: 'RewardScheme', many: 'RewardSchemes', label: 'reward scheme',
      item: s.rewardSchemeItem, present: presentRewardScheme,
      create: {
        description:
          'sign_up_codes are required (non-empty) for CLOSE_LOOP_SIGN_UP and refused otherwise; allowed_domains likewise for EMAIL_DOMAIN. ' +
          'merchants[] are ids of network units of type MERCHANT (another unit answers 400 naming merchants.N).',
        body: s.rewardSchemeCreateBody, run: createRewardScheme,
        example: { name: 'Staff club', code: 'STAFF', description: 'Employees of partner companies', sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['example.com'], merchants: [] },
      },
      list: {
        description: 'Sortable by name, code, created_on (default: newest first).',
        query: s.rewardSchemeListQuery, response: s.rewardSchemeList, sort: NAME_CODE_SORT, filter: rewardSchemeFilter, run: listRewardSchemes,
      },
      get: { description: 'With its sign-up codes, allowed domains and merchants {id, name, code}.', run: getRewardScheme },
      update: {
        description: 'Partial: only the fields given change; a list given replaces the list; null clears code or description. Changing sign_up_option clears the list of the former option.',
        body: s.rewardSchemeUpdateBody, run: updateRewardScheme,
        example: { sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['WELCOME-2027'], merchants: [SOME_ID] },
      },
      delete: { description: 'A scheme with offers or with accounts signed up answers 409 IN_USE.', run: deleteRewardScheme },
    }),
    ...resourceRoutes({
      ...common, path: '/reward_tiers', one: 'RewardTier', many: 'RewardTiers', label: 'reward tier',
      item: s.rewardTierItem, present: presentRewardTier,
      create: {
        description: 'Tiers rank by position (lowest first); a position another tier has answers 409 ALREADY_EXISTS naming position.',
        body: s.rewardTierCreateBody, run: createRewardTier,
        example: { name: 'Gold', code: 'GOLD', color: '#FFD700', position: 3, period_value_units: 1000, lifetime_value_units: 5000 },
      },
      list: {
        description: 'Sortable by position, name, code, created_on (default: by position, lowest first; order defaults to ASC here).',
        query: s.rewardTierListQuery, response: s.rewardTierList, sort: { ...NAME_CODE_SORT, position: 'position' }, defaultSort: 'position',
        filter: nameCodeFilter, run: listRewardTiers,
      },
      get: { run: getRewardTier },
      update: {
        description: 'Partial: only the fields given change; null clears the code.',
        body: s.rewardTierUpdateBody, run: updateRewardTier, example: { color: '#C0C0C0', position: 2, period_value_units: 500 },
      },
      delete: { description: 'A tier an account holds answers 409 IN_USE.', run: deleteRewardTier },
    }),
    ...resourceRoutes({
      ...common, path: '/reward_offers', one: 'RewardOffer', many: 'RewardOffers', label: 'reward offer',
      item: s.rewardOfferItem, present: presentRewardOffer,
      create: {
        description:
          'An award rule of the scheme reward_scheme_id (unknown: 400 naming it). products[] and merchants[] restrict it (empty: every product, every merchant of the scheme); ' +
          'an unknown product, type, family, merchant, spend condition or voucher type answers 400 naming it. award_value > 0, at most 100 for PERCENTAGE; valid_to later than valid_from.',
        body: s.rewardOfferCreateBody, run: createRewardOffer,
        example: {
          reward_scheme_id: SOME_ID, name: '5% back on coffee', code: 'COFFEE-5', description: 'Every coffee, all year', life_cycle_state: 'ACTIVE',
          award_type: 'PERCENTAGE', award_value: 5, minimum_purchase: 2.5, products: [{ id_type: 'FAMILY', id: SOME_ID }], merchants: [],
          validity: { period: 6, uot: 'MONTH' }, valid_from: 1893456000, valid_to: 1924992000,
        },
      },
      list: {
        description: 'Sortable by name, code, created_on, valid_from (default: newest first).',
        query: s.rewardOfferListQuery, response: s.rewardOfferList, sort: { ...NAME_CODE_SORT, valid_from: { field: 'validFrom', nullable: true } },
        filter: rewardOfferFilter, run: listRewardOffers,
      },
      get: {
        description: 'With its scheme {id, name, code}, products with their names, merchants {id, name, code}, spend condition and voucher type {id, name}.',
        run: getRewardOffer,
      },
      update: {
        description: 'Partial: only the fields given change; a list given replaces the list; null clears an optional field. The scheme of an offer does not change.',
        body: s.rewardOfferUpdateBody, run: updateRewardOffer,
        example: { life_cycle_state: 'INACTIVE', award_type: 'FIXED', award_value: 2, minimum_purchase: null, merchants: [SOME_ID] },
      },
      delete: { description: 'Awards already made keep their credit.', errors: [404], run: deleteRewardOffer },
    }),
    ...resourceRoutes({
      ...common, path: '/voucher_types', one: 'VoucherType', many: 'VoucherTypes', label: 'voucher type',
      item: s.voucherTypeItem, present: presentVoucherType,
      create: {
        description:
          'FIXED: value (> 0), no range; VARIABLE: minimum_value and maximum_value (0 < minimum ≤ maximum), no value. ' +
          "currency_code defaults to the organisation's system currency.",
        body: s.voucherTypeCreateBody, run: createVoucherType,
        example: {
          name: 'Birthday gift', code: 'BIRTHDAY', description: 'Sent on the birthday', value_type: 'FIXED', value: 10, extra_added_value: 0,
          currency_code: 'EUR', validity_period: 1, validity_uot: 'YEAR', classification: 'GIFT', category: 'IDENTIFIES_CUSTOMER',
        },
      },
      list: {
        description: 'Sortable by name, code, created_on (default: newest first).',
        query: s.voucherTypeListQuery, response: s.voucherTypeList, sort: NAME_CODE_SORT, filter: voucherTypeFilter, run: listVoucherTypes,
      },
      get: { run: getVoucherType },
      update: {
        description:
          'Partial: only the fields given change; null clears code, description or an amount. Changing value_type clears the values of the former type. ' +
          'Vouchers already issued keep the values they were issued with.',
        body: s.voucherTypeUpdateBody, run: updateVoucherType,
        example: { value_type: 'VARIABLE', minimum_value: 5, maximum_value: 50, validity_period: 6, validity_uot: 'MONTH' },
      },
      delete: { description: 'A voucher type that vouchers or offers name answers 409 IN_USE.', run: deleteVoucherType },
    }),
    ...catalogueRoutes({
      catalogue: purchaseClassifications, path: '/purchase_classifications', one: 'PurchaseClassification', many: 'PurchaseClassifications',
    }),
  ];
}
