// Spend conditions (spec 2.4): docs/money-reference.md "Spend conditions".
import { getSpendCondition, listSpendConditions } from '../../domain/spend-conditions/read';
import { createSpendCondition, deleteSpendCondition, updateSpendCondition } from '../../domain/spend-conditions/write';
import { nameCodeFilter, NAME_CODE_SORT } from '../lists';
import { REFERENCE_AUTH } from '../reference/catalogue-routes';
import { resourceRoutes } from '../resource';
import type { RouteDef } from '../route';
import { presentSpendCondition } from './present';
import * as s from './schemas';

export function spendConditionRoutes(): RouteDef[] {
  return resourceRoutes({
    path: '/spend_conditions', one: 'SpendCondition', many: 'SpendConditions', label: 'spend condition', tag: 'Spend conditions', auth: REFERENCE_AUTH,
    item: s.spendConditionItem, present: presentSpendCondition,
    create: {
      description:
        'organisations[] are ids of units of the business network; products[] name a product, product type or product family by id_type and id ' +
        '(an unknown one answers 400 naming it, e.g. products.0.id); timings[] are weekly windows. An empty or absent list does not restrict.',
      body: s.spendConditionCreateBody, run: createSpendCondition,
      example: { name: 'Weekday lunch', code: 'LUNCH', organisations: [], products: [], timings: [{ day: 2, start_time: '11:30', end_time: '14:30' }] },
    },
    list: {
      description: 'Sortable by name, code, created_on (default: newest first).',
      query: s.spendConditionListQuery, response: s.spendConditionList, sort: NAME_CODE_SORT, filter: nameCodeFilter, run: listSpendConditions,
    },
    get: { description: 'Units with their names and locations, products with their names and descriptions, timings.', run: getSpendCondition },
    update: {
      description: 'Partial: only the fields given change; a list given replaces the list; null clears the code.',
      body: s.spendConditionUpdateBody, run: updateSpendCondition,
      example: { name: 'Weekend brunch', timings: [{ day: 1, start_time: '09:00', end_time: '13:00' }, { day: 7, start_time: '09:00', end_time: '13:00' }] },
    },
    delete: { run: deleteSpendCondition },
  });
}
