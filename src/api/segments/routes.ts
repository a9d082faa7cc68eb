// Segments (issue 9 part 1): the one shape of reference data, plus the contacts a segment
// resolves to. Decisions: docs/communications.md "Segments".
import { actorOf } from '../../domain/audit';
import { createSegment, deleteSegment, getSegment, listSegmentContacts, listSegments, updateSegment } from '../../domain/communications/segments';
import { COMMUNICATIONS_TAG as TAG, communicationsRead, communicationsWrite } from '../integrations/routes';
import { contentPage, listArgs, NAME_CODE_SORT } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentSegment, segmentFilter } from './present';
import {
  segmentContactList,
  segmentContactsQuery,
  segmentCreateBody,
  segmentItem,
  segmentList,
  segmentListQuery,
  segmentUpdateBody,
} from './schemas';

const SOME_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';

export function segmentRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/segments', operationId: 'createSegment', tag: TAG, auth: communicationsWrite,
      summary: 'Create a segment',
      description:
        'STATIC: contact_ids (required; contacts of the organisation, an unknown one is 400 naming contact_ids.N). ' +
        'FILTER: filters (required), a subset of the GET /contacts filters, resolved whenever the segment is read.',
      body: segmentCreateBody, response: idResponse, errors: [409],
      example: { name: 'Newsletter readers', code: 'NEWS', type: 'FILTER', filters: { registered_on_from: 1767225600, last_name: 'Smith' } },
      handler: ({ ctx, body }) => createSegment(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/segments', operationId: 'listSegments', tag: TAG, auth: communicationsRead,
      summary: 'List segments', description: 'Filters: name (contains), code (exact), type. Sortable by name, code, created_on (default: newest first).',
      query: segmentListQuery, response: segmentList,
      handler: async ({ ctx, query }) => {
        const page = await listSegments(ctx.db, ctx.organisationId, listArgs(query, NAME_CODE_SORT), segmentFilter(query));
        return contentPage(query, page.rows.map(presentSegment), page.total);
      },
    }),
    route({
      method: 'get', path: '/segments/{id}', operationId: 'getSegment', tag: TAG, auth: communicationsRead,
      summary: 'Get a segment', description: 'Members of a STATIC segment, and a FILTER segment\'s matches: GET /segments/{id}/contacts.',
      params: idParams, response: segmentItem, errors: [404],
      handler: async ({ ctx, params }) => presentSegment(await getSegment(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'get', path: '/segments/{id}/contacts', operationId: 'listSegmentContacts', tag: TAG, auth: communicationsRead,
      summary: "List a segment's contacts", description: 'The contacts the segment resolves to now, in id order: {id, code, name}.',
      params: idParams, query: segmentContactsQuery, response: segmentContactList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const page = await listSegmentContacts(ctx.sql, ctx.organisationId, params.id, query);
        return contentPage(query, page.rows, page.total);
      },
    }),
    route({
      method: 'put', path: '/segments/{id}', operationId: 'updateSegment', tag: TAG, auth: communicationsWrite,
      summary: 'Update a segment',
      description:
        'Partial: only the fields given change; null clears the code. contact_ids given replace the members; filters given replace the filters. ' +
        'A type change needs the new type\'s field (a STATIC segment becoming FILTER loses its members).',
      params: idParams, body: segmentUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'VIP list', type: 'STATIC', contact_ids: [SOME_ID] },
      handler: async ({ ctx, params, body }) => {
        await updateSegment(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/segments/{id}', operationId: 'deleteSegment', tag: TAG, auth: communicationsWrite,
      summary: 'Delete a segment', description: 'Its member list goes with it; one still named by a communication plan answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteSegment(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
