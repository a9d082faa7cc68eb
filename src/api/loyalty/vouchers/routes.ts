// Vouchers (spec 2.11, 4.3; docs/vouchers.md): issue, list, read, use, cancel. Every write is one
// transaction on ctx.sql, like the ledger's.
import { actorOf } from '../../../domain/audit';
import { issueVoucher } from '../../../domain/loyalty/vouchers/issue';
import { cancelVoucher, useVoucher } from '../../../domain/loyalty/vouchers/life-cycle';
import { getVoucher, listVouchers } from '../../../domain/loyalty/vouchers/read';
import { contentPage } from '../../lists';
import { groupAuth, route, type RouteDef } from '../../route';
import { idParams, idResponse, SOME_ID } from '../../validation';
import { presentVoucher } from './present';
import { voucherCancelBody, voucherIssueBody, voucherIssued, voucherItem, voucherList, voucherListQuery, voucherUseBody } from './schemas';

const TAG = 'Vouchers';
const { read, write } = groupAuth('vouchers');

export function voucherRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/vouchers', operationId: 'issueVoucher', tag: TAG, auth: write,
      summary: 'Issue a voucher to a contact',
      description:
        'The voucher copies its type\'s value (or minimum and maximum), extra value, currency, validity, classification and category; '
        + 'it expires validity_period × validity_UOT after issue. The answer carries the 16-digit `secret_number` once: only a keyed hash of it is kept. '
        + '400 for an unknown contact or type (naming it); 409 CONTACT_ANONYMIZED.',
      body: voucherIssueBody, response: voucherIssued, errors: [409], transaction: 'sql',
      example: { voucher_type_id: SOME_ID, contact_id: 'C-1001', custom_fields: [{ key: 'campaign', value: 'spring' }] },
      handler: async ({ ctx, body }) => {
        const issued = await issueVoucher(ctx.sql, actorOf(ctx), { contactId: body.contact_id, voucherTypeId: body.voucher_type_id, customFields: body.custom_fields });
        return { id: issued.id, number: issued.number, secret_number: issued.secret };
      },
    }),
    route({
      method: 'get', path: '/vouchers', operationId: 'listVouchers', tag: TAG, auth: read,
      summary: 'List vouchers',
      description: 'Newest first unless `sort` says otherwise. An ACTIVATED voucher past its expiration_date is shown, and filtered, as EXPIRED.',
      query: voucherListQuery, response: voucherList,
      handler: async ({ ctx, query }) => {
        const page = await listVouchers(ctx.sql, query);
        return contentPage(query, page.rows.map(presentVoucher), page.total);
      },
    }),
    route({
      method: 'get', path: '/vouchers/{id}', operationId: 'getVoucher', tag: TAG, auth: read,
      summary: 'Get a voucher', params: idParams, response: voucherItem,
      handler: async ({ ctx, params }) => presentVoucher(await getVoucher(ctx.sql, params.id)),
    }),
    route({
      method: 'post', path: '/vouchers/{id}', operationId: 'useVoucher', tag: TAG, auth: write,
      summary: 'Use a voucher',
      description:
        'Checks the secret number (400 naming secret_number), then the state (409 VOUCHER_USED, VOUCHER_CANCELLED, VOUCHER_EXPIRED), '
        + 'then `value` (only for a variable voucher, within its bounds; 400 naming value). The voucher becomes USED for its fixed value or the value given. '
        + 'No wallet money moves: the voucher is redeemed at the merchant\'s till. Of two concurrent uses exactly one succeeds.',
      params: idParams, body: voucherUseBody, response: idResponse, errors: [409], transaction: 'sql',
      example: { secret_number: '4921035578126640', value: 25, custom_fields: [{ key: 'till', value: 'T-12' }] },
      handler: ({ ctx, params, body }) => useVoucher(ctx.sql, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'post', path: '/vouchers/{id}/cancel', operationId: 'cancelVoucher', tag: TAG, auth: write,
      summary: 'Cancel a voucher',
      description: 'ACTIVATED (expired or not) → CANCELLED, final. 409 VOUCHER_USED or VOUCHER_CANCELLED.',
      params: idParams, body: voucherCancelBody, response: idResponse, errors: [409], transaction: 'sql',
      example: { custom_fields: [{ key: 'reason', value: 'issued in error' }] },
      handler: ({ ctx, params, body }) => cancelVoucher(ctx.sql, actorOf(ctx), params.id, body),
    }),
  ];
}
