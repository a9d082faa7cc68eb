// Activities (spec 2.7, 4.5): tasks for the organisation, a unit of its network or a user,
// under the `activities` scope. Decisions: docs/activities.md.
import { createActivity, deleteActivity, getActivity, listActivities, setActivityState, updateActivity } from '../../domain/activities/activities';
import { actorOf } from '../../domain/audit';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { ACTIVITY_SORT, activityFilter, presentActivity } from './present';
import { activityCreateBody, activityItem, activityList, activityListQuery, activityStateBody, activityUpdateBody } from './schemas';

const TAG = 'Activities';
const read = { scope: 'activities:read' } as const;
const write = { scope: 'activities:write' } as const;
const SOME_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';
const OTHER_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a11';

export function activityRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/activities', operationId: 'createActivity', tag: TAG, auth: write,
      summary: 'Create an activity',
      description:
        'organisation_id or user_id (or both) is required (neither: 400 naming organisation_id). organisation_id is the organisation itself or a unit of its ' +
        'business network; user_id a user of the organisation (a user belongs to each unit too). Unknown ones answer 404 naming the field. ' +
        'entity is set on create only: CONTACT, ACCOUNT and PURCHASE ids must exist (else 404 naming entity.id). A new activity is PENDING.',
      body: activityCreateBody, response: idResponse, errors: [404],
      example: { subject: 'Call back about the quote', description: 'Customer asked for a discount', organisation_id: SOME_ID, user_id: OTHER_ID, entity: { type: 'LEAD', id: SOME_ID } },
      handler: ({ ctx, body }) => createActivity(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/activities', operationId: 'listActivities', tag: TAG, auth: read,
      summary: 'List activities',
      description:
        'Filters: state (or life_cycle_state), order_id, lead_id, service_request_id, entity_type, entity_id, organisation_id (the organisation itself or a unit), ' +
        'user_id, search_value (subject contains). All given filters must hold. Sortable by created_on (default, newest first), updated_on, subject, life_cycle_state.',
      query: activityListQuery, response: activityList,
      handler: async ({ ctx, query }) => {
        const page = await listActivities(ctx.db, ctx.organisationId, listArgs(query, ACTIVITY_SORT), activityFilter(query));
        return contentPage(query, page.rows.map(presentActivity), page.total);
      },
    }),
    route({
      method: 'get', path: '/activities/{id}', operationId: 'getActivity', tag: TAG, auth: read,
      summary: 'Get an activity',
      params: idParams, response: activityItem, errors: [404],
      handler: async ({ ctx, params }) => presentActivity(await getActivity(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/activities/{id}', operationId: 'updateActivity', tag: TAG, auth: write,
      summary: 'Update an activity',
      description:
        'Partial: only the fields given change; null clears description, organisation_id or user_id, but the activity keeps one of the two (else 400). ' +
        'The entity is not changed here; the state through PUT /activities/{id}/life_cycle_state.',
      params: idParams, body: activityUpdateBody, response: idResponse, errors: [404],
      example: { subject: 'Call back on Monday', description: null, user_id: OTHER_ID },
      handler: async ({ ctx, params, body }) => {
        await updateActivity(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'put', path: '/activities/{id}/life_cycle_state', operationId: 'setActivityLifeCycleState', tag: TAG, auth: write,
      summary: "Change an activity's life cycle state",
      description: 'PENDING → COMPLETED sets completed_on; COMPLETED → PENDING reopens it and clears completed_on. The current state again changes nothing (200).',
      params: idParams, body: activityStateBody, response: idResponse, errors: [404],
      example: { life_cycle_state: 'COMPLETED' },
      handler: async ({ ctx, params, body }) => {
        await setActivityState(ctx.db, actorOf(ctx), params.id, body.life_cycle_state);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/activities/{id}', operationId: 'deleteActivity', tag: TAG, auth: write,
      summary: 'Delete an activity',
      params: idParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await deleteActivity(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
