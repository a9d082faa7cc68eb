// Segments (issue 9 part 1): the one shape of reference data, plus the contacts a segment
// resolves to. Decisions: docs/communications.md "Segments".
import { createSegment, deleteSegment, getSegment, listSegmentContacts, listSegments, updateSegment } from '../../../domain/communications/segments';
import { COMMUNICATIONS_TAG as TAG, communicationsRead, communicationsWrite } from '../integrations/routes';
import { contentPage, NAME_CODE_SORT } from '../../lists';
import { resourceRoutes } from '../../resource';
import { route, type RouteDef } from '../../route';
import { idParams, SOME_ID } from '../../validation';
import { presentSegment, segmentFilter } from './present';
import * as s from './schemas';

const segment = {
  path: '/segments', one: 'Segment', many: 'Segments', label: 'segment', tag: TAG, auth: { read: communicationsRead, write: communicationsWrite },
  item: s.segmentItem, present: presentSegment,
};

// In two declarations around the contacts: the document lists them between get and update.
export function segmentRoutes(): RouteDef[] {
  return [
    ...resourceRoutes({
      ...segment,
      create: {
        description:
          'STATIC: contact_ids (required; contacts of the organisation, an unknown one is 400 naming contact_ids.N). ' +
          'FILTER: filters (required), a subset of the GET /contacts filters, resolved whenever the segment is read.',
        body: s.segmentCreateBody, run: createSegment,
        example: { name: 'Newsletter readers', code: 'NEWS', type: 'FILTER', filters: { registered_on_from: 1767225600, last_name: 'Smith' } },
      },
      list: {
        description: 'Filters: name (contains), code (exact), type. Sortable by name, code, created_on (default: newest first).',
        query: s.segmentListQuery, response: s.segmentList, sort: NAME_CODE_SORT, filter: segmentFilter, run: listSegments,
      },
      get: { description: 'Members of a STATIC segment, and a FILTER segment\'s matches: GET /segments/{id}/contacts.', run: getSegment },
    }),
    route({
      method: 'get', path: '/segments/{id}/contacts', operationId: 'listSegmentContacts', tag: TAG, auth: communicationsRead,
      summary: "List a segment's contacts", description: 'The contacts the segment resolves to now, in id order: {id, code, name}.',
      params: idParams, query: s.segmentContactsQuery, response: s.segmentContactList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const page = await listSegmentContacts(ctx.sql, ctx.organisationId, params.id, query);
        return contentPage(query, page.rows, page.total);
      },
    }),
    ...resourceRoutes({
      ...segment,
      update: {
        description:
          'Partial: only the fields given change; null clears the code. contact_ids given replace the members; filters given replace the filters. ' +
          'A type change needs the new type\'s field (a STATIC segment becoming FILTER loses its members).',
        body: s.segmentUpdateBody, run: updateSegment, example: { name: 'VIP list', type: 'STATIC', contact_ids: [SOME_ID] },
      },
      delete: { description: 'Its member list goes with it; one still named by a communication plan answers 409 IN_USE.', run: deleteSegment },
    }),
  ];
}
