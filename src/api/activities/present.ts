import type { z } from 'zod';
import type { ActivityView } from '../../domain/activities/activities';
import type { ActivityFilter } from '../../domain/activities/types';
import type { SortField } from '../lists';
import { epoch } from '../present';
import type { activityItem, activityListQuery } from './schemas';

type Item = z.input<typeof activityItem>;

export const ACTIVITY_SORT: Record<string, SortField> = {
  created_on: 'createdAt',
  updated_on: 'updatedAt',
  subject: 'subject',
  life_cycle_state: 'lifeCycleState',
};

export function presentActivity({ activity: a, organisation }: ActivityView): Item {
  const user = a.user && { id: a.user.id, name: [a.user.firstName, a.user.lastName].filter(Boolean).join(' ') || a.user.username };
  return {
    id: a.id,
    subject: a.subject,
    description: a.description,
    life_cycle_state: a.lifeCycleState as Item['life_cycle_state'],
    organisation,
    user,
    entity: a.entityType && a.entityId ? { type: a.entityType as NonNullable<Item['entity']>['type'], id: a.entityId } : null,
    created_on: epoch(a.createdAt),
    updated_on: epoch(a.updatedAt),
    completed_on: epoch(a.completedAt),
  };
}

export function activityFilter(q: z.output<typeof activityListQuery>): ActivityFilter {
  const entities: ActivityFilter['entities'] = [];
  if (q.order_id) entities.push({ type: 'ORDER', id: q.order_id });
  if (q.lead_id) entities.push({ type: 'LEAD', id: q.lead_id });
  if (q.service_request_id) entities.push({ type: 'SERVICE_REQUEST', id: q.service_request_id });
  if (q.entity_type || q.entity_id) entities.push({ type: q.entity_type, id: q.entity_id });
  return {
    lifeCycleState: q.state ?? q.life_cycle_state,
    entities,
    organisationId: q.organisation_id,
    userId: q.user_id,
    searchValue: q.search_value,
  };
}
