// The one check of custom_fields[] on every write that carries them (docs/custom-fields.md): while
// the organisation has no definition for the entity any key goes; once it has one, every key must
// be defined and every value must be of its type. One indexed statement, and none at all when
// the body has no custom fields (contact creation is a hot path).
import type { OrgSql } from '../../db/sql';
import { invalid } from '../errors';
import { dayEpoch } from './dates';
import type { CustomField } from './values';
import type { CustomFieldEntity, CustomFieldType } from './types';

type Fields = readonly CustomField[] | null | undefined;

interface Definition {
  key: string;
  type: CustomFieldType;
  allowedValues: string[];
}

const DEFINITIONS = `SELECT key, type, allowed_values AS "allowedValues" FROM custom_field_definitions
WHERE organisation_id = $1 AND entity = $2`;

/**
 * Refuses (400) an undefined key, naming `<at>.N.key`, or a value not of its type, naming
 * `<at>.N.value`. A DATE is rewritten in place to its one stored form, the epoch seconds of its
 * day at 00:00 UTC (a number), whether the writer sent YYYY-MM-DD or epoch seconds: readers then
 * answer the stored value as it is, with no definition to look up.
 */
export function checkCustomFields(sql: OrgSql, entity: CustomFieldEntity, fields: Fields, at = 'custom_fields'): Promise<void> {
  return checkCustomFieldLists(sql, entity, [[fields, at]]);
}

/** The lists of several records at once (a bulk update), each with the path it came from. */
export async function checkCustomFieldLists(sql: OrgSql, entity: CustomFieldEntity, lists: ReadonlyArray<readonly [Fields, string]>): Promise<void> {
  if (!lists.some(([fields]) => fields?.length)) return;
  const definitions = new Map((await sql.rows<Definition>(DEFINITIONS, [entity])).map((d) => [d.key, d]));
  if (!definitions.size) return;
  for (const [fields, at] of lists) {
    fields?.forEach((field, i) => {
      const definition = definitions.get(field.key);
      if (!definition) throw invalid(`${at}.${i}.key`, `${at}.${i}.key: ${field.key} is not a custom field of ${entity} (GET /custom_fields lists them)`);
      // null or "" clears the field, whatever its type.
      if (field.value === null || field.value === '') return;
      const value = String(field.value);
      const problem = typeProblem(definition, value);
      if (problem) throw invalid(`${at}.${i}.value`, `${at}.${i}.value: ${field.key} ${problem}`);
      if (definition.type === 'DATE') field.value = dayEpoch(value) ?? null;
    });
  }
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** What is wrong with a value for its definition, or undefined. */
function typeProblem(d: Definition, value: string): string | undefined {
  switch (d.type) {
    case 'NUMBER':
      return DECIMAL.test(value) ? undefined : 'must be a decimal number such as 12 or -3.75';
    case 'DATE':
      return dayEpoch(value) === undefined ? 'must be a date: YYYY-MM-DD or epoch seconds' : undefined;
    case 'BOOLEAN':
      return value === 'true' || value === 'false' ? undefined : 'must be true or false';
    case 'LIST':
      return d.allowedValues.includes(value) ? undefined : `must be one of ${d.allowedValues.join(', ')}`;
    case 'TEXT':
      return undefined;
  }
}
