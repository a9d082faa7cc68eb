// Countries for the customer pages' pickers, behind one function: the API's GET /countries (the
// service's ISO 3166-1 table, every code its country fields accept), read once per page load by
// console/src/api/countries.ts. The pages need only the alpha-3 code and the English name.
import { useEffect, useState } from 'react';
import { loadCountries as loadCountryList } from '../api/countries';
import { messageOf } from '../api/errors';

export interface Country {
  /** ISO 3166 alpha-3, the form the API stores and answers. */
  code: string;
  name: string;
}

/** Every country, by name. */
export async function loadCountries(): Promise<Country[]> {
  const all = await loadCountryList();
  return all.map((c) => ({ code: c.code, name: c.name })).sort((a, b) => a.name.localeCompare(b.name));
}

export interface CountryOptions {
  /** Select options: value the alpha-3 code, label the name. */
  options: { value: string; label: string }[];
  /** Why there are none (a user without `reference_data:read`, the service unreachable). */
  failure?: string;
}

/** The countries as select options, loaded once per page (console/src/api/countries.ts keeps them). */
export function useCountryOptions(): CountryOptions {
  const [state, setState] = useState<CountryOptions>({ options: [] });
  useEffect(() => {
    let current = true;
    loadCountries().then(
      (all) => current && setState({ options: all.map((c) => ({ value: c.code, label: c.name })) }),
      (err: unknown) => current && setState({ options: [], failure: `Countries cannot be listed: ${messageOf(err)}` }),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}
