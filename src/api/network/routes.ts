// The business network at /organisations: merchants, venues and subsidiaries under the tenant
// (API-CONVENTIONS "Organisations and reference data"); docs/money-reference.md "Business network".
import { actorOf } from '../../domain/audit';
import { getUnit, listUnits } from '../../domain/network/read';
import { createUnit, deleteUnit, updateUnit } from '../../domain/network/units';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentUnit, UNIT_SORT, unitFilter } from './present';
import { unitCreateBody, unitItem, unitList, unitListQuery, unitUpdateBody } from './schemas';

const TAG = 'Business network';
const read = { scope: 'reference_data:read' } as const;
const write = { scope: 'reference_data:write' } as const;

export function networkRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/organisations', operationId: 'createOrganisationUnit', tag: TAG, auth: write,
      summary: 'Create a merchant, venue or subsidiary',
      description: 'Unit and tap codes are unique within the organisation (409 ALREADY_EXISTS). parent_id names another unit of the organisation; without it the unit is directly under the organisation.',
      body: unitCreateBody, response: idResponse, errors: [409],
      example: {
        code: 'CAFE-01', name: 'Corner Cafe', type: 'MERCHANT', description: 'Coffee and cake',
        locations: [{ name: 'Main street', address_line_1: '1 Main Street', town_city: 'Nicosia', postal_code: '1010', country_code: 'CYP', lat: 35.17, lon: 33.36 }],
        taps: [{ name: 'Till 1', code: 'CAFE-01-T1' }],
      },
      handler: ({ ctx, body }) => createUnit(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/organisations', operationId: 'listOrganisationUnits', tag: TAG, auth: read,
      summary: 'List the units of the business network', description: 'Sortable by name, code, type, created_on (default: newest first).',
      query: unitListQuery, response: unitList,
      handler: async ({ ctx, query }) => {
        const page = await listUnits(ctx.db, ctx.organisationId, listArgs(query, UNIT_SORT), unitFilter(query));
        return contentPage(query, page.rows.map(presentUnit), page.total);
      },
    }),
    route({
      method: 'get', path: '/organisations/{id}', operationId: 'getOrganisationUnit', tag: TAG, auth: read,
      summary: 'Get a unit with its locations and taps', params: idParams, response: unitItem, errors: [404],
      handler: async ({ ctx, params }) => presentUnit(await getUnit(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/organisations/{id}', operationId: 'updateOrganisationUnit', tag: TAG, auth: write,
      summary: 'Update a unit',
      description: 'Partial: only the fields given change. locations replaces the list; taps becomes the unit\'s taps (an item with id keeps that tap, one without is added, the others are deleted). A parent_id that would put the unit below itself answers 400.',
      params: idParams, body: unitUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Corner Cafe & Bakery', locations: [{ name: 'Main street', town_city: 'Nicosia', country_code: 'CYP' }], taps: [{ name: 'Till 2', code: 'CAFE-01-T2' }] },
      handler: async ({ ctx, params, body }) => {
        await updateUnit(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/organisations/{id}', operationId: 'deleteOrganisationUnit', tag: TAG, auth: write,
      summary: 'Delete a unit', description: 'With its locations and taps. A unit that still has units below it, or that a spend condition names, answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteUnit(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
