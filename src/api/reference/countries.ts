// GET /countries: the service's own ISO 3166-1 table (docs/contacts.md "Countries"), so a client's
// country picker offers exactly the codes the API accepts.
import { listCountries } from '../../domain/reference/countries';
import { contentPage, offsetOf } from '../lists';
import { route, type RouteDef } from '../route';
import { TAG } from './catalogue-routes';
import { countryList, countryListQuery } from './schemas';

export function countryRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/countries', operationId: 'listCountries', tag: TAG, auth: { scope: 'reference_data:read' },
      summary: 'List countries',
      description:
        'The ISO 3166-1 countries the service knows (249), with both codes and the English name: the table every country code of the API is checked against. ' +
        'Input accepts either code; the API stores and answers alpha-3 (`code`). Sortable by name (default) or code, alphabetical (ASC) unless `order` says DESC. The same for every organisation.',
      query: countryListQuery, response: countryList,
      handler: async ({ query }) => {
        const page = listCountries({
          searchValue: query.search_value, sort: query.sort ?? 'name', descending: query.order === 'DESC',
          skip: offsetOf(query), take: query.size,
        });
        return contentPage(query, page.rows.map((c) => ({ code: c.code, alpha_2: c.alpha2, name: c.name })), page.total);
      },
    }),
  ];
}
