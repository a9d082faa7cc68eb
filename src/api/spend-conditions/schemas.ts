// Spend conditions (spec 2.4): where (network units), on what (products, types, families) and
// when (timings) restricted money may be spent.
import { z } from 'zod';
import { contentList, nameCodeQuery } from '../lists';
import { locationItem } from '../network/schemas';
import { pagingQuery, whenParsed, zId, zRefCode, zRefName } from '../validation';

export const PRODUCT_ID_TYPES = ['FAMILY', 'TYPE', 'PRODUCT'] as const;

const code = zRefCode;
const name = zRefName;
const clock = /^([01]\d|2[0-3]):[0-5]\d$/;

export const timing = z
  .strictObject({
    month: z.number().int().min(1).max(12).nullish().meta({ description: '1-12; absent: every month.' }),
    day: z.number().int().min(1).max(7).nullish().meta({ description: 'Day of the week, 1 = Sunday ... 7 = Saturday; absent: every day.' }),
    start_time: z.string().regex(clock, 'must be HH:MM (24-hour)').meta({ description: 'Inclusive, HH:MM.' }),
    end_time: z
      .string()
      .regex(clock, 'must be HH:MM (24-hour)')
      .or(z.literal('24:00'))
      .meta({ description: 'Exclusive, HH:MM; 24:00 is the end of the day.' }),
  })
  .refine((t) => t.start_time < t.end_time, { path: ['end_time'], message: 'must be later than start_time', ...whenParsed })
  .transform((t) => ({ month: t.month ?? null, day: t.day ?? null, start_time: t.start_time, end_time: t.end_time }));

const productRef = z.strictObject({ id_type: z.enum(PRODUCT_ID_TYPES), id: zId });

const lists = {
  organisations: z.array(zId).max(100).meta({ description: 'Ids of units of the business network (/organisations); empty: anywhere.' }),
  products: z.array(productRef).max(200).meta({ description: 'Products, product types or product families; empty: any product.' }),
  timings: z.array(timing).max(100).meta({ description: 'Windows in which spending is allowed; empty: any time.' }),
};

export const spendConditionCreateBody = z.strictObject({
  name,
  code: code.nullish().meta({ description: 'Optional code, unique within the organisation.' }),
  organisations: lists.organisations.optional(),
  products: lists.products.optional(),
  timings: lists.timings.optional(),
});

/** Partial: only the fields given change; a list given replaces the list. */
export const spendConditionUpdateBody = z.strictObject({
  name: name.optional(),
  code: code.nullish(),
  organisations: lists.organisations.optional(),
  products: lists.products.optional(),
  timings: lists.timings.optional(),
});

export const spendConditionListQuery = pagingQuery(['name', 'code', 'created_on']).extend(nameCodeQuery);

/** Read form of spec 2.4, reused by the wallet balances. */
export const spendConditionItem = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  organisations: z.array(z.object({ id: z.string(), name: z.string(), locations: z.array(locationItem) })),
  products: z.array(z.object({ id_type: z.enum(PRODUCT_ID_TYPES), id: z.string(), name: z.string(), description: z.string().nullable() })),
  timings: z.array(z.object({ month: z.number().int().nullable(), day: z.number().int().nullable(), start_time: z.string(), end_time: z.string() })),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const spendConditionList = contentList(spendConditionItem);
