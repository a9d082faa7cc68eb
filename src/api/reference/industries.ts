// Industries (with the generic operations, a get that lists sectors and a guarded delete) and
// their sectors, addressed below the industry: /industries/{id}/sectors/{sector_id}.
import { actorOf } from '../../domain/audit';
import { createEntry, getEntry, industries, industrySectors, listEntries, updateEntry } from '../../domain/reference/catalogue';
import { deleteIndustry, deleteSector, getIndustryWithSectors, requireIndustry } from '../../domain/reference/industries';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { catalogueRoutes, REFERENCE_AUTH, TAG } from './catalogue-routes';
import { contentPage, listArgs, nameCodeFilter, NAME_CODE_SORT } from '../lists';
import { presentEntry } from './present';
import { entryCreateBody, entryItem, entryList, entryListQuery, entryUpdateBody, industryDetail, sectorParams } from './schemas';

const { read, write } = REFERENCE_AUTH;

export function industryRoutes(): RouteDef[] {
  return [...catalogueRoutes({
    catalogue: industries, path: '/industries', one: 'Industry', many: 'Industries',
    get: route({
      method: 'get', path: '/industries/{id}', operationId: 'getIndustry', tag: TAG, auth: read,
      summary: 'Get an industry with its sectors', params: idParams, response: industryDetail, errors: [404],
      handler: async ({ ctx, params }) => {
        const { industry, sectors } = await getIndustryWithSectors(ctx.db, ctx.organisationId, params.id);
        return { ...presentEntry(industry), sectors };
      },
    }),
    delete: route({
      method: 'delete', path: '/industries/{id}', operationId: 'deleteIndustry', tag: TAG, auth: write,
      summary: 'Delete an industry', description: 'An industry that still has sectors, or is used by contacts, answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteIndustry(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  }), ...sectorRoutes()];
}

function sectorRoutes(): RouteDef[] {
  const path = '/industries/{id}/sectors';
  return [
    route({
      method: 'post', path, operationId: 'createIndustrySector', tag: TAG, auth: write,
      summary: 'Create a sector of an industry', description: 'Sector codes are unique within the organisation (409 ALREADY_EXISTS).',
      params: idParams, body: entryCreateBody, response: idResponse, errors: [404, 409],
      example: { code: 'GROCERY', name: 'Groceries', description: 'Food retail' },
      handler: async ({ ctx, params, body }) => {
        await requireIndustry(ctx.db, ctx.organisationId, params.id);
        const row = await createEntry(ctx.db, actorOf(ctx), industrySectors, body, { industryId: params.id });
        return { id: row.id };
      },
    }),
    route({
      method: 'get', path, operationId: 'listIndustrySectors', tag: TAG, auth: read,
      summary: 'List the sectors of an industry', params: idParams, query: entryListQuery, response: entryList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        await requireIndustry(ctx.db, ctx.organisationId, params.id);
        const parent = { industryId: params.id };
        const page = await listEntries(ctx.db, ctx.organisationId, industrySectors, listArgs(query, NAME_CODE_SORT), nameCodeFilter(query), parent);
        return contentPage(query, page.rows.map(presentEntry), page.total);
      },
    }),
    route({
      method: 'get', path: `${path}/{sector_id}`, operationId: 'getIndustrySector', tag: TAG, auth: read,
      summary: 'Get a sector of an industry', params: sectorParams, response: entryItem, errors: [404],
      handler: async ({ ctx, params }) =>
        presentEntry(await getEntry(ctx.db, ctx.organisationId, industrySectors, params.sector_id, { industryId: params.id })),
    }),
    route({
      method: 'put', path: `${path}/{sector_id}`, operationId: 'updateIndustrySector', tag: TAG, auth: write,
      summary: 'Update a sector of an industry', description: 'Partial: only the fields given change; null clears code or description.',
      params: sectorParams, body: entryUpdateBody, response: idResponse, errors: [404, 409],
      example: { code: 'GROCERY-2', name: 'Groceries', description: 'Food' },
      handler: async ({ ctx, params, body }) => {
        const parent = { industryId: params.id };
        await updateEntry(ctx.db, actorOf(ctx), industrySectors, params.sector_id, body, parent);
        return { id: params.sector_id };
      },
    }),
    route({
      method: 'delete', path: `${path}/{sector_id}`, operationId: 'deleteIndustrySector', tag: TAG, auth: write,
      summary: 'Delete a sector of an industry', description: 'A sector still used by contacts answers 409 IN_USE.',
      params: sectorParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteSector(ctx.db, actorOf(ctx), params.id, params.sector_id);
        return { id: params.sector_id };
      },
    }),
  ];
}
