// Custom field definitions (spec 2.13, 4.9; docs/custom-fields.md), and the custom_fields[] of
// the records that gained them with the definitions (accounts, purchases).
import { z } from 'zod';
import { CUSTOM_FIELD_ENTITIES, CUSTOM_FIELD_KEY, CUSTOM_FIELD_TYPES } from '../../domain/custom-fields/kinds';
import { whenParsed, zRefName, zAnyCase } from '../validation';


export const zEntity = zAnyCase(CUSTOM_FIELD_ENTITIES)
  .meta({ description: `The records whose custom_fields[] the definition governs: ${CUSTOM_FIELD_ENTITIES.join(', ')}; any letter case.` });

const zType = zAnyCase(CUSTOM_FIELD_TYPES)
  .meta({ description: 'TEXT (anything), NUMBER (decimal text such as 12 or -3.75), DATE (YYYY-MM-DD or epoch seconds, kept and answered as the epoch seconds of the day at 00:00 UTC), BOOLEAN (true or false), LIST (one of allowed_values); any letter case.' });

const description = z.string().max(2000);

const allowedValues = z
  .array(z.string().trim().min(1).max(200))
  .min(1)
  .max(100)
  .refine((values) => new Set(values).size === values.length, { message: 'must not repeat a value', ...whenParsed })
  .meta({ description: 'LIST only, and required for it: the values a field may take (compared exactly).' });

export const definitionCreateBody = z.strictObject({
  entity: zEntity,
  key: z
    .string()
    .regex(CUSTOM_FIELD_KEY, 'must be 1-64 of a-z, 0-9 and _, starting with a letter')
    .meta({ description: 'The key custom_fields[] items carry; unique per entity. Cannot change later.' }),
  name: zRefName,
  description: description.nullish(),
  type: zType,
  allowed_values: allowedValues.optional(),
});

/** Partial; key and entity never change. */
export const definitionUpdateBody = z.strictObject({
  name: zRefName.optional(),
  description: description.nullable().optional(),
  type: zType.optional().meta({ description: 'Applies to values written from now on; stored values stay as they are.' }),
  allowed_values: allowedValues.optional(),
});

export const definitionListQuery = z.strictObject({
  entity_name: zEntity.optional().meta({ description: 'Only the definitions of this entity; all entities when absent.' }),
});

export const definitionItem = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  entity: z.enum(CUSTOM_FIELD_ENTITIES),
  allowed_values: z.array(z.string()).optional().meta({ description: 'LIST only.' }),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const definitionList = z.array(definitionItem).meta({ description: 'By entity, then key.' });

/**
 * A custom field's value as written: text, or a JSON number or boolean kept as its text, except
 * a DATE, kept as the epoch seconds of its day (docs/custom-fields.md).
 */
export const customFieldValue = z
  .union([z.string().max(2000), z.number(), z.boolean()])
  .transform(String)
  .nullable()
  .meta({
    description: 'A string, number or boolean (kept as its text); for a DATE key YYYY-MM-DD or epoch seconds (an integer or its digits), '
      + 'kept as the epoch seconds of that UTC day at 00:00. null or "" clears the value.',
  });

/** custom_fields[] of an account, a purchase, a wallet, a void or a voucher: a key given again later takes the new value. */
export const customFieldsBody = z
  .array(z.strictObject({ key: z.string().trim().min(1).max(100), value: customFieldValue }))
  .max(100)
  .meta({ description: 'Checked against the definitions of the entity once it has any (GET /custom_fields); null or "" clears a value.' });

/** A value as answered: the text as stored, or for a DATE an integer. */
export const customFieldValueOut = z
  .union([z.string(), z.number().int()])
  .nullable()
  .meta({
    description: 'DATE: an integer, the epoch seconds of the day at 00:00 UTC (since issue 34; it was the text YYYY-MM-DD). '
      + 'Any other type, or a value written before its key was defined as a DATE: the text as stored.',
  });

export const customFieldsOut = z.array(z.object({ key: z.string(), value: customFieldValueOut }));
