import { z } from 'zod';
import { isId, normaliseId } from '../domain/ids';
import { Money } from '../domain/money';

/** JSON booleans and the strings "true"/"false" are both accepted (spec 1, conventions). */
export const zBool = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .meta({ description: 'Boolean; the strings "true" and "false" are accepted too.' });

/** A GUID: 32 hex characters or hyphenated, any case; normalised to lower-case hyphenated. */
export const zId = z
  .string()
  .refine(isId, { message: 'must be a GUID (32 hex characters or hyphenated form)' })
  .transform(normaliseId)
  .meta({ description: 'GUID, 32 hex characters or hyphenated form.', example: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10' });

/** Epoch seconds (UTC). */
export const zEpoch = z.coerce.number().int().min(0).max(253402300799);

/**
 * Exact amount: a JSON number or numeric string with at most 15 integer digits and 4 decimal
 * places, read from its decimal text (never through a binary float) into Money.
 */
export const zAmount = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)])
  .transform((v, ctx) => {
    // String(number) is the shortest text that reads back as the same number: the decimal the caller wrote.
    const text = typeof v === 'number' ? String(v) : v;
    if (!/^-?\d{1,15}(\.\d{1,4})?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'must be a number with at most 15 integer digits and 4 decimal places' });
      return z.NEVER;
    }
    return new Money(text);
  })
  .meta({ description: 'Amount: a JSON number (or numeric string), at most 4 decimal places.' });

export const zCurrency = z.string().regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 4217 code').transform((v) => v.toUpperCase());
export const zCountry = z.string().regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 3166 alpha-3 code').transform((v) => v.toUpperCase());
export const zLanguage = z.string().regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 639 code').transform((v) => v.toLowerCase());

/** The code of a reference-data record (used in paths, so no "/"): unique within the organisation. */
export const zRefCode = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^/]+$/, 'must not contain "/"')
  .meta({ description: 'Optional code, unique within the organisation.' });
export const zRefName = z.string().trim().min(1).max(200);

export const idParams = z.object({ id: zId });
export const idResponse = z.object({ id: z.string() });

/**
 * Paging query of every list (API-CONVENTIONS "Lists"). `sort` is limited to the given fields
 * so an unknown one answers 400; so does an unknown query parameter (a misspelt filter must not
 * silently widen the result).
 */
export function pagingQuery<const S extends readonly [string, ...string[]]>(sortFields: S) {
  return z.strictObject({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
    sort: z.enum(sortFields).optional(),
    order: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(['ASC', 'DESC']))
      .default('DESC'),
  });
}

/** The postal lines every address read shows (billing addresses, locations). */
export const postalAddressOut = {
  address_line_1: z.string().nullable(),
  address_line_2: z.string().nullable(),
  state_province_county: z.string().nullable(),
  town_city: z.string().nullable(),
  postal_code: z.string().nullable(),
  country_code: z.string().nullable(),
};
