// Accounting periods and their closing: docs/money-reference.md "Accounting periods".
import { actorOf } from '../../../domain/audit';
import { createPeriod, deletePeriod, getPeriod, listPeriods, updatePeriod } from '../../../domain/money/accounting-periods';
import { closePeriod } from '../../../domain/money/period-close';
import { resourceRoutes } from '../../resource';
import { groupAuth, route, type RouteDef } from '../../route';
import { idParams, idResponse } from '../../validation';
import { PERIOD_SORT, presentPeriod } from './present';
import * as s from './schemas';

const TAG = 'Accounting periods';
const auth = groupAuth('settings');

export function accountingPeriodRoutes(): RouteDef[] {
  return [
    ...resourceRoutes({
      path: '/accounting_periods', one: 'AccountingPeriod', many: 'AccountingPeriods', label: 'accounting period', article: 'an', tag: TAG, auth,
      item: s.periodItem, present: presentPeriod,
      create: {
        summary: 'Create an accounting period (OPEN)',
        description: '[start_date, end_date) in epoch seconds. Overlapping another period answers 409 PERIOD_OVERLAP; starting before the end of a closed period 409 PERIOD_BEFORE_CLOSED.',
        body: s.periodCreateBody, run: createPeriod, example: { name: 'January 2025', start_date: 1735689600, end_date: 1738368000 },
      },
      list: {
        description: 'Sortable by start_date, name, created_on (default: newest first); filter by state.',
        query: s.periodListQuery, response: s.periodList, sort: PERIOD_SORT, filter: (q) => q.state, run: listPeriods,
      },
      get: { run: getPeriod },
      update: {
        summary: 'Update an open accounting period', description: 'Partial. A closed period answers 409 PERIOD_CLOSED; the same range rules as on create apply.',
        body: s.periodUpdateBody, run: updatePeriod, example: { name: 'January 2025 (books)' },
      },
      delete: { summary: 'Delete an open accounting period', description: 'A closed period answers 409 PERIOD_CLOSED.', run: deletePeriod },
    }),
    route({
      method: 'post', path: '/accounting_periods/{id}/close', operationId: 'closeAccountingPeriod', tag: TAG, auth: auth.write,
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
