import type { z } from 'zod';
import type { NetworkLocation } from '../../db/client';
import type { UnitFilter, UnitRecord } from '../../domain/network/read';
import { nameCodeFilter, type SortField } from '../lists';
import { epoch } from '../present';
import type { locationItem, unitItem, unitListQuery } from './schemas';

/** spec 2.4 "Location"; shared by the spend conditions' organisations[]. */
export function presentLocation(l: NetworkLocation): z.input<typeof locationItem> {
  return {
    name: l.name,
    address_line_1: l.addressLine1,
    address_line_2: l.addressLine2,
    state_province_county: l.stateProvinceCounty,
    town_city: l.townCity,
    postal_code: l.postalCode,
    country_code: l.countryCode,
    lat: l.lat,
    lon: l.lon,
    googlePlaceId: l.googlePlaceId,
  };
}

export function presentUnit(u: UnitRecord): z.input<typeof unitItem> {
  return {
    id: u.id,
    code: u.code,
    name: u.name,
    description: u.description,
    type: u.type as z.input<typeof unitItem>['type'],
    parent_id: u.parentId,
    locations: u.locations.map(presentLocation),
    taps: u.taps.map((t) => ({ id: t.id, name: t.name, code: t.code })),
    created_on: epoch(u.createdAt),
    updated_on: epoch(u.updatedAt),
  };
}

export const UNIT_SORT: Record<string, SortField> = { name: 'name', code: 'code', type: 'type', created_on: 'createdAt' };

export function unitFilter(q: z.output<typeof unitListQuery>): UnitFilter {
  return { ...nameCodeFilter(q), type: q.type, parentId: q.parent_id };
}
