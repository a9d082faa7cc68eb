// Value pickers for filter attributes, as GET /automation_events describes each attribute: a closed
// list (`allowed_values`: a contact type, a channel, yes or no), or the API list that holds the
// values (`values_from`: the countries, contact categories, templates, ...), or free input with a
// hint of what a value is (`value_type`). Nothing about particular attributes is known here.
import { useEffect, useState } from 'react';
import { loadPath } from '../api/lists';
import type { AttributeDef } from '../api/types';
import { session } from '../auth/session';
import type { Option } from './lookups';

type ValuesFrom = NonNullable<AttributeDef['values_from']>;

const cache = new Map<string, Promise<Option[]>>();

/** The options of a `values_from` list, read once per session; codes (a country's) are shown with the name. */
function optionsFrom(from: ValuesFrom): Promise<Option[]> {
  const key = `${from.path} ${from.value} ${from.label}`;
  if (!cache.has(key)) {
    const loaded = loadPath(from.path).then((items) =>
      items.map((item) => {
        const value = String(item[from.value]);
        const label = String(item[from.label] ?? value);
        return { value, label: from.value === 'id' ? label : `${label} (${value})` };
      }),
    );
    cache.set(key, loaded.catch((err) => {
      cache.delete(key);
      throw err;
    }));
  }
  return cache.get(key)!;
}

/** Lists are per user (their scopes, their organisation's records): forgotten at logout. */
session.subscribe(() => {
  if (!session.current()) cache.clear();
});

export interface Choices {
  /** The options, when the values are a closed list or a list this user can read; undefined: free input. */
  options?: Option[];
  loading: boolean;
}

/** What a filter on `attr` may take: its closed list, its `values_from` list once loaded, or free input. */
export function useChoices(attr: AttributeDef | undefined): Choices {
  const from = attr?.values_from ?? null;
  const key = from ? `${from.path} ${from.value} ${from.label}` : '';
  const [loaded, setLoaded] = useState<{ key: string; options?: Option[] }>();
  useEffect(() => {
    if (!from) return;
    let current = true;
    optionsFrom(from).then(
      (options) => current && setLoaded({ key, options }),
      // Not readable with this user's scopes (403), or unreachable: the value is typed instead.
      () => current && setLoaded({ key }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  if (!attr) return { loading: false };
  if (attr.allowed_values) {
    const yesNo: Record<string, string> = { true: 'Yes', false: 'No' };
    return { options: attr.allowed_values.map((v) => ({ value: v, label: attr.value_type === 'BOOLEAN' ? (yesNo[v] ?? v) : v })), loading: false };
  }
  if (!from) return { loading: false };
  if (loaded?.key !== key) return { options: [], loading: true };
  return { options: loaded.options, loading: false };
}

/** What to type, for a value with no list: the hint under the input. */
export const VALUE_HINTS: Record<string, string> = {
  UUID: "The record's id (a GUID)",
  LANGUAGE_CODE: 'ISO 639 code, 3 letters (eng)',
  CURRENCY_CODE: 'ISO 4217 code (EUR)',
  COUNTRY_CODE: 'ISO 3166 code (CY or CYP)',
  NUMBER: 'A number; decimals with a point',
};

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
