// Automations and their action sequences (spec 2.8, 4.6; docs/automations.md "Definitions").
// An automation binds one entity and one of its events; its sequence is replaced as a whole,
// each action checked against the catalogue, its GUID parameters against the organisation.
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid } from '../errors';
import { newId } from '../ids';
import { pageOf, within, type ListArgs, type ListPage } from '../lists';
import { entityDef, findAction, findAdaptor, stepAction } from './catalogue';
import { checkFilterGroups, type StoredFilterGroup } from './filters';
import { checkParameters, checkReferences, parameterValues, type Reference, type StoredParameter } from './parameters';
import type { ActionItemInput, AutomationInput, AutomationPatch } from './types';

export type AutomationState = 'INACTIVE' | 'ACTIVE';

const INCLUDE = { _count: { select: { actions: true } } } satisfies Prisma.AutomationInclude;
export type AutomationRecord = Prisma.AutomationGetPayload<{ include: typeof INCLUDE }>;
export type ActionRecord = Prisma.AutomationActionGetPayload<object>;

const ENTITY = 'automation';

/** 400 naming event when the event is not one of the entity's. */
function checkEvent(entity: string, event: string): void {
  const def = entityDef(entity);
  if (!def?.events.some((e) => e.code === event)) {
    throw invalid('event', `event: ${event} is not an event of ${entity}; its events: ${def?.events.map((e) => e.code).join(', ')}`);
  }
}

export async function createAutomation(tx: Tx, actor: AuditActor, input: AutomationInput): Promise<{ id: string }> {
  checkEvent(input.entity, input.event);
  const id = newId();
  await tx.automation.create({
    data: {
      id, organisationId: actor.organisationId, name: input.name, description: input.description ?? null,
      lifeCycleState: input.life_cycle_state, entity: input.entity, event: input.event,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The automation, or 404 (also for another organisation's id). */
export async function getAutomation(tx: Tx, organisationId: string, id: string): Promise<AutomationRecord> {
  return found(await tx.automation.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Automation');
}

export interface AutomationFilter {
  searchValue?: string;
  name?: string;
  state?: AutomationState;
  entity?: string;
  event?: string;
}

export async function listAutomations(tx: Tx, organisationId: string, args: ListArgs, q: AutomationFilter): Promise<ListPage<AutomationRecord>> {
  const where: Prisma.AutomationWhereInput = { organisationId, lifeCycleState: q.state, entity: q.entity, event: q.event };
  if (q.name !== undefined) where.name = { equals: q.name, mode: 'insensitive' };
  if (q.searchValue !== undefined) where.AND = [{ name: within(q.searchValue) }];
  return pageOf(tx.automation.findMany({ where, include: INCLUDE, ...args }), tx.automation.count({ where }));
}

/**
 * Partial. `state` and `life_cycle_state` are one field (both given must agree). The event may
 * change within the entity; the entity only while there are no actions (their filters name its
 * attributes).
 */
export async function updateAutomation(tx: Tx, actor: AuditActor, id: string, patch: AutomationPatch): Promise<void> {
  if (patch.state && patch.life_cycle_state && patch.state !== patch.life_cycle_state) {
    throw invalid('life_cycle_state', `life_cycle_state: ${patch.life_cycle_state} disagrees with state ${patch.state}; give one of them`);
  }
  await lock(tx, actor.organisationId, id);
  const current = await getAutomation(tx, actor.organisationId, id);
  const entity = patch.entity ?? current.entity;
  if (entity !== current.entity && current._count.actions > 0) {
    throw conflict('AUTOMATION_HAS_ACTIONS', `The automation has actions whose filters name ${current.entity} attributes: replace its sequence with an empty one first`, 'entity');
  }
  const event = patch.event ?? current.event;
  if (entity !== current.entity || event !== current.event) checkEvent(entity, event);
  await tx.automation.update({
    where: { id },
    data: { name: patch.name, description: patch.description, lifeCycleState: patch.state ?? patch.life_cycle_state, entity, event },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its actions go with it; its records stay (they keep its id and name). */
export async function deleteAutomation(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getAutomation(tx, actor.organisationId, id);
  await tx.automation.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { name: current.name } });
}

async function lock(tx: Tx, organisationId: string, id: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM automations WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
}

// ---------------------------------------------------------------- the action sequence

export async function listActions(tx: Tx, organisationId: string, automationId: string): Promise<ActionRecord[]> {
  await getAutomation(tx, organisationId, automationId);
  return tx.automationAction.findMany({ where: { organisationId, automationId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
}

/**
 * Replaces the whole sequence. An item's id is kept when it is one of this automation's actions
 * (and a parameter's or filter's when it is one of that action's), so ids read back are stable;
 * anything else gets a new id. Checked in full before anything is written.
 */
export async function setActions(tx: Tx, actor: AuditActor, automationId: string, items: ActionItemInput[]): Promise<void> {
  const { organisationId } = actor;
  await lock(tx, organisationId, automationId);
  const automation = await getAutomation(tx, organisationId, automationId);
  const existing = new Map((await tx.automationAction.findMany({ where: { organisationId, automationId } })).map((a) => [a.id, a]));
  const used = new Set<string>();
  const keep = (given: string | null | undefined, known: Set<string>) => {
    const id = given && known.has(given) && !used.has(given) ? given : newId();
    used.add(id);
    return id;
  };
  const references: Reference[] = [];
  const rows = items.map((item, n) => {
    const at = `content.${n}`;
    const adaptor = findAdaptor(item.adaptor);
    if (!adaptor) throw invalid(`${at}.adaptor`, `${at}.adaptor: no adaptor ${item.adaptor} (GET /adaptors)`);
    const action = findAction(adaptor, item.adaptor_action);
    if (!action) {
      throw invalid(`${at}.adaptor_action`, `${at}.adaptor_action: ${item.adaptor_action} is not an action of ${adaptor.code}; its actions: ${adaptor.actions.map((a) => a.code).join(', ')}`);
    }
    const id = keep(item.id, new Set(existing.keys()));
    const before = existing.get(id);
    const known = (list: unknown) => new Set((Array.isArray(list) ? (list as Array<{ id?: string }>) : []).map((x) => x.id).filter((x): x is string => !!x));
    const knownParameters = known(before?.parameters);
    const knownFilters = new Set(((before?.filters ?? []) as unknown as StoredFilterGroup[]).flatMap((g) => g.filters.map((f) => f.id)));
    const parameters = checkParameters(action, item.adaptor_action_parameters, `${at}.adaptor_action_parameters`, (g) => keep(g, knownParameters), references);
    const filters = checkFilterGroups(automation.entity, item.action_filters, `${at}.action_filters`, (g) => keep(g, knownFilters));
    return {
      id, organisationId, automationId, position: item.order, path: item.path ?? null, adaptor: adaptor.code, adaptorAction: action.code,
      parameters: parameters as unknown as Prisma.InputJsonValue, filters: filters as unknown as Prisma.InputJsonValue,
    };
  });
  await checkReferences(tx, organisationId, references);
  await tx.automationAction.deleteMany({ where: { organisationId, automationId } });
  if (rows.length) await tx.automationAction.createMany({ data: rows });
  await tx.automation.update({ where: { id: automationId }, data: { updatedAt: new Date() } });
  await audit(tx, actor, { action: 'SET_ACTIONS', entityType: ENTITY, entityId: automationId, changes: { action_ids: rows.map((r) => r.id) } });
}

// ---------------------------------------------------------------- for the run workflow

export interface RunAction {
  id: string;
  order: number;
  path: string | null;
  adaptor: string;
  adaptorAction: string;
  /** key → value, with the catalogue's defaults for parameters not given. */
  parameters: Record<string, string>;
  parameterList: StoredParameter[];
  filters: StoredFilterGroup[];
}

export interface RunPlan {
  automation: { id: string; name: string; state: AutomationState; entity: string; event: string };
  actions: RunAction[];
}

/**
 * The automation and its sequence in order, as a run reads them (null once it is deleted): a SQL
 * expression for the statement that also loads the run's event (src/activities/automations.ts),
 * read by runPlanOf. `org` and `id` are the statement's parameters, e.g. '$1' and '$3'.
 */
export function runPlanSql(org: string, id: string): string {
  return `(SELECT json_build_object('id', a.id, 'name', a.name, 'lifeCycleState', a.life_cycle_state, 'entity', a.entity, 'event', a.event,
    'actions', coalesce((SELECT json_agg(json_build_object('id', x.id, 'position', x.position, 'path', x.path, 'adaptor', x.adaptor,
      'adaptorAction', x.adaptor_action, 'parameters', x.parameters, 'filters', x.filters) ORDER BY x.position, x.id)
      FROM automation_actions x WHERE x.organisation_id = ${org} AND x.automation_id = a.id), '[]'))
  FROM automations a WHERE a.organisation_id = ${org} AND a.id = ${id}::uuid)`;
}

export interface StoredRunPlan {
  id: string;
  name: string;
  lifeCycleState: string;
  entity: string;
  event: string;
  actions: Array<{ id: string; position: number; path: string | null; adaptor: string; adaptorAction: string; parameters: unknown; filters: unknown }>;
}

export function runPlanOf(row: StoredRunPlan | null): RunPlan | null {
  if (!row) return null;
  return {
    automation: { id: row.id, name: row.name, state: row.lifeCycleState as AutomationState, entity: row.entity, event: row.event },
    actions: row.actions.map((a) => {
      const parameterList = (a.parameters ?? []) as StoredParameter[];
      return {
        id: a.id, order: a.position, path: a.path, adaptor: a.adaptor, adaptorAction: a.adaptorAction,
        parameters: parameterValues(stepAction(a), parameterList),
        parameterList,
        filters: (a.filters ?? []) as StoredFilterGroup[],
      };
    }),
  };
}
