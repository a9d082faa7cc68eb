// The five operations of a reference list (create, list, get, update, delete): one resource
// declaration for every list of the same shape.
import { createEntry, deleteEntry, getEntry, listEntries, updateEntry, type Catalogue } from '../../domain/reference/catalogue';
import { nameCodeFilter, NAME_CODE_SORT } from '../lists';
import { resourceRoutes } from '../resource';
import { groupAuth, type RouteDef } from '../route';
import { presentEntry } from './present';
import { entryCreateBody, entryItem, entryList, entryListQuery, entryUpdateBody } from './schemas';

export const TAG = 'Reference data';

export const REFERENCE_AUTH = groupAuth('reference_data');

export interface CatalogueApi {
  catalogue: Catalogue;
  /** Collection path, e.g. `/contact_categories`. */
  path: string;
  /** Operation id stems: `ContactCategory` / `ContactCategories`. */
  one: string;
  many: string;
  /** Replaces the generic get (industries add their sectors). */
  get?: RouteDef;
  /** Replaces the generic delete (industries refuse while they have sectors). */
  delete?: RouteDef;
}

export function catalogueRoutes(api: CatalogueApi): RouteDef[] {
  const { catalogue: cat } = api;
  return resourceRoutes({
    path: api.path, one: api.one, many: api.many, label: cat.label.toLowerCase(), tag: TAG, auth: REFERENCE_AUTH,
    item: entryItem, present: presentEntry,
    create: {
      description: 'A code already used by another item of the organisation answers 409 ALREADY_EXISTS.',
      body: entryCreateBody, example: { code: 'RETAIL', name: 'Retail', description: 'Shops and stores' },
      run: (tx, actor, body) => createEntry(tx, actor, cat, body),
    },
    list: {
      summary: `List ${cat.label.toLowerCase()} items`, description: 'Sortable by name, code, created_on (default: newest first).',
      query: entryListQuery, response: entryList, sort: NAME_CODE_SORT, filter: nameCodeFilter,
      run: (tx, org, args, filter) => listEntries(tx, org, cat, args, filter),
    },
    get: api.get ?? { run: (tx, org, id) => getEntry(tx, org, cat, id) },
    update: {
      description: 'Partial: only the fields given change; null clears code or description.',
      body: entryUpdateBody, example: { code: 'RETAIL-2', name: 'Retail', description: 'Shops' },
      run: (tx, actor, id, patch) => updateEntry(tx, actor, cat, id, patch),
    },
    delete: api.delete ?? {
      description: 'An item still referenced (e.g. by contacts or accounts) answers 409 IN_USE.',
      run: (tx, actor, id) => deleteEntry(tx, actor, cat, id),
    },
  });
}
