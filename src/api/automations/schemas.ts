// Automations, their action sequences, the catalogue and the adaptor action records (spec 2.8,
// 4.6). Decisions: docs/automations.md.
import { z } from 'zod';
import {
  ADAPTOR_ACTION_CODES,
  ADAPTOR_CODES,
  ATTRIBUTE_TYPES,
  ATTRIBUTE_VALUE_TYPES,
  ENTITY_CODES,
  EVENT_CODES,
  FILTER_OPERATORS,
} from '../../domain/automations/catalogue';
import { RECORD_STATUSES } from '../../domain/automations/records';
import { RUN_STATES } from '../../domain/automations/runs';
import { contentList } from '../lists';
import { pagingQuery, whenParsed, zId } from '../validation';

export const AUTOMATION_STATES = ['INACTIVE', 'ACTIVE'] as const;
export const MAX_ACTIONS = 50;

const zState = z.enum(AUTOMATION_STATES);
const zEntity = z.enum(ENTITY_CODES).meta({ description: 'The entity whose events trigger it (GET /automation_events).' });
const zEvent = z.enum(EVENT_CODES).meta({ description: "One of the entity's events (GET /automation_events); another entity's event is 400 naming event." });
const zName = z.string().trim().min(1).max(200);
const zDescription = z.string().max(2000);

export const automationCreateBody = z.strictObject({
  name: zName,
  description: zDescription.nullish(),
  life_cycle_state: zState.default('INACTIVE').meta({ description: 'INACTIVE (default) or ACTIVE: only ACTIVE automations run.' }),
  entity: zEntity,
  event: zEvent,
});

export const automationUpdateBody = z.strictObject({
  name: zName.optional(),
  description: zDescription.nullish(),
  state: zState.optional().meta({ description: 'The life cycle state (the spec\'s sample name); life_cycle_state is accepted too, and both given must agree.' }),
  life_cycle_state: zState.optional(),
  entity: zEntity.optional().meta({ description: 'Changeable only while the automation has no actions (their filters name the entity\'s attributes): 409 AUTOMATION_HAS_ACTIONS.' }),
  event: zEvent.optional(),
});

export const automationListQuery = pagingQuery(['name', 'created_on', 'updated_on']).extend({
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the name.' }),
  name: z.string().min(1).max(200).optional().meta({ description: 'The whole name, case-insensitive.' }),
  state: zState.optional(),
  life_cycle_state: zState.optional().meta({ description: 'Same as state.' }),
  entity: z.enum(ENTITY_CODES).optional(),
  event: z.enum(EVENT_CODES).optional(),
});

export const automationItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  life_cycle_state: zState,
  entity: z.enum(ENTITY_CODES),
  event: z.enum(EVENT_CODES),
  action_count: z.number().int(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});
export const automationList = contentList(automationItem);

// ---------------------------------------------------------------- action sequence

const zScalar = z.union([z.string().max(20_000), z.number(), z.boolean()]);

const parameterIn = z.strictObject({
  id: zId.nullish().meta({ description: "Kept when it is one of this action's parameters; otherwise a new one is given." }),
  parameter_group: z.string().max(100).nullish(),
  parameter_key: z.string().min(1).max(100).meta({ description: "One of the action's parameters (GET /adaptors)." }),
  parameter_from_value: zScalar.meta({ description: 'The value (stored as text), checked against the parameter\'s value type.' }),
  parameter_to_value: zScalar.nullish().meta({ description: 'Upper end for a range; stored, not used by the current actions.' }),
  parameter_type: z.string().max(100).nullish().meta({ description: "When given, must be the parameter's parameter_type (GET /adaptors)." }),
});

const filterIn = z.strictObject({
  id: zId.nullish().meta({ description: "Kept when it is one of this action's filters; otherwise a new one is given." }),
  attribute: z.string().min(1).max(100).meta({ description: "An attribute of the automation's entity (GET /automation_events)." }),
  type: z.enum(ATTRIBUTE_TYPES).nullish().meta({ description: "Optional; when given, must be the attribute's type." }),
  operator: z.enum(FILTER_OPERATORS),
  value: z.union([z.string().max(500), z.number(), z.boolean()]).nullish().meta({ description: 'Every operator but IN.' }),
  value_list: z.array(z.union([z.string().max(500), z.number()])).max(100).nullish().meta({ description: 'IN only.' }),
});

const actionIn = z.strictObject({
  id: zId.nullish().meta({ description: "Kept when it is one of this automation's actions; otherwise a new one is given." }),
  order: z.number().int().min(1).max(1000).meta({ description: 'Position in the sequence (1 first), unique within the body.' }),
  path: z.string().max(200).nullish().meta({ description: 'Free label of the branch the step belongs to; stored and answered.' }),
  adaptor: z.enum(ADAPTOR_CODES),
  adaptor_action: z.enum(ADAPTOR_ACTION_CODES).meta({ description: 'One of the adaptor\'s actions; another adaptor\'s action is 400 naming it.' }),
  adaptor_action_parameters: z.array(parameterIn).max(50).default([]),
  action_filters: z
    .array(z.strictObject({ filters: z.array(filterIn).min(1).max(50) }))
    .max(20)
    .default([])
    .meta({ description: 'The action runs when there is no group, or when any group has all its filters true.' }),
});

export const actionsBody = z.strictObject({
  content: z
    .array(actionIn)
    .max(MAX_ACTIONS)
    .superRefine((items, ctx) => {
      const seen = new Set<number>();
      items.forEach((item, i) => {
        if (seen.has(item.order)) ctx.addIssue({ code: 'custom', path: [i, 'order'], message: 'order given twice' });
        seen.add(item.order);
      });
    }, whenParsed)
    .meta({ description: `The whole sequence (at most ${MAX_ACTIONS}); it replaces the stored one.` }),
});

const parameterOut = z.object({
  id: z.string(),
  parameter_group: z.string().nullable(),
  parameter_key: z.string(),
  parameter_from_value: z.string(),
  parameter_to_value: z.string().nullable(),
  parameter_type: z.string(),
});
const filterOut = z.object({
  id: z.string(),
  attribute: z.string(),
  type: z.enum(ATTRIBUTE_TYPES),
  operator: z.enum(FILTER_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]).nullable(),
  value_list: z.array(z.union([z.string(), z.number()])).nullable(),
});
export const actionItem = z.object({
  id: z.string(),
  order: z.number().int(),
  path: z.string().nullable(),
  adaptor: z.enum(ADAPTOR_CODES),
  adaptor_action: z.enum(ADAPTOR_ACTION_CODES),
  adaptor_action_parameters: z.array(parameterOut),
  action_filters: z.array(z.object({ filters: z.array(filterOut) })),
});
export const actionList = z.object({ content: z.array(actionItem) });

// ---------------------------------------------------------------- catalogue

const automationAttribute = z.object({
  code: z.string(),
  label: z.string(),
  type: z.enum(ATTRIBUTE_TYPES).meta({ description: 'How filters compare it (and which operators apply).' }),
  operators: z.array(z.enum(FILTER_OPERATORS)),
  value_type: z.enum(ATTRIBUTE_VALUE_TYPES).meta({
    description:
      'What one value is (for a LIST, one element): STRING, NUMBER (decimal), DATE (epoch seconds), BOOLEAN, UUID (a record\'s id), ENUM (one of allowed_values), ' +
      'COUNTRY_CODE (ISO 3166 alpha-2 or alpha-3; stored alpha-3), LANGUAGE_CODE (ISO 639, 3 letters), CURRENCY_CODE (ISO 4217).',
  }),
  allowed_values: z.array(z.string()).nullable().meta({ description: 'The closed list of values the events carry (ENUM, BOOLEAN); null when open.' }),
  values_from: z
    .object({
      path: z.string().meta({ description: 'A list operation of this API (`GET <path>`, answering `{content[], paging}`), e.g. `/countries`.' }),
      value: z.string().meta({ description: 'The item field that is the filter value (`code`, `id`).' }),
      label: z.string().meta({ description: 'The item field to show (`name`).' }),
    })
    .nullable()
    .meta({ description: 'Where the values are listed, when they are countries or records of a list the API has; null otherwise. Reading that list needs its own scope.' }),
});

export const automationEventList = z.object({
  content: z.array(
    z.object({
      entity: z.enum(ENTITY_CODES),
      name: z.string(),
      events: z.array(z.object({ event: z.enum(EVENT_CODES), name: z.string() })),
      attributes: z.array(automationAttribute),
    }),
  ),
});

export const adaptorList = z.object({
  content: z.array(
    z.object({
      id: z.string(),
      code: z.enum(ADAPTOR_CODES),
      name: z.string(),
      actions: z.array(
        z.object({
          id: z.string(),
          code: z.enum(ADAPTOR_ACTION_CODES),
          name: z.string(),
          description: z.string().meta({ description: 'What the action does, in a business user\'s words.' }),
          parameters: z.array(
            z.object({
              parameter_key: z.string(),
              parameter_type: z.string(),
              value_type: z.enum(['STRING', 'INTEGER', 'UUID', 'ENUM']),
              required: z.boolean(),
              default_value: z.string().nullable(),
              allowed_values: z.array(z.string()).nullable(),
              minimum: z.number().int().nullable(),
              maximum: z.number().int().nullable(),
              description: z.string(),
            }),
          ),
          rules: z.array(z.string()).meta({ description: 'Rules across parameters (one of several groups required).' }),
        }),
      ),
    }),
  ),
});

// ---------------------------------------------------------------- records

export const recordParams = z.object({
  id: z.string().min(1).max(100).meta({ description: 'The adaptor: its id or code.' }),
  action_id: z.string().min(1).max(100).meta({ description: "One of the adaptor's actions: its id or code." }),
});
export const recordItemParams = recordParams.extend({ record_id: zId });

export const recordListQuery = pagingQuery(['created_on', 'updated_on']).extend({
  search_type: z.enum(ENTITY_CODES).optional().meta({ description: 'The entity type searched; required with search_value.' }),
  search_value: z.string().min(1).max(200).optional().meta({
    description: "With search_type: a GUID matches the entity's id exactly; other text, case-insensitively within its reference (contact code and name, purchase reference, ...).",
  }),
  automation_id: zId.optional(),
  automation_action_id: zId.optional(),
  status: z.enum(RECORD_STATUSES).optional(),
});

export const recordItem = z.object({
  id: z.string(),
  automation: z.object({ id: z.string(), name: z.string() }),
  automation_action_id: z.string(),
  adaptor: z.string(),
  adaptor_action: z.string(),
  event: z.object({ id: z.string(), type: z.string() }),
  entity: z.object({ type: z.string(), id: z.string(), reference: z.string().nullable() }),
  status: z.enum(RECORD_STATUSES),
  reason: z.string().nullable().meta({
    description: 'Why the action did not do its work (SKIPPED, FAILED, REJECTED): the filter group that failed, the refusal, the timeout; null otherwise.',
  }),
  record_attributes: z.array(z.object({ id: z.string(), key: z.string(), label: z.string(), type: z.string(), value: z.string().nullable() })),
  workflow_id: z.string(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});
export const recordList = contentList(recordItem);

export const recordChangeBody = z.strictObject({
  key: z.string().min(1).max(100).meta({ description: 'status (REQUEST_APPROVAL records: APPROVED or REJECTED) or notes (any record).' }),
  value: z.string().max(2000),
});

// ---------------------------------------------------------------- runs

export const runListQuery = pagingQuery(['occurred_on']);

const runAction = z.object({
  order: z.number().int().meta({ description: 'Its place in the run: 1 for the first action the run reached.' }),
  automation_action_id: z.string().meta({ description: 'The action of the sequence (GET /automations/{id}/actions), when the run began.' }),
  adaptor: z.string(),
  adaptor_action: z.string(),
  status: z.enum(RECORD_STATUSES).meta({ description: "The action's outcome: its adaptor action record's status." }),
  reason: z.string().nullable().meta({ description: 'Why it did not do its work (SKIPPED, FAILED, REJECTED): filters not met, the refusal, the timeout; null otherwise.' }),
  record_id: z.string().meta({ description: 'Its adaptor action record (GET /adaptors/{adaptor}/actions/{adaptor_action}/records/{record_id}).' }),
  record_attributes: z.array(z.object({ id: z.string(), key: z.string(), label: z.string(), type: z.string(), value: z.string().nullable() })),
  created_on: z.number().int(),
});

export const runItem = z.object({
  id: z.string().meta({ description: "The run's event id: an automation runs once per event." }),
  event: z.object({
    id: z.string(),
    type: z.string(),
    occurred_on: z.number().int().meta({ description: 'When the event was recorded.' }),
  }),
  entity: z.object({ type: z.string(), id: z.string(), reference: z.string().nullable() }).meta({
    description: 'The record the event is about (the automation\'s entity): its id and what search finds it by (contact code and name, purchase reference, ...).',
  }),
  state: z.enum(RUN_STATES).meta({
    description:
      'FAILED: an action failed and the run stopped. REJECTED: an approval was rejected or timed out and the run stopped. WAITING_FOR_APPROVAL: an approval is PENDING. ' +
      'RUNNING: actions of its sequence are still to come. SKIPPED: every action\'s filters failed. COMPLETED: otherwise.',
  }),
  reason: z.string().nullable().meta({ description: 'Why a FAILED or REJECTED run stopped; null otherwise.' }),
  workflow_id: z.string().meta({ description: 'The run\'s Temporal workflow (search it in the Temporal UI).' }),
  started_on: z.number().int().meta({ description: 'When its first action was recorded.' }),
  updated_on: z.number().int().meta({ description: 'When one of its actions last changed (an approval\'s decision).' }),
  actions: z.array(runAction),
});
export const runList = contentList(runItem);
