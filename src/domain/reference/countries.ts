// The country list the API publishes (GET /countries, docs/contacts.md "Countries"): the service's
// own ISO 3166-1 table (src/domain/contacts/countries.ts), the same one every country code is
// validated against, so a picker offers exactly the codes a write accepts. Fixed data: filtered,
// sorted and paged in memory.
import { alpha2Of, COUNTRY_CODES, countryName } from '../contacts/countries';
import type { ListPage } from '../lists';

export interface Country {
  /** ISO 3166-1 alpha-3: what the API stores and answers. */
  code: string;
  alpha2: string;
  /** English short name. */
  name: string;
}

/** Case and accents ignored, so `cote` finds Côte d'Ivoire and `turk` Türkiye. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const COUNTRIES: readonly (Country & { folded: string })[] = COUNTRY_CODES.map((code) => {
  const name = countryName(code)!;
  return { code, alpha2: alpha2Of(code)!, name, folded: folded(name) };
});

export interface CountryQuery {
  /** Text within the name, or a whole alpha-2 or alpha-3 code. */
  searchValue?: string;
  sort: 'name' | 'code';
  descending: boolean;
  skip: number;
  take: number;
}

export function listCountries(q: CountryQuery): ListPage<Country> {
  const text = q.searchValue?.trim();
  const wanted = text ? folded(text) : undefined;
  const upper = text?.toUpperCase();
  const found = wanted === undefined ? [...COUNTRIES] : COUNTRIES.filter((c) => c.folded.includes(wanted) || c.code === upper || c.alpha2 === upper);
  const key = q.sort === 'code' ? (c: Country) => c.code : (c: Country) => c.name;
  found.sort((a, b) => key(a).localeCompare(key(b), 'en') || a.code.localeCompare(b.code));
  if (q.descending) found.reverse();
  const rows = found.slice(q.skip, q.skip + q.take).map(({ code, alpha2, name }) => ({ code, alpha2, name }));
  return { rows, total: found.length };
}
