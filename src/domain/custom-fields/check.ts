// The one check of custom_fields[] on every write that carries them (docs/custom-fields.md): while
// the organisation has no definition for the entity any key goes; once it has one, every key must
// be defined and every value must be of its type. One indexed statement, and none at all when
// the body has no custom fields (contact creation is a hot path).
import type { OrgSql } from '../../db/sql';
import { invalid } from '../errors';
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
 * `<at>.N.value`. A DATE given in epoch seconds is rewritten in place to its one stored form,
 * the UTC day `YYYY-MM-DD`, so readers see one form whatever the writer sent.
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
      if (definition.type === 'DATE' && EPOCH.test(field.value)) field.value = utcDay(Number(field.value));
      const problem = typeProblem(definition, field.value);
      if (problem) throw invalid(`${at}.${i}.value`, `${at}.${i}.value: ${field.key} ${problem}`);
    });
  }
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const EPOCH = /^\d{1,12}$/;

/** The UTC calendar day of an epoch second: the date a caller means by a midnight-UTC epoch. */
function utcDay(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** What is wrong with a value for its definition, or undefined. */
function typeProblem(d: Definition, value: string): string | undefined {
  switch (d.type) {
    case 'NUMBER':
      return DECIMAL.test(value) ? undefined : 'must be a decimal number such as 12 or -3.75';
    case 'DATE':
      return isDay(value) ? undefined : 'must be a date: YYYY-MM-DD or epoch seconds';
    case 'BOOLEAN':
      return value === 'true' || value === 'false' ? undefined : 'must be true or false';
    case 'LIST':
      return d.allowedValues.includes(value) ? undefined : `must be one of ${d.allowedValues.join(', ')}`;
    case 'TEXT':
      return undefined;
  }
}

/** A calendar day: 2024-02-30 is not one. */
function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
