// Activities (spec 2.7, 4.5; decisions in docs/activities.md): a task for the tenant itself, a
// unit of its business network and/or one of its users, optionally about one record.
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid, notFound } from '../errors';
import { newId } from '../ids';
import { within, type ListArgs, type ListPage } from '../lists';
import type { ActivityFilter, ActivityInput, ActivityPatch, ActivityState, EntityType } from './types';

const ENTITY = 'activity';

const INCLUDE = {
  unit: { select: { id: true, name: true } },
  user: { select: { id: true, username: true, firstName: true, lastName: true } },
} satisfies Prisma.ActivityInclude;
export type ActivityRecord = Prisma.ActivityGetPayload<{ include: typeof INCLUDE }>;

export interface IdName {
  id: string;
  name: string;
}

/** The activity and whom it is for: the tenant (its name from organisations), a unit, or null. */
export interface ActivityView {
  activity: ActivityRecord;
  organisation: IdName | null;
}

/** Where the activity sits: the tenant itself, one of its units, or neither (a user's only). */
interface Owner {
  forTenant: boolean;
  unitId: string | null;
}

const NO_OWNER: Owner = { forTenant: false, unitId: null };

export async function createActivity(tx: Tx, actor: AuditActor, input: ActivityInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  if (!input.organisation_id && !input.user_id) throw invalid('organisation_id', 'organisation_id: organisation_id or user_id is required');
  const owner = input.organisation_id ? await ownerOf(tx, organisationId, input.organisation_id) : NO_OWNER;
  if (input.user_id) await checkUser(tx, organisationId, input.user_id);
  if (input.entity) await checkEntity(tx, organisationId, input.entity.type, input.entity.id);
  const id = newId();
  await tx.activity.create({
    data: {
      id, organisationId, subject: input.subject, description: input.description ?? null, ...owner, userId: input.user_id ?? null,
      entityType: input.entity?.type ?? null, entityId: input.entity?.id ?? null,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The activity, or 404 (also for another organisation's id). */
export async function getActivity(tx: Tx, organisationId: string, id: string): Promise<ActivityView> {
  const row = await tx.activity.findFirst({ where: { organisationId, id }, include: INCLUDE });
  if (!row) throw notFound('Activity');
  const tenant = row.forTenant ? await tenantOf(tx, organisationId) : null;
  return view(row, tenant);
}

export async function listActivities(tx: Tx, organisationId: string, args: ListArgs, q: ActivityFilter): Promise<ListPage<ActivityView>> {
  const and: Prisma.ActivityWhereInput[] = q.entities.map((e) => ({ entityType: e.type, entityId: e.id }));
  if (q.organisationId !== undefined) and.push(q.organisationId === organisationId ? { forTenant: true } : { unitId: q.organisationId });
  if (q.searchValue !== undefined) and.push({ subject: within(q.searchValue) });
  const where: Prisma.ActivityWhereInput = { organisationId, lifeCycleState: q.lifeCycleState, userId: q.userId, AND: and };
  const [rows, total] = await Promise.all([tx.activity.findMany({ where, include: INCLUDE, ...args }), tx.activity.count({ where })]);
  const tenant = rows.some((r) => r.forTenant) ? await tenantOf(tx, organisationId) : null;
  return { rows: rows.map((r) => view(r, tenant)), total };
}

/** Partial; the result is still someone's: the organisation, a unit or a user. */
export async function updateActivity(tx: Tx, actor: AuditActor, id: string, patch: ActivityPatch): Promise<void> {
  const { organisationId } = actor;
  const current = await lockActivity(tx, organisationId, id);
  let owner: Owner = { forTenant: current.forTenant, unitId: current.unitId };
  if (patch.organisation_id === null) owner = NO_OWNER;
  else if (patch.organisation_id !== undefined) owner = await ownerOf(tx, organisationId, patch.organisation_id);
  const userId = patch.user_id === undefined ? current.userId : patch.user_id;
  if (!owner.forTenant && !owner.unitId && !userId) {
    const attribute = patch.organisation_id === null ? 'organisation_id' : 'user_id';
    throw invalid(attribute, `${attribute}: an activity keeps an organisation_id or a user_id`);
  }
  if (patch.user_id) await checkUser(tx, organisationId, patch.user_id);
  await tx.activity.update({
    where: { id },
    data: { subject: patch.subject, description: patch.description, ...owner, userId },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/**
 * The moves allowed: PENDING → COMPLETED, and back (reopen). The same state again is a no-op
 * (200, no audit row); a state missing from this table can be reached from nowhere.
 */
const MOVES: Record<ActivityState, readonly ActivityState[]> = {
  PENDING: ['COMPLETED'],
  COMPLETED: ['PENDING'],
};

export async function setActivityState(tx: Tx, actor: AuditActor, id: string, to: ActivityState): Promise<void> {
  const current = await lockActivity(tx, actor.organisationId, id);
  const from = current.lifeCycleState as ActivityState;
  if (from === to) return;
  if (!MOVES[from].includes(to)) throw conflict('INVALID_STATE_TRANSITION', `An activity cannot move from ${from} to ${to}`, 'life_cycle_state');
  await tx.activity.update({ where: { id }, data: { lifeCycleState: to, completedAt: to === 'COMPLETED' ? new Date() : null } });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { life_cycle_state: { from, to } } });
}

/** The deleted activity's link stays in its audit row, so anonymising the contact finds the subject (anonymise-traces.ts). */
export async function deleteActivity(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await lockActivity(tx, actor.organisationId, id);
  await tx.activity.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { subject: current.subject, entity_type: current.entityType, entity_id: current.entityId } });
}

/** The row under a lock, so two concurrent updates cannot together leave it nobody's. */
async function lockActivity(tx: Tx, organisationId: string, id: string) {
  await tx.$queryRaw`SELECT id FROM activities WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  return found(await tx.activity.findFirst({ where: { organisationId, id } }), 'Activity');
}

/** The tenant itself (its own id) or one of its units; another tenant's id is unknown here. */
async function ownerOf(tx: Tx, organisationId: string, id: string): Promise<Owner> {
  if (id === organisationId) return { forTenant: true, unitId: null };
  const unit = await tx.networkUnit.findFirst({ where: { organisationId, id }, select: { id: true } });
  if (!unit) throw notFound('Organisation', 'organisation_id');
  return { forTenant: false, unitId: unit.id };
}

/** A user of the tenant belongs to the tenant and to each of its units (docs/activities.md). */
async function checkUser(tx: Tx, organisationId: string, id: string): Promise<void> {
  const user = await tx.user.findFirst({ where: { organisationId, id }, select: { id: true } });
  if (!user) throw notFound('User', 'user_id');
}

/** Records kept here must exist in the organisation; LEAD, ORDER and SERVICE_REQUEST live elsewhere. */
async function checkEntity(tx: Tx, organisationId: string, type: EntityType, id: string): Promise<void> {
  const where = { organisationId, id };
  const select = { id: true } as const;
  let found: unknown;
  if (type === 'CONTACT') found = await tx.contact.findFirst({ where, select });
  else if (type === 'ACCOUNT') found = await tx.account.findFirst({ where, select });
  else if (type === 'PURCHASE') found = await tx.purchase.findFirst({ where, select });
  else return;
  if (!found) throw notFound(`${type.charAt(0)}${type.slice(1).toLowerCase()}`, 'entity.id');
}

async function tenantOf(tx: Tx, organisationId: string): Promise<IdName | null> {
  const [org] = await tx.$queryRaw<IdName[]>`SELECT id::text AS id, name FROM organisations WHERE id = ${organisationId}::uuid`;
  return org ?? null;
}

function view(activity: ActivityRecord, tenant: IdName | null): ActivityView {
  return { activity, organisation: activity.forTenant ? tenant : activity.unit };
}
