// The input types of activities: the request schemas' outputs.
import type { z } from 'zod';
import type { activityCreateBody, activityUpdateBody, ACTIVITY_STATES, ENTITY_TYPES } from '../../api/activities/schemas';

export type ActivityInput = z.output<typeof activityCreateBody>;
export type ActivityPatch = z.output<typeof activityUpdateBody>;
export type ActivityState = (typeof ACTIVITY_STATES)[number];
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface ActivityFilter {
  lifeCycleState?: ActivityState;
  /** Each pair must hold (order_id, lead_id, service_request_id, entity_type/entity_id). */
  entities: Array<{ type?: EntityType; id?: string }>;
  organisationId?: string;
  userId?: string;
  searchValue?: string;
}
