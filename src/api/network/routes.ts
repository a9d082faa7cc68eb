// The business network at /organisations: merchants, venues and subsidiaries under the tenant
// (API-CONVENTIONS "Organisations and reference data"); docs/money-reference.md "Business network".
import { getUnit, listUnits } from '../../domain/network/read';
import { createUnit, deleteUnit, updateUnit } from '../../domain/network/units';
import { REFERENCE_AUTH } from '../reference/catalogue-routes';
import { resourceRoutes } from '../resource';
import type { RouteDef } from '../route';
import { presentUnit, UNIT_SORT, unitFilter } from './present';
import * as s from './schemas';

export function networkRoutes(): RouteDef[] {
  return resourceRoutes({
    path: '/organisations', one: 'OrganisationUnit', many: 'OrganisationUnits', label: 'unit', tag: 'Business network', auth: REFERENCE_AUTH,
    item: s.unitItem, present: presentUnit,
    create: {
      summary: 'Create a merchant, venue or subsidiary',
      description: 'Unit and tap codes are unique within the organisation (409 ALREADY_EXISTS). parent_id names another unit of the organisation; without it the unit is directly under the organisation.',
      body: s.unitCreateBody, run: createUnit,
      example: {
        code: 'CAFE-01', name: 'Corner Cafe', type: 'MERCHANT', description: 'Coffee and cake',
        locations: [{ name: 'Main street', address_line_1: '1 Main Street', town_city: 'Nicosia', postal_code: '1010', country_code: 'CYP', lat: 35.17, lon: 33.36 }],
        taps: [{ name: 'Till 1', code: 'CAFE-01-T1' }],
      },
    },
    list: {
      summary: 'List the units of the business network', description: 'Sortable by name, code, type, created_on (default: newest first).',
      query: s.unitListQuery, response: s.unitList, sort: UNIT_SORT, filter: unitFilter, run: listUnits,
    },
    get: { summary: 'Get a unit with its locations and taps', run: getUnit },
    update: {
      description: 'Partial: only the fields given change. locations replaces the list; taps becomes the unit\'s taps (an item with id keeps that tap, one without is added, the others are deleted). A parent_id that would put the unit below itself answers 400.',
      body: s.unitUpdateBody, run: updateUnit,
      example: { name: 'Corner Cafe & Bakery', locations: [{ name: 'Main street', town_city: 'Nicosia', country_code: 'CYP' }], taps: [{ name: 'Till 2', code: 'CAFE-01-T2' }] },
    },
    delete: { description: 'With its locations and taps. A unit that still has units below it, creatives (/creatives), or that a spend condition names, answers 409 IN_USE.', run: deleteUnit },
  });
}
