import { nameCodeQuery, pagingSchema } from '../lists';
import { z } from 'zod';
import { NAME_DISPLAY_FORMATS } from '../../domain/reference/name-display';
import { pagingQuery, zId, zAnyCase } from '../validation';

const code = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .meta({ description: 'Optional code, unique within the organisation; usable in place of the id where a body refers to this item.' });
const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000);

export const entryCreateBody = z.strictObject({
  code: code.nullish(),
  name,
  description: description.nullish(),
});

/** Partial: only the fields given change; `null` clears code or description. */
export const entryUpdateBody = z.strictObject({
  code: code.nullable().optional(),
  name: name.optional(),
  description: description.nullable().optional(),
});

export const entryListQuery = pagingQuery(['name', 'code', 'created_on']).extend(nameCodeQuery);

export const entryItem = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const entryList = z.object({ content: z.array(entryItem), paging: pagingSchema });

export const industryDetail = entryItem.extend({
  sectors: z.array(z.object({ id: z.string(), code: z.string().nullable(), name: z.string() })),
});

export const sectorParams = z.object({ id: zId, sector_id: zId });

export const nameDisplayFormat = z.enum(NAME_DISPLAY_FORMATS);

export const nameDisplayBody = z.strictObject({ format: nameDisplayFormat });

export const nameDisplaySettings = z.object({
  format: nameDisplayFormat,
  updated_on: z.number().int().nullable().meta({ description: 'Null while the organisation uses the default.' }),
});

export const countryListQuery = pagingQuery(['name', 'code']).extend({
  // Alphabetical unless asked otherwise: countries have no creation order to be newest in.
  order: zAnyCase(['ASC', 'DESC'])
    .default('ASC'),
  search_value: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Text within the English name (case and accents ignored: `cote` finds Côte d\'Ivoire), or a whole alpha-2 or alpha-3 code (`CY`, `cyp`).' }),
});

export const countryItem = z.object({
  code: z.string().meta({ description: 'ISO 3166-1 alpha-3: the form every country field of the API stores and answers.' }),
  alpha_2: z.string().meta({ description: 'ISO 3166-1 alpha-2, accepted as input wherever a country code is.' }),
  name: z.string().meta({ description: 'English short name.' }),
});

export const countryList = z.object({ content: z.array(countryItem), paging: pagingSchema });
