// Purchases, their cancel and ad hoc return, the PURCHASE event record and the contact's activity
// feed (spec 4.1, 4.8, 4.9; docs/loyalty.md). Purchases write only through the ledger, on the
// pipeline's own pg transaction (`transaction: 'sql'`).
import { findContactId } from '../../../domain/contacts/lookup';
import { inField, invalid } from '../../../domain/errors';
import { activityFeed } from '../../../domain/loyalty/activity-feed';
import { purchaseFacts } from '../../../domain/loyalty/purchases/event-record';
import { listPurchases } from '../../../domain/loyalty/purchases/list';
import { postPurchase } from '../../../domain/loyalty/purchases/post';
import { cancelPurchase, returnPurchase } from '../../../domain/loyalty/purchases/reverse';
import type { AppDeps } from '../../deps';
import { namedList, namedPage } from '../../lists';
import { moneyContext } from '../../money/context';
import { groupAuth, route, type RouteDef } from '../../route';
import { idResponse, SOME_ID } from '../../validation';
import { issuedVouchers, presentFeedItem, presentPurchase, presentPurchaseEvent } from './present';
import { eventBody, eventRecord, feedItem, feedParams, feedQuery, purchaseBody, purchaseItem, purchaseListQuery, purchaseParams, purchaseResponse, returnBody } from './schemas';
import { nowSeconds } from '../../../domain/clock';

const TAG = 'Purchases';
const { read, write } = groupAuth('purchases');

// Names the product and tap the examples of POST /products and PUT /organisations/{id} make.
const EXAMPLE = {
  contact_id: SOME_ID,
  reference_number: 'POS-2026-000123',
  products: [{ product_sku: 'ESPRESSO-01', net_amount: 8.2, tax_amount: 1.8, total_amount: 10, quantity: 2 }],
  spend_request: { amount: 2 },
  merchant_tap: { code: 'CAFE-01-T2' },
};

export function purchaseRoutes(deps: AppDeps): RouteDef[] {
  return [
    route({
      method: 'post', path: '/purchases', operationId: 'createPurchase', tag: TAG, auth: write,
      summary: 'Post a purchase: spend, awards and tier in one transaction',
      description: 'The contact by `contact_id` (id or code) or `cim`. 409 ALREADY_EXISTS on a reference_number used before (nothing is awarded twice); 409 SPENDING_BLOCKED, INSUFFICIENT_BALANCE, LIMIT_EXCEEDED on the spend.',
      body: purchaseBody, response: purchaseResponse, errors: [409], transaction: 'sql', example: EXAMPLE,
      handler: async ({ ctx, body }) => {
        const posted = await postPurchase(moneyContext(ctx), body);
        return { id: posted.id, ...issuedVouchers(posted) };
      },
    }),
    route({
      method: 'post', path: '/purchases/{id}/cancel', operationId: 'cancelPurchase', tag: TAG, auth: write,
      summary: 'Cancel a posted purchase',
      description: 'Voids every wallet transaction of the purchase with compensating entries; an award already spent takes the wallet below zero (docs/loyalty.md). 409 PURCHASE_CANCELLED the second time.',
      params: purchaseParams, response: idResponse, errors: [404, 409], transaction: 'sql',
      handler: ({ ctx, params }) => cancelPurchase(moneyContext(ctx), params.id),
    }),
    route({
      method: 'get', path: '/purchases', operationId: 'listPurchases', tag: TAG, auth: read,
      summary: 'Search purchases', description: 'Without performed_on_from: the last 10 purchases matching the other filters.',
      query: purchaseListQuery, response: namedList('purchases', purchaseItem),
      handler: async ({ ctx, query }) => {
        const contactId = query.contact_id === undefined ? undefined : await findContactId(ctx.sql, query.contact_id, 'contact_id');
        const page = await listPurchases(ctx.sql, { ...query, contactId });
        return namedPage('purchases', query, page.rows.map(presentPurchase), page.total);
      },
    }),
    route({
      method: 'post', path: '/purchases/ad_hoc_return', operationId: 'returnPurchase', tag: TAG, auth: write,
      summary: 'Return part of a purchase found by its reference number',
      description: "Reverses the return's share of the awards and gives back its share of the spend. 200 `{id}` of the purchase, or 200 without a body when the contact has no purchase of that reference. 409 RETURN_EXCEEDS_PURCHASE, PURCHASE_CANCELLED.",
      body: returnBody, response: idResponse.optional(), errors: [409], transaction: 'sql',
      example: { contact_id: SOME_ID, reference_number: 'POS-2026-000123', amount: 5 },
      handler: async ({ ctx, body }) => (await returnPurchase(moneyContext(ctx), body)) ?? undefined,
    }),
    route({
      method: 'post', path: '/events', operationId: 'submitEvent', tag: TAG, auth: write,
      summary: 'Submit a customer event and get its event record',
      description: 'type PURCHASE with `purchase` (the POST /purchases body) posts the purchase through the same code and answers 201 with the record of what it did. Other types: 400.',
      body: eventBody, response: eventRecord, status: 201, errors: [409], transaction: 'sql',
      example: { type: 'PURCHASE', purchase: { ...EXAMPLE, reference_number: 'POS-2026-000124' } },
      handler: async ({ ctx, body }) => {
        if (body.type.toUpperCase() !== 'PURCHASE') throw invalid('type', `Event type ${body.type} is not supported; supported: PURCHASE`);
        if (!body.purchase) throw invalid('purchase', 'A PURCHASE event carries the purchase');
        const submittedOn = nowSeconds();
        const posted = await inField('purchase', () => postPurchase(moneyContext(ctx), body.purchase!, submittedOn));
        return presentPurchaseEvent(posted, await purchaseFacts(ctx.sql, posted), submittedOn);
      },
    }),
    route({
      method: 'get', path: '/contacts/{id}/activity_feed', operationId: 'getActivityFeed', tag: TAG, auth: read,
      summary: "The contact's activity, newest first",
      description: 'Purchases, awards, spends, top-ups, transfers, voids, journals, returns, expiries and voucher uses.',
      params: feedParams, query: feedQuery, response: namedList('activity_feed', feedItem), errors: [404],
      handler: async ({ ctx, params, query }) => {
        const contactId = await findContactId(ctx.sql, params.id);
        const page = await activityFeed(ctx.sql, contactId, query);
        return namedPage('activity_feed', query, page.rows.map(presentFeedItem), page.total);
      },
    }),
  ];
}
