// Segments (docs/communications.md "Segments"): a STATIC list of contacts, or a FILTER over
// contacts with a subset of the GET /contacts search filters, validated by the same schema.
import { z } from 'zod';
import { contentList, nameCodeQuery } from '../../lists';
import { contactSearchQuery } from '../../contacts/responses';
import { distinctItems, pagingQuery, zEpoch, zId, zRefCode, zRefName } from '../../validation';

export const SEGMENT_TYPES = ['STATIC', 'FILTER'] as const;

/** The GET /contacts filters a FILTER segment may use (no paging, sorting, extras or organisation). */
export const segmentFilters = z
  .strictObject(
    contactSearchQuery.pick({
      search_value: true,
      code: true,
      first_name: true,
      last_name: true,
      company_name: true,
      email_address: true,
      phone_number: true,
      statutory_number: true,
      cim: true,
      loyalty_identifier: true,
    }).shape,
  )
  // A body carries epochs as JSON integers, where the query string carries them as text.
  .extend({ registered_on_from: zEpoch.optional(), registered_on_to: zEpoch.optional() })
  .meta({ description: 'FILTER only: filters of GET /contacts (same names and meaning), all of which a contact must match; {} is every contact.' });

const contactIds = distinctItems(z.array(zId).max(10_000))
  .meta({ description: 'STATIC only: ids of contacts of the organisation (an unknown one is 400 naming contact_ids.N).' });

export const segmentCreateBody = z.strictObject({
  name: zRefName,
  code: zRefCode.nullish(),
  type: z.enum(SEGMENT_TYPES),
  contact_ids: contactIds.optional(),
  filters: segmentFilters.optional(),
});

/** Partial. contact_ids given replace the members; a type change needs the new type's field. */
export const segmentUpdateBody = z.strictObject({
  name: zRefName.optional(),
  code: zRefCode.nullish(),
  type: z.enum(SEGMENT_TYPES).optional(),
  contact_ids: contactIds.optional(),
  filters: segmentFilters.optional(),
});

export const segmentListQuery = pagingQuery(['name', 'code', 'created_on']).extend({
  code: nameCodeQuery.code,
  name: nameCodeQuery.name,
  type: z.enum(SEGMENT_TYPES).optional(),
});

export const segmentItem = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  type: z.enum(SEGMENT_TYPES),
  filters: z.record(z.string(), z.unknown()).nullable().meta({ description: 'FILTER: the filters; STATIC: null.' }),
  contact_count: z.number().int().nullable().meta({ description: 'STATIC: the number of members; FILTER: null (resolved when read: GET /segments/{id}/contacts).' }),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const segmentList = contentList(segmentItem);

export const segmentContactsQuery = pagingQuery(['id']).pick({ page: true, size: true });

export const segmentContactItem = z.object({ id: z.string(), code: z.string().nullable(), name: z.string() });
export const segmentContactList = contentList(segmentContactItem);
