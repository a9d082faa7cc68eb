// The business network (API-CONVENTIONS "Organisations and reference data"): merchants, venues
// and subsidiaries under the tenant, at /organisations.
import { z } from 'zod';
import { zCountryCode } from '../contacts/schemas';
import { contentList, nameCodeQuery } from '../lists';
import { distinct, pagingQuery, postalAddressOut, whenParsed, zId } from '../validation';

export const UNIT_TYPES = ['MERCHANT', 'VENUE', 'SUBSIDIARY'] as const;

const text = (max = 200) => z.string().trim().min(1).max(max);
const optionalText = (max = 200) => text(max).nullish();
const code = text(100).regex(/^[^/]+$/, 'must not contain "/"');

export const location = z.strictObject({
  name: text(),
  address_line_1: optionalText(),
  address_line_2: optionalText(),
  state_province_county: optionalText(),
  town_city: optionalText(),
  postal_code: optionalText(20),
  country_code: zCountryCode.nullish(),
  lat: z.number().min(-90).max(90).nullish(),
  lon: z.number().min(-180).max(180).nullish(),
  googlePlaceId: optionalText(300).meta({ description: 'Google Maps place id, when known.' }),
});

const newTap = z.strictObject({ name: text(), code: code.meta({ description: 'Unique within the organisation: purchases name a tap by id or code.' }) });
/** On update the list is the unit's taps afterwards: an item with `id` keeps that tap, one without is added, a missing one is deleted. */
const tapUpdate = newTap.extend({ id: zId.optional().meta({ description: 'A tap of this unit to keep (and change); without it one is added.' }) });

/** Two taps of one body with one code: named here rather than by the index. */
const distinctCodes = distinct((t: { code: string }) => t.code, 'code');

const unitFields = {
  code: code.meta({ description: 'Unique within the organisation.' }),
  name: text(),
  description: z.string().max(2000).nullish(),
  type: z.enum(UNIT_TYPES),
  parent_id: zId.nullish().meta({ description: 'The unit above this one; null or absent: directly under the organisation itself.' }),
  locations: z.array(location).max(100),
};

export const unitCreateBody = z.strictObject({
  ...unitFields,
  locations: unitFields.locations.optional(),
  taps: z.array(newTap).max(100).superRefine(distinctCodes, whenParsed).optional(),
});

/** Partial: only the fields given change; a list given replaces the list. */
export const unitUpdateBody = z.strictObject({
  code: unitFields.code.optional(),
  name: unitFields.name.optional(),
  description: unitFields.description,
  type: unitFields.type.optional(),
  parent_id: unitFields.parent_id,
  locations: unitFields.locations.optional(),
  taps: z.array(tapUpdate).max(100).superRefine(distinctCodes, whenParsed).optional(),
});

export const unitListQuery = pagingQuery(['name', 'code', 'type', 'created_on']).extend({
  ...nameCodeQuery,
  type: z.enum(UNIT_TYPES).optional(),
  parent_id: zId.optional().meta({ description: 'Only the units directly below this one.' }),
});

export const locationItem = z.object({
  name: z.string(),
  ...postalAddressOut,
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  googlePlaceId: z.string().nullable(),
});

export const unitItem = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(UNIT_TYPES),
  parent_id: z.string().nullable(),
  locations: z.array(locationItem),
  taps: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const unitList = contentList(unitItem);
