// The countries, from the service's own ISO 3166-1 table (GET /countries): exactly the codes every
// country field of the API accepts, with their English names. The same for every organisation and
// fixed while the service runs, so it is read once per page load.
import { api } from './client';
import { ok } from './errors';
import { loadAll } from './lists';
import type { Get } from './types';

/** `code` is alpha-3 (what the API stores and answers), `alpha_2` the other accepted form. */
export type Country = Get<'/countries'>['content'][number];

let loading: Promise<Country[]> | undefined;

/** Every country, by name. */
export function loadCountries(): Promise<Country[]> {
  loading ??= loadAll((page, size) => ok(api.GET('/countries', { params: { query: { page, size } } }))).catch((err) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
