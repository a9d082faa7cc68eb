// Activities (spec 2.7, 4.5; docs/activities.md): a task for the tenant, one of its units or
// one of its users, optionally about one record (a lead, an order, a contact...).
import { z } from 'zod';
import { contentList } from '../lists';
import { pagingQuery, zId } from '../validation';

export const ACTIVITY_STATES = ['PENDING', 'COMPLETED'] as const;
/** LEAD, ORDER and SERVICE_REQUEST are ids of other systems (not checked); the rest are records here. */
export const ENTITY_TYPES = ['LEAD', 'ORDER', 'SERVICE_REQUEST', 'CONTACT', 'ACCOUNT', 'PURCHASE'] as const;

const subject = z.string().trim().min(1).max(500);
const description = z.string().max(10_000).nullish();
const organisationId = zId.meta({ description: 'The organisation itself (its own id) or a unit of its business network (GET /organisations).' });
const userId = zId.meta({ description: 'A user of the organisation; a user belongs to the organisation and to each of its units.' });

export const activityEntity = z
  .strictObject({
    type: z.enum(ENTITY_TYPES),
    id: zId.meta({ description: 'CONTACT, ACCOUNT, PURCHASE: a record of the organisation (else 400 naming entity.id); LEAD, ORDER, SERVICE_REQUEST: an external id.' }),
  })
  .meta({ description: 'The record the activity is about; set on create only.' });

export const activityCreateBody = z.strictObject({
  subject,
  description,
  organisation_id: organisationId.nullish(),
  user_id: userId.nullish(),
  entity: activityEntity.nullish(),
});

/** Partial: only the fields given change; null clears description, organisation_id or user_id (one of the two stays). */
export const activityUpdateBody = z.strictObject({
  subject: subject.optional(),
  description,
  organisation_id: organisationId.nullish(),
  user_id: userId.nullish(),
});

export const activityStateBody = z.strictObject({
  life_cycle_state: z.enum(ACTIVITY_STATES),
});

export const activityListQuery = pagingQuery(['created_on', 'updated_on', 'subject', 'life_cycle_state']).extend({
  state: z.enum(ACTIVITY_STATES).optional().meta({ description: "spec 4.5's name of the filter; life_cycle_state is the same." }),
  life_cycle_state: z.enum(ACTIVITY_STATES).optional(),
  order_id: zId.optional().meta({ description: 'Activities about this order (entity ORDER).' }),
  lead_id: zId.optional().meta({ description: 'Activities about this lead (entity LEAD).' }),
  service_request_id: zId.optional().meta({ description: 'Activities about this service request (entity SERVICE_REQUEST).' }),
  entity_type: z.enum(ENTITY_TYPES).optional(),
  entity_id: zId.optional().meta({ description: 'Activities about this record, of any type (with entity_type: of that type).' }),
  organisation_id: zId.optional().meta({ description: 'The organisation itself (its own id) or a unit.' }),
  user_id: zId.optional(),
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the subject.' }),
});

const idName = z.object({ id: z.string(), name: z.string() });

export const activityItem = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string().nullable(),
  life_cycle_state: z.enum(ACTIVITY_STATES),
  organisation: idName.nullable().meta({ description: 'The organisation itself or a unit; null when the activity is only a user\'s.' }),
  user: idName.nullable().meta({ description: 'name: first and last name, else the username.' }),
  entity: z.object({ type: z.enum(ENTITY_TYPES), id: z.string() }).nullable(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
  completed_on: z.number().int().nullable().meta({ description: 'When it last became COMPLETED; null while PENDING.' }),
});

export const activityList = contentList(activityItem);
