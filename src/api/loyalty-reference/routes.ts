// Loyalty reference data (issue 8): reward schemes, tiers and offers, voucher types, purchase
// classifications, in the one shape of API-CONVENTIONS "Organisations and reference data".
// Decisions: docs/loyalty-reference.md.
import { actorOf } from '../../domain/audit';
import { createRewardOffer, deleteRewardOffer, getRewardOffer, listRewardOffers, updateRewardOffer } from '../../domain/loyalty/reference/offers';
import { createRewardScheme, deleteRewardScheme, getRewardScheme, listRewardSchemes, updateRewardScheme } from '../../domain/loyalty/reference/schemes';
import { createRewardTier, deleteRewardTier, getRewardTier, listRewardTiers, updateRewardTier } from '../../domain/loyalty/reference/tiers';
import { createVoucherType, deleteVoucherType, getVoucherType, listVoucherTypes, updateVoucherType } from '../../domain/loyalty/reference/voucher-types';
import { purchaseClassifications } from '../../domain/reference/catalogue';
import { contentPage, listArgs } from '../lists';
import { catalogueRoutes } from '../reference/catalogue-routes';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import {
  presentRewardOffer,
  presentRewardScheme,
  presentRewardTier,
  presentVoucherType,
  REWARD_OFFER_SORT,
  REWARD_SCHEME_SORT,
  REWARD_TIER_SORT,
  rewardOfferFilter,
  rewardSchemeFilter,
  rewardTierFilter,
  VOUCHER_TYPE_SORT,
  voucherTypeFilter,
} from './present';
import {
  rewardOfferCreateBody,
  rewardOfferItem,
  rewardOfferList,
  rewardOfferListQuery,
  rewardOfferUpdateBody,
  rewardSchemeCreateBody,
  rewardSchemeItem,
  rewardSchemeList,
  rewardSchemeListQuery,
  rewardSchemeUpdateBody,
  rewardTierCreateBody,
  rewardTierItem,
  rewardTierList,
  rewardTierListQuery,
  rewardTierUpdateBody,
  voucherTypeCreateBody,
  voucherTypeItem,
  voucherTypeList,
  voucherTypeListQuery,
  voucherTypeUpdateBody,
} from './schemas';

const TAG = 'Loyalty';
const read = { scope: 'reference_data:read' } as const;
const write = { scope: 'reference_data:write' } as const;
const SOME_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';

export function loyaltyReferenceRoutes(): RouteDef[] {
  return [
    ...schemeRoutes(),
    ...tierRoutes(),
    ...offerRoutes(),
    ...voucherTypeRoutes(),
    ...catalogueRoutes({
      catalogue: purchaseClassifications, path: '/purchase_classifications', one: 'PurchaseClassification', many: 'PurchaseClassifications',
    }),
  ];
}

function schemeRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/reward_schemes', operationId: 'createRewardScheme', tag: TAG, auth: write,
      summary: 'Create a reward scheme',
      description:
        'sign_up_codes are required (non-empty) for CLOSE_LOOP_SIGN_UP and refused otherwise; allowed_domains likewise for EMAIL_DOMAIN. ' +
        'merchants[] are ids of network units of type MERCHANT (another unit answers 400 naming merchants.N).',
      body: rewardSchemeCreateBody, response: idResponse, errors: [409],
      example: { name: 'Staff club', code: 'STAFF', description: 'Employees of partner companies', sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['example.com'], merchants: [] },
      handler: ({ ctx, body }) => createRewardScheme(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/reward_schemes', operationId: 'listRewardSchemes', tag: TAG, auth: read,
      summary: 'List reward schemes', description: 'Sortable by name, code, created_on (default: newest first).',
      query: rewardSchemeListQuery, response: rewardSchemeList,
      handler: async ({ ctx, query }) => {
        const page = await listRewardSchemes(ctx.db, ctx.organisationId, listArgs(query, REWARD_SCHEME_SORT), rewardSchemeFilter(query));
        return contentPage(query, page.rows.map(presentRewardScheme), page.total);
      },
    }),
    route({
      method: 'get', path: '/reward_schemes/{id}', operationId: 'getRewardScheme', tag: TAG, auth: read,
      summary: 'Get a reward scheme', description: 'With its sign-up codes, allowed domains and merchants {id, name, code}.',
      params: idParams, response: rewardSchemeItem, errors: [404],
      handler: async ({ ctx, params }) => presentRewardScheme(await getRewardScheme(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/reward_schemes/{id}', operationId: 'updateRewardScheme', tag: TAG, auth: write,
      summary: 'Update a reward scheme',
      description: 'Partial: only the fields given change; a list given replaces the list; null clears code or description. Changing sign_up_option clears the list of the former option.',
      params: idParams, body: rewardSchemeUpdateBody, response: idResponse, errors: [404, 409],
      example: { sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['WELCOME-2027'], merchants: [SOME_ID] },
      handler: async ({ ctx, params, body }) => {
        await updateRewardScheme(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/reward_schemes/{id}', operationId: 'deleteRewardScheme', tag: TAG, auth: write,
      summary: 'Delete a reward scheme', description: 'A scheme with offers or with accounts signed up answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteRewardScheme(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}

function tierRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/reward_tiers', operationId: 'createRewardTier', tag: TAG, auth: write,
      summary: 'Create a reward tier',
      description: 'Tiers rank by position (lowest first); a position another tier has answers 409 ALREADY_EXISTS naming position.',
      body: rewardTierCreateBody, response: idResponse, errors: [409],
      example: { name: 'Gold', code: 'GOLD', color: '#FFD700', position: 3, period_value_units: 1000, lifetime_value_units: 5000 },
      handler: ({ ctx, body }) => createRewardTier(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/reward_tiers', operationId: 'listRewardTiers', tag: TAG, auth: read,
      summary: 'List reward tiers', description: 'Sortable by position, name, code, created_on (default: by position, lowest first; order defaults to ASC here).',
      query: rewardTierListQuery, response: rewardTierList,
      handler: async ({ ctx, query }) => {
        const page = await listRewardTiers(ctx.db, ctx.organisationId, listArgs(query, REWARD_TIER_SORT, 'position'), rewardTierFilter(query));
        return contentPage(query, page.rows.map(presentRewardTier), page.total);
      },
    }),
    route({
      method: 'get', path: '/reward_tiers/{id}', operationId: 'getRewardTier', tag: TAG, auth: read,
      summary: 'Get a reward tier', params: idParams, response: rewardTierItem, errors: [404],
      handler: async ({ ctx, params }) => presentRewardTier(await getRewardTier(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/reward_tiers/{id}', operationId: 'updateRewardTier', tag: TAG, auth: write,
      summary: 'Update a reward tier', description: 'Partial: only the fields given change; null clears the code.',
      params: idParams, body: rewardTierUpdateBody, response: idResponse, errors: [404, 409],
      example: { color: '#C0C0C0', position: 2, period_value_units: 500 },
      handler: async ({ ctx, params, body }) => {
        await updateRewardTier(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/reward_tiers/{id}', operationId: 'deleteRewardTier', tag: TAG, auth: write,
      summary: 'Delete a reward tier', description: 'A tier an account holds answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteRewardTier(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}

function offerRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/reward_offers', operationId: 'createRewardOffer', tag: TAG, auth: write,
      summary: 'Create a reward offer',
      description:
        'An award rule of the scheme reward_scheme_id (unknown: 404 naming it). products[] and merchants[] restrict it (empty: every product, every merchant of the scheme); ' +
        'an unknown product, type, family, merchant, spend condition or voucher type answers 400 naming it. award_value > 0, at most 100 for PERCENTAGE; valid_to later than valid_from.',
      body: rewardOfferCreateBody, response: idResponse, errors: [404, 409],
      example: {
        reward_scheme_id: SOME_ID, name: '5% back on coffee', code: 'COFFEE-5', description: 'Every coffee, all year', life_cycle_state: 'ACTIVE',
        award_type: 'PERCENTAGE', award_value: 5, minimum_purchase: 2.5, products: [{ id_type: 'FAMILY', id: SOME_ID }], merchants: [],
        validity: { period: 6, uot: 'MONTH' }, valid_from: 1893456000, valid_to: 1924992000,
      },
      handler: ({ ctx, body }) => createRewardOffer(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/reward_offers', operationId: 'listRewardOffers', tag: TAG, auth: read,
      summary: 'List reward offers', description: 'Sortable by name, code, created_on, valid_from (default: newest first).',
      query: rewardOfferListQuery, response: rewardOfferList,
      handler: async ({ ctx, query }) => {
        const page = await listRewardOffers(ctx.db, ctx.organisationId, listArgs(query, REWARD_OFFER_SORT), rewardOfferFilter(query));
        return contentPage(query, page.rows.map(presentRewardOffer), page.total);
      },
    }),
    route({
      method: 'get', path: '/reward_offers/{id}', operationId: 'getRewardOffer', tag: TAG, auth: read,
      summary: 'Get a reward offer',
      description: 'With its scheme {id, name, code}, products with their names, merchants {id, name, code}, spend condition and voucher type {id, name}.',
      params: idParams, response: rewardOfferItem, errors: [404],
      handler: async ({ ctx, params }) => presentRewardOffer(await getRewardOffer(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/reward_offers/{id}', operationId: 'updateRewardOffer', tag: TAG, auth: write,
      summary: 'Update a reward offer',
      description: 'Partial: only the fields given change; a list given replaces the list; null clears an optional field. The scheme of an offer does not change.',
      params: idParams, body: rewardOfferUpdateBody, response: idResponse, errors: [404, 409],
      example: { life_cycle_state: 'INACTIVE', award_type: 'FIXED', award_value: 2, minimum_purchase: null, merchants: [SOME_ID] },
      handler: async ({ ctx, params, body }) => {
        await updateRewardOffer(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/reward_offers/{id}', operationId: 'deleteRewardOffer', tag: TAG, auth: write,
      summary: 'Delete a reward offer', description: 'Awards already made keep their credit.',
      params: idParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await deleteRewardOffer(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}

function voucherTypeRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/voucher_types', operationId: 'createVoucherType', tag: TAG, auth: write,
      summary: 'Create a voucher type',
      description:
        'FIXED: value (> 0), no range; VARIABLE: minimum_value and maximum_value (0 < minimum ≤ maximum), no value. ' +
        "currency_code defaults to the organisation's system currency.",
      body: voucherTypeCreateBody, response: idResponse, errors: [409],
      example: {
        name: 'Birthday gift', code: 'BIRTHDAY', description: 'Sent on the birthday', value_type: 'FIXED', value: 10, extra_added_value: 0,
        currency_code: 'EUR', validity_period: 1, validity_uot: 'YEAR', classification: 'GIFT', category: 'IDENTIFIES_CUSTOMER',
      },
      handler: ({ ctx, body }) => createVoucherType(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/voucher_types', operationId: 'listVoucherTypes', tag: TAG, auth: read,
      summary: 'List voucher types', description: 'Sortable by name, code, created_on (default: newest first).',
      query: voucherTypeListQuery, response: voucherTypeList,
      handler: async ({ ctx, query }) => {
        const page = await listVoucherTypes(ctx.db, ctx.organisationId, listArgs(query, VOUCHER_TYPE_SORT), voucherTypeFilter(query));
        return contentPage(query, page.rows.map(presentVoucherType), page.total);
      },
    }),
    route({
      method: 'get', path: '/voucher_types/{id}', operationId: 'getVoucherType', tag: TAG, auth: read,
      summary: 'Get a voucher type', params: idParams, response: voucherTypeItem, errors: [404],
      handler: async ({ ctx, params }) => presentVoucherType(await getVoucherType(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/voucher_types/{id}', operationId: 'updateVoucherType', tag: TAG, auth: write,
      summary: 'Update a voucher type',
      description:
        'Partial: only the fields given change; null clears code, description or an amount. Changing value_type clears the values of the former type. ' +
        'Vouchers already issued keep the values they were issued with.',
      params: idParams, body: voucherTypeUpdateBody, response: idResponse, errors: [404, 409],
      example: { value_type: 'VARIABLE', minimum_value: 5, maximum_value: 50, validity_period: 6, validity_uot: 'MONTH' },
      handler: async ({ ctx, params, body }) => {
        await updateVoucherType(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/voucher_types/{id}', operationId: 'deleteVoucherType', tag: TAG, auth: write,
      summary: 'Delete a voucher type', description: 'A voucher type that vouchers or offers name answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteVoucherType(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
