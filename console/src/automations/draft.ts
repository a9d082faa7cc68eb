// The builder's working copy of an action sequence, and the way to and from the API's body
// (POST /automations/{id}/actions). Errors name the body's fields (`content.2.action_filters.0.
// filters.1.value`); `fieldOfAttribute` turns such a name into the builder's field that shows it.
import type { ActionDef, ActionsBody, AttributeDef, StoredAction } from '../api/types';

export interface DraftFilter {
  key: string;
  attribute: string;
  operator: string;
  value: string;
  values: string[];
}

export interface DraftAction {
  key: string;
  /** Kept so the stored action keeps its id (its records name it). */
  id?: string;
  path: string | null;
  adaptor: string;
  action: string;
  params: Record<string, string>;
  groups: DraftFilter[][];
}

let next = 0;
export const newKey = () => `k${++next}`;

export const emptyFilter = (): DraftFilter => ({ key: newKey(), attribute: '', operator: '', value: '', values: [] });

export function newAction(adaptor: string, action: string): DraftAction {
  return { key: newKey(), path: null, adaptor, action, params: {}, groups: [] };
}

/** A stored action as the builder edits it. Values are text in the API and in the inputs. */
export function fromStored(a: StoredAction): DraftAction {
  return {
    key: newKey(),
    id: a.id,
    path: a.path,
    adaptor: a.adaptor,
    action: a.adaptor_action,
    params: Object.fromEntries(a.adaptor_action_parameters.map((p) => [p.parameter_key, p.parameter_from_value])),
    groups: a.action_filters.map((g) =>
      g.filters.map((f) => ({
        key: newKey(),
        attribute: f.attribute,
        operator: f.operator,
        value: f.value === null ? '' : String(f.value),
        values: (f.value_list ?? []).map(String),
      })),
    ),
  };
}

type BodyAction = ActionsBody['content'][number];
type BodyFilter = NonNullable<BodyAction['action_filters']>[number]['filters'][number];

function filterValue(f: DraftFilter, attr: AttributeDef | undefined): Pick<BodyFilter, 'value' | 'value_list'> {
  if (f.operator === 'IN') return { value_list: f.values };
  if (attr?.type === 'BOOLEAN') return { value: f.value === 'true' ? true : f.value === 'false' ? false : f.value };
  return { value: f.value };
}

export interface Serialised {
  body: ActionsBody;
  /** Parameter keys in the order sent, per action: the API names a parameter by its index. */
  sentKeys: string[][];
}

/** The body the API takes; parameters left empty are not sent (the API fills defaults). */
export function toBody(actions: DraftAction[], attributes: AttributeDef[], defs: (a: DraftAction) => ActionDef | undefined): Serialised {
  const sentKeys: string[][] = [];
  const content = actions.map((a, i): BodyAction => {
    const def = defs(a);
    const keys = (def?.parameters ?? []).map((p) => p.parameter_key).filter((k) => (a.params[k] ?? '').trim() !== '');
    sentKeys.push(keys);
    return {
      ...(a.id ? { id: a.id } : {}),
      order: i + 1,
      path: a.path,
      adaptor: a.adaptor as BodyAction['adaptor'],
      adaptor_action: a.action as BodyAction['adaptor_action'],
      adaptor_action_parameters: keys.map((k) => ({ parameter_key: k, parameter_from_value: a.params[k].trim() })),
      action_filters: a.groups.map((g) => ({
        filters: g.map((f) => {
          const attr = attributes.find((x) => x.code === f.attribute);
          return { attribute: f.attribute, operator: f.operator as BodyFilter['operator'], ...filterValue(f, attr) };
        }),
      })),
    };
  });
  return { body: { content }, sentKeys };
}

/** Field ids of the builder: where an error is shown. */
export const field = {
  action: (i: number) => `actions.${i}.action`,
  params: (i: number) => `actions.${i}.params`,
  param: (i: number, key: string) => `actions.${i}.params.${key}`,
  filter: (i: number, g: number, f: number, part: 'attribute' | 'operator' | 'value') => `actions.${i}.groups.${g}.${f}.${part}`,
};

/** The builder field an API error's `attribute` names, or undefined (then it is shown above the form). */
export function fieldOfAttribute(attribute: string, sentKeys: string[][]): string | undefined {
  const parts = attribute.split('.');
  if (parts[0] !== 'content' || parts.length < 3) return undefined;
  const i = Number(parts[1]);
  switch (parts[2]) {
    case 'adaptor':
    case 'adaptor_action':
    case 'order':
    case 'path':
    case 'id':
      return field.action(i);
    case 'adaptor_action_parameters': {
      if (parts.length < 4) return field.params(i);
      const key = sentKeys[i]?.[Number(parts[3])];
      return key ? field.param(i, key) : field.params(i);
    }
    case 'action_filters': {
      if (parts.length < 6 || parts[4] !== 'filters') return field.action(i);
      const part = parts[6] === 'attribute' || parts[6] === 'operator' ? parts[6] : 'value';
      return field.filter(i, Number(parts[3]), Number(parts[5]), part);
    }
    default:
      return undefined;
  }
}
