// Adaptor action records (spec 2.8, 4.6): listed and read per adaptor action, and one attribute
// changed. Deciding an approval records the signal to the run's workflow in the same transaction.
import { actorOf } from '../../domain/audit';
import { findAction, findAdaptor } from '../../domain/automations/catalogue';
import { changeRecord, getRecord, listRecords, presentRecord, type RecordScope } from '../../domain/automations/records';
import { invalid, notFound } from '../../domain/errors';
import type { AppDeps } from '../deps';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idResponse } from '../validation';
import { RECORD_SORT } from './present';
import { AUTOMATIONS_TAG as TAG, automationsRead, automationsWrite } from './routes';
import { recordChangeBody, recordItem, recordItemParams, recordList, recordListQuery, recordParams } from './schemas';

/** The path's adaptor and action (by id or code), or 404; the action must be the adaptor's. */
function scopeOf(params: { id: string; action_id: string }): RecordScope {
  const adaptor = findAdaptor(params.id);
  if (!adaptor) throw notFound('Adaptor');
  const action = findAction(adaptor, params.action_id);
  if (!action) throw notFound('Adaptor action');
  return { adaptor: adaptor.code, adaptorAction: action.code };
}

export function recordRoutes(deps: AppDeps): RouteDef[] {
  return [
    route({
      method: 'get', path: '/adaptors/{id}/actions/{action_id}/records', operationId: 'listAdaptorActionRecords', tag: TAG, auth: automationsRead,
      summary: "List an adaptor action's records",
      description:
        'search_type (an entity: CONTACTS, PURCHASES, ...) and search_value go together: a GUID matches the entity id, other text the entity reference (case-insensitive). ' +
        'Filters: automation_id, automation_action_id, status. Sortable by created_on, updated_on (default: newest first).',
      params: recordParams, query: recordListQuery, response: recordList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        if (query.search_value !== undefined && query.search_type === undefined) throw invalid('search_type', 'search_type: required with search_value');
        if (query.search_type !== undefined && query.search_value === undefined) throw invalid('search_value', 'search_value: required with search_type');
        const filter = {
          searchType: query.search_type, searchValue: query.search_value, automationId: query.automation_id,
          actionId: query.automation_action_id, status: query.status,
        };
        const page = await listRecords(ctx.db, ctx.organisationId, scopeOf(params), filter, listArgs(query, RECORD_SORT));
        return contentPage(query, page.rows.map(presentRecord), page.total);
      },
    }),
    route({
      method: 'get', path: '/adaptors/{id}/actions/{action_id}/records/{record_id}', operationId: 'getAdaptorActionRecord', tag: TAG, auth: automationsRead,
      summary: 'Get an adaptor action record', params: recordItemParams, response: recordItem, errors: [404],
      handler: async ({ ctx, params }) => presentRecord(await getRecord(ctx.db, ctx.organisationId, scopeOf(params), params.record_id)),
    }),
    route({
      method: 'post', path: '/adaptors/{id}/actions/{action_id}/records/{record_id}', operationId: 'changeAdaptorActionRecord', tag: TAG, auth: automationsWrite,
      summary: 'Change one attribute of an adaptor action record',
      description:
        'key status (REQUEST_APPROVAL records): value APPROVED or REJECTED decides a PENDING approval (409 INVALID_STATE_TRANSITION once decided or timed out); ' +
        'the waiting automation run continues. key notes (any record): free text up to 2000 characters, replacing the notes. Any other key: 400.',
      params: recordItemParams, body: recordChangeBody, response: idResponse, errors: [404, 409],
      example: { key: 'status', value: 'APPROVED' },
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      handler: async ({ ctx, params, body }) => {
        await changeRecord(ctx.db, actorOf(ctx), scopeOf(params), params.record_id, body.key, body.value);
        return { id: params.record_id };
      },
    }),
  ];
}
