// The five operations of a reference list (create, list, get, update, delete), built once for
// every list with the same shape.
import { actorOf } from '../../domain/audit';
import { createEntry, deleteEntry, getEntry, listEntries, updateEntry, type Catalogue } from '../../domain/reference/catalogue';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { listArgs } from '../lists';
import { ENTRY_SORT, entryFilter, entryPage, presentEntry } from './present';
import { entryCreateBody, entryItem, entryList, entryListQuery, entryUpdateBody } from './schemas';

export const TAG = 'Reference data';

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
  const { catalogue: cat, path } = api;
  const label = cat.label.toLowerCase();
  const read = { scope: 'reference_data:read' } as const;
  const write = { scope: 'reference_data:write' } as const;
  return [
    route({
      method: 'post', path, operationId: `create${api.one}`, tag: TAG, auth: write,
      summary: `Create a ${label}`, description: 'A code already used by another item of the organisation answers 409 ALREADY_EXISTS.',
      body: entryCreateBody, response: idResponse, errors: [409],
      example: { code: 'RETAIL', name: 'Retail', description: 'Shops and stores' },
      handler: async ({ ctx, body }) => {
        const row = await createEntry(ctx.db, actorOf(ctx), cat, body);
        return { id: row.id };
      },
    }),
    route({
      method: 'get', path, operationId: `list${api.many}`, tag: TAG, auth: read,
      summary: `List ${label} items`, description: 'Sortable by name, code, created_on (default: newest first).',
      query: entryListQuery, response: entryList,
      handler: async ({ ctx, query }) => entryPage(query, await listEntries(ctx.db, ctx.organisationId, cat, listArgs(query, ENTRY_SORT), entryFilter(query))),
    }),
    api.get ??
      route({
        method: 'get', path: `${path}/{id}`, operationId: `get${api.one}`, tag: TAG, auth: read,
        summary: `Get a ${label}`, params: idParams, response: entryItem, errors: [404],
        handler: async ({ ctx, params }) => presentEntry(await getEntry(ctx.db, ctx.organisationId, cat, params.id)),
      }),
    route({
      method: 'put', path: `${path}/{id}`, operationId: `update${api.one}`, tag: TAG, auth: write,
      summary: `Update a ${label}`, description: 'Partial: only the fields given change; null clears code or description.',
      params: idParams, body: entryUpdateBody, response: idResponse, errors: [404, 409],
      example: { code: 'RETAIL-2', name: 'Retail', description: 'Shops' },
      handler: async ({ ctx, params, body }) => {
        await updateEntry(ctx.db, actorOf(ctx), cat, params.id, body);
        return { id: params.id };
      },
    }),
    api.delete ??
      route({
        method: 'delete', path: `${path}/{id}`, operationId: `delete${api.one}`, tag: TAG, auth: write,
        summary: `Delete a ${label}`, description: 'An item still referenced (e.g. by contacts or accounts) answers 409 IN_USE.',
        params: idParams, response: idResponse, errors: [404, 409],
        handler: async ({ ctx, params }) => {
          await deleteEntry(ctx.db, actorOf(ctx), cat, params.id);
          return { id: params.id };
        },
      }),
  ];
}
