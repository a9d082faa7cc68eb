// Reward attributes of a contact's primary account (spec 2.6, 4.4) and the merchants list
// (spec 2.13, 4.4); decisions in docs/rewards.md.
import { actorOf } from '../../../domain/audit';
import { listMerchants } from '../../../domain/loyalty/rewards/merchant-list';
import { allowMerchants, disallowMerchant } from '../../../domain/loyalty/rewards/merchants';
import { readRewards } from '../../../domain/loyalty/rewards/read';
import { joinScheme, leaveScheme } from '../../../domain/loyalty/rewards/schemes';
import { updateRewards } from '../../../domain/loyalty/rewards/update';
import { contentPage, listArgs } from '../../lists';
import { groupAuth, route, type RouteDef } from '../../route';
import { idParams, idResponse, SOME_ID } from '../../validation';
import { MERCHANT_SORT, presentMerchant, presentRewards } from './present';
import {
  merchantList,
  merchantListQuery,
  merchantParams,
  merchantsResponse,
  rewardMerchantsBody,
  rewardsRead,
  rewardsUpdateBody,
  schemeParams,
  schemeSignUpBody,
} from './schemas';

const TAG = 'Rewards';
const { read, write } = groupAuth('rewards');
const PRIMARY_ONLY =
  "Only a contact's primary account holds reward information: any other account answers 409 NOT_PRIMARY_ACCOUNT.";
const WRITE_RULES = `${PRIMARY_ONLY} A terminated account answers 409 ACCOUNT_TERMINATED.`;

export function rewardRoutes(): RouteDef[] {
  return [
    route({
      method: 'put', path: '/accounts/{id}/rewards', operationId: 'updateAccountRewards', tag: TAG, auth: write,
      summary: "Update a primary account's reward attributes (partial)",
      description:
        `${WRITE_RULES} signed_up_organisation_id names the organisation itself or one of its units (another organisation's: 400 naming it). ` +
        'spending_blocked_status true records when and by whom (a second true keeps the first); false clears both. ' +
        'automatic_spend_settings is partial too; enabling automatic spend needs a preference. ' +
        "preferred_payment_method_id must be a CARD or BANK (direct debit) payment method of the account's contact (else 400).",
      params: idParams, body: rewardsUpdateBody, response: idResponse, errors: [404, 409],
      example: {
        signed_up_on: 1735689600,
        signed_up_organisation_id: SOME_ID,
        spending_blocked_status: false,
        automatic_spend_settings: { enable_automatic_spend: true, automatic_spend_preference: 'ALL_MERCHANT_PURCHASE', minimum_wallet_balance: 10, from_purchase_amount: 25 },
        preferred_payment_method_id: SOME_ID,
      },
      handler: ({ ctx, params, body }) => updateRewards(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'get', path: '/accounts/{id}/rewards', operationId: 'getAccountRewards', tag: TAG, auth: read,
      summary: "A primary account's reward attributes",
      description:
        `${PRIMARY_ONLY} An account never written to reads with the defaults (nothing signed up, not blocked, automatic spend off). ` +
        "reward_tier is the tier the account's own value units reach now (the period is the calendar year); " +
        'joined_reward_schemes lists the participations not ended.',
      params: idParams, response: rewardsRead, errors: [404, 409],
      handler: async ({ ctx, params }) => presentRewards(await readRewards(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'post', path: '/accounts/{id}/merchants', operationId: 'addAccountMerchants', tag: TAG, auth: write,
      summary: 'Allow merchants for automatic spend',
      description:
        `${WRITE_RULES} Each organisation_id must be a unit of type MERCHANT of this organisation (unknown or another type: 400 naming merchants.N.organisation_id); ` +
        'one bad entry adds none. A merchant already allowed stays allowed and takes the is_next_visit given (idempotent). Answers the merchant ids.',
      params: idParams, body: rewardMerchantsBody, response: merchantsResponse, errors: [404, 409],
      example: { merchants: [{ organisation_id: SOME_ID, is_next_visit: true }] },
      handler: ({ ctx, params, body }) => allowMerchants(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'delete', path: '/accounts/{id}/merchants/{merchant_id}', operationId: 'removeAccountMerchant', tag: TAG, auth: write,
      summary: 'Stop allowing a merchant',
      description: `${WRITE_RULES} A merchant the account does not allow answers 404. Answers the merchant id.`,
      params: merchantParams, response: idResponse, errors: [404, 409],
      handler: ({ ctx, params }) => disallowMerchant(ctx.db, actorOf(ctx), params.id, params.merchant_id),
    }),
    route({
      method: 'post', path: '/accounts/{id}/reward_schemes', operationId: 'joinRewardScheme', tag: TAG, auth: write,
      summary: 'Sign the account up to a reward scheme',
      description:
        `${WRITE_RULES} The scheme's sign_up_option decides: CLOSE_LOOP_SIGN_UP needs one of its sign_up_codes (400 naming sign_up_code), ` +
        'EMAIL_DOMAIN an email_address at one of its allowed_domains (400 naming email_address), OPEN nothing. ' +
        'Already joined: 409 ALREADY_EXISTS naming reward_scheme_id; a participation ended before is re-opened. Answers the scheme id.',
      params: idParams, body: schemeSignUpBody, response: idResponse, errors: [404, 409],
      example: { reward_scheme_id: SOME_ID, email_address: 'ann@example.com', sign_up_code: 'WELCOME-2027', signed_up_on: 1735689600 },
      handler: ({ ctx, params, body }) => joinScheme(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'delete', path: '/accounts/{id}/reward_schemes/{reward_scheme_id}', operationId: 'leaveRewardScheme', tag: TAG, auth: write,
      summary: 'Sign the account out of a reward scheme',
      description: `${WRITE_RULES} Ends the participation (kept, with its end date); not joined: 404. Answers the scheme id.`,
      params: schemeParams, response: idResponse, errors: [404, 409],
      handler: ({ ctx, params }) => leaveScheme(ctx.db, actorOf(ctx), params.id, params.reward_scheme_id),
    }),
    route({
      method: 'get', path: '/merchants', operationId: 'listMerchants', tag: TAG, auth: { scope: 'reference_data:read' },
      summary: 'List the merchants of the business network',
      description:
        'The units of type MERCHANT (GET /organisations has them all), as {content[], paging} (spec 4.4). Sortable by name, code, created_on (default: newest first). ' +
        "is_parent is true when the merchant has no units below it (spec 2.13's definition). creatives are the merchant's creatives (managed at /creatives), in the order they were created.",
      query: merchantListQuery, response: merchantList,
      handler: async ({ ctx, query }) => {
        const page = await listMerchants(ctx.db, ctx.organisationId, listArgs(query, MERCHANT_SORT), query);
        return contentPage(query, page.rows.map(presentMerchant), page.total);
      },
    }),
  ];
}
