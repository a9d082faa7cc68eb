// Departments (docs/assignments.md): a named group of users, of the tenant itself or of one unit
// of its business network. "Assign to (a user of) a specific department" resolves through them.
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { notFound } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';
import { checkUsers, tenantIdName, unitOrTenant, USER_NAME_SELECT } from './members';
import type { DepartmentInput, DepartmentPatch, IdName } from './types';

const INCLUDE = {
  unit: { select: { id: true, name: true } },
  members: { orderBy: { position: 'asc' }, select: { user: { select: USER_NAME_SELECT } } },
} satisfies Prisma.DepartmentInclude;
/** With the organisation it belongs to: its unit, or the tenant itself. */
export type DepartmentRecord = Prisma.DepartmentGetPayload<{ include: typeof INCLUDE }> & { organisation: IdName };

export interface DepartmentFilter extends NameCodeFilter {
  /** A unit id, or the tenant id for the tenant's own departments. */
  organisationId?: string;
}

const ENTITY = 'department';

export async function createDepartment(tx: Tx, actor: AuditActor, input: DepartmentInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const unitId = await unitOrTenant(tx, organisationId, input.organisation_id, 'organisation_id');
  await checkUsers(tx, organisationId, input.user_ids);
  const id = newId();
  // A code taken by another department is refused by its unique index: 409 ALREADY_EXISTS.
  await tx.department.create({
    data: { id, organisationId, code: input.code ?? null, name: input.name, description: input.description ?? null, unitId },
  });
  await writeMembers(tx, organisationId, id, input.user_ids, false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The department, or 404 (also for another organisation's id). */
export async function getDepartment(tx: Tx, organisationId: string, id: string): Promise<DepartmentRecord> {
  const row = await tx.department.findFirst({ where: { organisationId, id }, include: INCLUDE });
  if (!row) throw notFound('Department');
  return (await withOrganisation(tx, organisationId, [row]))[0];
}

export async function listDepartments(tx: Tx, organisationId: string, args: ListArgs, q: DepartmentFilter): Promise<ListPage<DepartmentRecord>> {
  const where: Prisma.DepartmentWhereInput = { organisationId, ...nameCodeWhere(q) };
  if (q.organisationId !== undefined) where.unitId = q.organisationId === organisationId ? null : q.organisationId;
  const [rows, total] = await Promise.all([tx.department.findMany({ where, include: INCLUDE, ...args }), tx.department.count({ where })]);
  return { rows: await withOrganisation(tx, organisationId, rows), total };
}

/** Partial; null clears code and description, and moves the department to the tenant itself. */
export async function updateDepartment(tx: Tx, actor: AuditActor, id: string, patch: DepartmentPatch): Promise<void> {
  const { organisationId } = actor;
  await getDepartment(tx, organisationId, id);
  const unitId = patch.organisation_id === undefined ? undefined : await unitOrTenant(tx, organisationId, patch.organisation_id, 'organisation_id');
  if (patch.user_ids) await checkUsers(tx, organisationId, patch.user_ids);
  await tx.department.update({
    where: { id },
    data: { code: patch.code, name: patch.name, description: patch.description, unitId },
  });
  if (patch.user_ids) await writeMembers(tx, organisationId, id, patch.user_ids, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its members go with it. */
export async function deleteDepartment(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getDepartment(tx, actor.organisationId, id);
  await tx.department.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}

type Row = Prisma.DepartmentGetPayload<{ include: typeof INCLUDE }>;

async function withOrganisation(tx: Tx, organisationId: string, rows: Row[]): Promise<DepartmentRecord[]> {
  const tenant = rows.some((r) => r.unit === null) ? await tenantIdName(tx, organisationId) : undefined;
  return rows.map((r) => ({ ...r, organisation: r.unit ?? (tenant as IdName) }));
}

async function writeMembers(tx: Tx, organisationId: string, departmentId: string, userIds: string[], existing: boolean): Promise<void> {
  if (existing) await tx.departmentMember.deleteMany({ where: { organisationId, departmentId } });
  if (userIds.length) {
    await tx.departmentMember.createMany({ data: userIds.map((userId, position) => ({ organisationId, departmentId, userId, position })) });
  }
}
