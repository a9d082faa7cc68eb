import { z } from 'zod';
import { alpha3Of, COUNTRY_INPUT_CODES } from '../domain/contacts/countries';
import { ID_PATTERN, normaliseId } from '../domain/ids';
import { whenParsed } from '../domain/input-values';
import { Money } from '../domain/money';

export { whenParsed };
export { zBool } from '../domain/input-values';

/**
 * One of `values` in any letter case, read upper-case. The document lists the values and marks
 * the case as free (`x-any-case`), so a generated client offers the values and a lenient caller
 * still passes.
 */
export function zAnyCase<const V extends readonly [string, ...string[]]>(values: V) {
  return z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(values))
    .meta({ enum: [...values], 'x-any-case': true });
}

/** A GUID: 32 hex characters or hyphenated, any case; normalised to lower-case hyphenated. */
export const zId = z
  .string()
  .regex(ID_PATTERN, 'must be a GUID (32 hex characters or hyphenated form)')
  .transform(normaliseId)
  .meta({ description: 'GUID, 32 hex characters or hyphenated form.', example: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10' });

const LAST_EPOCH = 253402300799; // 9999-12-31T23:59:59Z

/**
 * Epoch seconds (UTC) in a JSON body: an integer, nothing coerced (null, true, "" and [] are
 * not times). Query strings carry text, so they take `zEpochQuery`.
 */
export const zEpoch = z.number().int().min(0).max(LAST_EPOCH).meta({ description: 'Epoch seconds (UTC).' });

/** Epoch seconds in a query string: digits only. */
export const zEpochQuery = z
  .string()
  .regex(/^\d{1,12}$/, 'must be epoch seconds (an integer)')
  .transform(Number)
  .pipe(z.number().max(LAST_EPOCH))
  .meta({ description: 'Epoch seconds (UTC).' });

/**
 * What the document states of a schema whose zod reading is looser than what it enforces, read by
 * the OpenAPI generator (src/api/openapi.ts) for the request side: `replace` is written instead
 * of zod's JSON Schema (a union read through a transform), `add` beside it (a refinement between
 * fields, as `oneOf`/`anyOf` of required members).
 */
export const DOCUMENTED_INPUT = new WeakMap<z.ZodType, { replace?: Record<string, unknown>; add?: Record<string, unknown> }>();
function documentedAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  DOCUMENTED_INPUT.set(schema, { replace: json });
  return schema;
}

/** States a rule between members, e.g. `oneOf: [{required: ['id']}, {required: ['code']}]`. */
export function documentedRule<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  DOCUMENTED_INPUT.set(schema, { add: json });
  return schema;
}

// Stated with if/then and not, which generators of client models leave aside (oneOf/anyOf
// made them turn one request into a union of models). A member a subschema requires is named in
// its `properties` too (`{}`: the object's own schema says what it takes), for linters reading
// the subschema alone.
const given = (...members: string[]) => ({ properties: Object.fromEntries(members.map((m) => [m, {}])), required: members });
/** JSON Schema: at least one of the members is given (with none of the others, the last is required). */
export const someOf = (...members: string[]) => ({
  if: { not: anyOf(members.slice(0, -1).map((m) => given(m))) },
  then: given(members[members.length - 1]),
});
/** JSON Schema: exactly one of the members is given. */
export const exactlyOneOf = (...members: string[]) => ({
  ...someOf(...members),
  not: anyOf(members.flatMap((a, i) => members.slice(i + 1).map((b) => given(a, b)))),
});
/** One schema stands alone: an anyOf of one is refused by linters. */
const anyOf = (schemas: object[]) => (schemas.length === 1 ? schemas[0] : { anyOf: schemas });

const AMOUNT_TEXT = /^-?\d{1,15}(\.\d{1,4})?$/;
/** The largest the number form is documented to reach: 15 integer digits (a double cannot hold .9999 beside them). */
const LARGEST_AMOUNT = 999_999_999_999_999;

/**
 * Exact amount: a JSON number or numeric string with at most 15 integer digits and 4 decimal
 * places, read from its decimal text (never through a binary float) into Money. `sign` narrows
 * it to amounts above zero or not below it, which the document states in both forms.
 */
function amount(sign?: 'positive' | 'non-negative') {
  const base = z
    .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)])
    .transform((v, ctx) => {
      // String(number) is the shortest text that reads back as the same number: the decimal the caller wrote.
      const text = typeof v === 'number' ? String(v) : v;
      if (!AMOUNT_TEXT.test(text)) {
        ctx.addIssue({ code: 'custom', message: 'must be a number with at most 15 integer digits and 4 decimal places' });
        return z.NEVER;
      }
      return new Money(text);
    });
  const checked =
    sign === 'positive' ? base.refine((v) => v.gt(0), { message: 'must be greater than 0' })
    : sign === 'non-negative' ? base.refine((v) => !v.isNegative(), { message: 'must not be negative' })
    : base;
  const number =
    sign === 'positive' ? { type: 'number', exclusiveMinimum: 0, maximum: LARGEST_AMOUNT }
    : sign === 'non-negative' ? { type: 'number', minimum: 0, maximum: LARGEST_AMOUNT }
    : { type: 'number', minimum: -LARGEST_AMOUNT, maximum: LARGEST_AMOUNT };
  // Without look-ahead (generators read it): the positive text has a non-zero digit.
  const pattern =
    sign === 'positive' ? '^(?:[1-9]\\d{0,14}(?:\\.\\d{1,4})?|0\\.\\d{0,3}[1-9])$'
    : sign === 'non-negative' ? '^\\d{1,15}(?:\\.\\d{1,4})?$'
    : AMOUNT_TEXT.source;
  const said = sign === 'positive' ? ', greater than 0' : sign === 'non-negative' ? ', not negative' : '';
  const description = `Amount: a JSON number (or numeric string), at most 15 integer digits and 4 decimal places${said}.`;
  return documentedAs(checked.meta({ description }), { anyOf: [number, { type: 'string', pattern }] });
}
export const zAmount = amount();
export const zPositiveAmount = amount('positive');
export const zNonNegativeAmount = amount('non-negative');

/**
 * An e-mail address as browsers check one (HTML's rule: what a generator of `format: email`
 * writes), at most 254 characters, surrounding spaces trimmed.
 */
export const zEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ pattern: z.regexes.html5Email, message: 'must be an e-mail address' }))
  .meta({ format: 'email' });

export const zCurrency = z.string().regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 4217 code').transform((v) => v.toUpperCase());
/**
 * An ISO 3166 country, alpha-2 or alpha-3 in any case, as the alpha-3 code every record stores:
 * an integrator's `CY` must not become a value that no filter or search finds again.
 */
export const zCountry = z
  .string()
  .regex(/^[A-Za-z]{2,3}$/, 'must be an ISO 3166 alpha-2 or alpha-3 code')
  .transform((v, ctx) => {
    const code = alpha3Of(v);
    if (code) return code;
    ctx.addIssue({ code: 'custom', message: `${v} is not an ISO 3166 country code` });
    return z.NEVER;
  })
  .meta({
    id: 'CountryCode',
    enum: [...COUNTRY_INPUT_CODES],
    'x-any-case': true,
    description: 'ISO 3166 country code, alpha-2 (CY) or alpha-3 (CYP), any case; stored and answered as alpha-3.',
    example: 'CYP',
  });
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

/** An id for the examples of the OpenAPI document. */
export const SOME_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';

export const idParams = z.object({ id: zId });
export const idResponse = z.object({ id: z.string() }).meta({ id: 'RecordId', description: 'The id of the record the call made or acted on.' });

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
    order: zAnyCase(['ASC', 'DESC'])
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

/** A list of text or ids with no item twice (the second is named): `uniqueItems` in the document. */
export function distinctItems<T extends z.ZodArray<z.ZodType<string>>>(list: T) {
  return documentedRule(list.superRefine(distinct((item: string) => item), whenParsed), { uniqueItems: true });
}

/** A list's refinement: the second of two equal items is named (`merchants.1`, `products.1.id`). Run with `whenParsed`. */
export function distinct<T>(key: (item: T) => string, field?: string, message = 'listed twice') {
  return (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: field ? [i, field] : [i], message });
      seen.add(k);
    });
  };
}
