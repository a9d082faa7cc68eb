import type { z } from 'zod';
import { ADAPTORS, ENTITIES, operatorsOf, valueTypeOf } from '../../domain/automations/catalogue';
import type { ActionRecord, AutomationFilter, AutomationRecord } from '../../domain/automations/definitions';
import type { StoredFilterGroup } from '../../domain/automations/filters';
import type { StoredParameter } from '../../domain/automations/parameters';
import { epoch } from '../present';
import type { actionItem, adaptorList, automationEventList, automationItem, automationListQuery } from './schemas';

export { presentRecord } from '../../domain/automations/records';

export const AUTOMATION_SORT = { name: 'name', created_on: 'createdAt', updated_on: 'updatedAt' };
export const RECORD_SORT = { created_on: 'createdAt', updated_on: 'updatedAt' };

type Automation = z.input<typeof automationItem>;

export function presentAutomation(a: AutomationRecord): Automation {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    life_cycle_state: a.lifeCycleState as Automation['life_cycle_state'],
    entity: a.entity as Automation['entity'],
    event: a.event as Automation['event'],
    action_count: a._count.actions,
    created_on: epoch(a.createdAt),
    updated_on: epoch(a.updatedAt),
  };
}

export function automationFilter(q: z.output<typeof automationListQuery>): AutomationFilter {
  return { searchValue: q.search_value, name: q.name, state: q.state ?? q.life_cycle_state, entity: q.entity, event: q.event };
}

type Action = z.input<typeof actionItem>;

export function presentAction(a: ActionRecord): Action {
  return {
    id: a.id,
    order: a.position,
    path: a.path,
    adaptor: a.adaptor as Action['adaptor'],
    adaptor_action: a.adaptorAction as Action['adaptor_action'],
    adaptor_action_parameters: (a.parameters ?? []) as unknown as StoredParameter[],
    action_filters: (a.filters ?? []) as unknown as StoredFilterGroup[],
  };
}

/** GET /automation_events: the catalogue's entities (paths into the event data stay internal). */
export function presentAutomationEvents(): z.input<typeof automationEventList> {
  return {
    content: ENTITIES.map((e) => ({
      entity: e.code,
      name: e.name,
      events: e.events.map((v) => ({ event: v.code, name: v.name })),
      attributes: e.attributes.map((a) => ({
        code: a.code, label: a.label, type: a.type, operators: [...operatorsOf(a)],
        value_type: valueTypeOf(a),
        allowed_values: a.values ? [...a.values] : null,
        values_from: a.valuesFrom ?? null,
      })),
    })),
  };
}

export function presentAdaptors(): z.input<typeof adaptorList> {
  return {
    content: ADAPTORS.map((a) => ({
      id: a.id,
      code: a.code,
      name: a.name,
      actions: a.actions.map((x) => ({
        id: x.id,
        code: x.code,
        name: x.name,
        description: x.description,
        parameters: x.parameters.map((p) => ({
          parameter_key: p.key,
          parameter_type: p.parameterType,
          value_type: p.valueType,
          required: p.required,
          default_value: p.defaultValue ?? null,
          allowed_values: p.values ? [...p.values] : null,
          minimum: p.min ?? null,
          maximum: p.max ?? null,
          description: p.description,
        })),
        rules: x.rules.map((r) => r.message),
      })),
    })),
  };
}
