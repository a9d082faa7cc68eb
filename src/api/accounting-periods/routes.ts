// Accounting periods and their closing: docs/money-reference.md "Accounting periods".
import { actorOf } from '../../domain/audit';
import { createPeriod, deletePeriod, getPeriod, listPeriods, updatePeriod } from '../../domain/money/accounting-periods';
import { closePeriod } from '../../domain/money/period-close';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { PERIOD_SORT, presentPeriod } from './present';
import { periodCreateBody, periodItem, periodList, periodListQuery, periodUpdateBody } from './schemas';

const TAG = 'Accounting periods';
const read = { scope: 'settings:read' } as const;
const write = { scope: 'settings:write' } as const;

export function accountingPeriodRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/accounting_periods', operationId: 'createAccountingPeriod', tag: TAG, auth: write,
      summary: 'Create an accounting period (OPEN)',
      description: '[start_date, end_date) in epoch seconds. Overlapping another period answers 409 PERIOD_OVERLAP; starting before the end of a closed period 409 PERIOD_BEFORE_CLOSED.',
      body: periodCreateBody, response: idResponse, errors: [409],
      example: { name: 'January 2025', start_date: 1735689600, end_date: 1738368000 },
      handler: ({ ctx, body }) => createPeriod(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/accounting_periods', operationId: 'listAccountingPeriods', tag: TAG, auth: read,
      summary: 'List accounting periods', description: 'Sortable by start_date, name, created_on (default: newest first); filter by state.',
      query: periodListQuery, response: periodList,
      handler: async ({ ctx, query }) => {
        const page = await listPeriods(ctx.db, ctx.organisationId, listArgs(query, PERIOD_SORT), query.state);
        return contentPage(query, page.rows.map(presentPeriod), page.total);
      },
    }),
    route({
      method: 'get', path: '/accounting_periods/{id}', operationId: 'getAccountingPeriod', tag: TAG, auth: read,
      summary: 'Get an accounting period', params: idParams, response: periodItem, errors: [404],
      handler: async ({ ctx, params }) => presentPeriod(await getPeriod(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/accounting_periods/{id}', operationId: 'updateAccountingPeriod', tag: TAG, auth: write,
      summary: 'Update an open accounting period', description: 'Partial. A closed period answers 409 PERIOD_CLOSED; the same range rules as on create apply.',
      params: idParams, body: periodUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'January 2025 (books)' },
      handler: async ({ ctx, params, body }) => {
        await updatePeriod(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/accounting_periods/{id}', operationId: 'deleteAccountingPeriod', tag: TAG, auth: write,
      summary: 'Delete an open accounting period', description: 'A closed period answers 409 PERIOD_CLOSED.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deletePeriod(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
    route({
      method: 'post', path: '/accounting_periods/{id}/close', operationId: 'closeAccountingPeriod', tag: TAG, auth: write,
      summary: 'Close an accounting period',
      description:
        "OPEN → CLOSED, recording every account's balance at end_date (its opening balance for what follows). " +
        '409 PERIOD_ALREADY_CLOSED on a second close, PERIOD_NOT_ENDED before end_date, EARLIER_PERIOD_OPEN while an earlier period is open.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await closePeriod(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
