// Activities (spec 2.7, 4.5): tasks for the organisation, a unit of its network or a user,
// under the `activities` scope. Decisions: docs/activities.md.
import { createActivity, deleteActivity, getActivity, listActivities, setActivityState, updateActivity } from '../../domain/activities/activities';
import { actorOf } from '../../domain/audit';
import { resourceRoutes } from '../resource';
import { groupAuth, route, type RouteDef } from '../route';
import { idParams, idResponse, SOME_ID } from '../validation';
import { ACTIVITY_SORT, activityFilter, presentActivity } from './present';
import { activityCreateBody, activityItem, activityList, activityListQuery, activityStateBody, activityUpdateBody } from './schemas';

const TAG = 'Activities';
const auth = groupAuth('activities');
const OTHER_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a11';

export function activityRoutes(): RouteDef[] {
  return [
    ...resourceRoutes({
      path: '/activities', one: 'Activity', many: 'Activities', label: 'activity', article: 'an', tag: TAG, auth,
      item: activityItem, present: presentActivity,
      create: {
        description:
          'organisation_id or user_id (or both) is required (neither: 400 naming organisation_id). organisation_id is the organisation itself or a unit of its ' +
          'business network; user_id a user of the organisation (a user belongs to each unit too). Unknown ones answer 400 naming the field. ' +
          'entity is set on create only: CONTACT, ACCOUNT and PURCHASE ids must exist (else 400 naming entity.id). A new activity is PENDING.',
        body: activityCreateBody, errors: [], run: createActivity,
        example: { subject: 'Call back about the quote', description: 'Customer asked for a discount', organisation_id: SOME_ID, user_id: OTHER_ID, entity: { type: 'LEAD', id: SOME_ID } },
      },
      list: {
        summary: 'List activities',
        description:
          'Filters: state (or life_cycle_state), order_id, lead_id, service_request_id, entity_type, entity_id, organisation_id (the organisation itself or a unit), ' +
          'user_id, search_value (subject contains). All given filters must hold. Sortable by created_on (default, newest first), updated_on, subject, life_cycle_state.',
        query: activityListQuery, response: activityList, sort: ACTIVITY_SORT, filter: activityFilter, run: listActivities,
      },
      get: { run: getActivity },
      update: {
        description:
          'Partial: only the fields given change; null clears description, organisation_id or user_id, but the activity keeps one of the two (else 400). ' +
          'The entity is not changed here; the state through PUT /activities/{id}/life_cycle_state.',
        body: activityUpdateBody, errors: [404], run: updateActivity,
        example: { subject: 'Call back on Monday', description: null, user_id: OTHER_ID },
      },
      delete: { errors: [404], run: deleteActivity },
    }),
    route({
      method: 'put', path: '/activities/{id}/life_cycle_state', operationId: 'setActivityLifeCycleState', tag: TAG, auth: auth.write,
      summary: "Change an activity's life cycle state",
      description: 'PENDING → COMPLETED sets completed_on; COMPLETED → PENDING reopens it and clears completed_on. The current state again changes nothing (200).',
      params: idParams, body: activityStateBody, response: idResponse, errors: [404],
      example: { life_cycle_state: 'COMPLETED' },
      handler: async ({ ctx, params, body }) => {
        await setActivityState(ctx.db, actorOf(ctx), params.id, body.life_cycle_state);
        return { id: params.id };
      },
    }),
  ];
}
