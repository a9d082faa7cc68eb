// Spend conditions (spec 2.4): docs/money-reference.md "Spend conditions".
import { actorOf } from '../../domain/audit';
import { getSpendCondition, listSpendConditions } from '../../domain/spend-conditions/read';
import { createSpendCondition, deleteSpendCondition, updateSpendCondition } from '../../domain/spend-conditions/write';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentSpendCondition, SPEND_CONDITION_SORT, spendConditionFilter } from './present';
import { spendConditionCreateBody, spendConditionItem, spendConditionList, spendConditionListQuery, spendConditionUpdateBody } from './schemas';

const TAG = 'Spend conditions';
const read = { scope: 'reference_data:read' } as const;
const write = { scope: 'reference_data:write' } as const;

export function spendConditionRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/spend_conditions', operationId: 'createSpendCondition', tag: TAG, auth: write,
      summary: 'Create a spend condition',
      description:
        'organisations[] are ids of units of the business network; products[] name a product, product type or product family by id_type and id ' +
        '(an unknown one answers 400 naming it, e.g. products.0.id); timings[] are weekly windows. An empty or absent list does not restrict.',
      body: spendConditionCreateBody, response: idResponse, errors: [409],
      example: { name: 'Weekday lunch', code: 'LUNCH', organisations: [], products: [], timings: [{ day: 2, start_time: '11:30', end_time: '14:30' }] },
      handler: ({ ctx, body }) => createSpendCondition(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/spend_conditions', operationId: 'listSpendConditions', tag: TAG, auth: read,
      summary: 'List spend conditions', description: 'Sortable by name, code, created_on (default: newest first).',
      query: spendConditionListQuery, response: spendConditionList,
      handler: async ({ ctx, query }) => {
        const page = await listSpendConditions(ctx.db, ctx.organisationId, listArgs(query, SPEND_CONDITION_SORT), spendConditionFilter(query));
        return contentPage(query, page.rows.map(presentSpendCondition), page.total);
      },
    }),
    route({
      method: 'get', path: '/spend_conditions/{id}', operationId: 'getSpendCondition', tag: TAG, auth: read,
      summary: 'Get a spend condition', description: 'Units with their names and locations, products with their names and descriptions, timings.',
      params: idParams, response: spendConditionItem, errors: [404],
      handler: async ({ ctx, params }) => presentSpendCondition(await getSpendCondition(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/spend_conditions/{id}', operationId: 'updateSpendCondition', tag: TAG, auth: write,
      summary: 'Update a spend condition', description: 'Partial: only the fields given change; a list given replaces the list; null clears the code.',
      params: idParams, body: spendConditionUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Weekend brunch', timings: [{ day: 1, start_time: '09:00', end_time: '13:00' }, { day: 7, start_time: '09:00', end_time: '13:00' }] },
      handler: async ({ ctx, params, body }) => {
        await updateSpendCondition(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/spend_conditions/{id}', operationId: 'deleteSpendCondition', tag: TAG, auth: write,
      summary: 'Delete a spend condition', params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteSpendCondition(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
