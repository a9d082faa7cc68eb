// Value pickers for filter attributes. The catalogue gives each attribute a type and its operators,
// not its values: the enumerations below are the API's own (contact_type, channel), and countries
// come from the service's country table, written by scripts/build-console.mjs at build time.
import countries from '@api/countries';
import type { Option } from './lookups';

export const COUNTRIES: Option[] = countries.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
const countryNames = new Map(countries.map((c) => [c.code, c.name]));
export const countryName = (code: string) => countryNames.get(code.toUpperCase());

const ENUMERATIONS: Record<string, string[]> = {
  CONTACT_TYPE: ['PERSON', 'COMPANY'],
  CHANNEL: ['EMAIL', 'SMS', 'INAPP'],
};

/** The values an attribute may take, when they are a closed list. */
export function choicesOf(attribute: string, type: string): Option[] | undefined {
  if (attribute === 'COUNTRY_CODE') return COUNTRIES;
  if (type === 'BOOLEAN') return [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }];
  const values = ENUMERATIONS[attribute];
  return values?.map((v) => ({ value: v, label: v }));
}

export const OPERATOR_LABELS: Record<string, string> = {
  EQUAL: 'is',
  NOT_EQUAL: 'is not',
  LESS: 'is less than',
  EQUAL_LESS: 'is at most',
  GREATER: 'is greater than',
  EQUAL_GREATER: 'is at least',
  IN: 'is one of',
  CONTAINS: 'contains',
  STARTS_WITH: 'starts with',
};
