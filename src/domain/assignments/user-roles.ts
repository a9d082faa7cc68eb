// User roles (docs/assignments.md): a named group of users across the organisation. "Assign to /
// fulfilled by a user of a specific user role" resolves through them.
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { found } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';
import { checkUsers, USER_NAME_SELECT } from './members';
import type { UserRoleInput, UserRolePatch } from './types';

const INCLUDE = {
  members: { orderBy: { position: 'asc' }, select: { user: { select: USER_NAME_SELECT } } },
} satisfies Prisma.UserRoleInclude;
export type UserRoleRecord = Prisma.UserRoleGetPayload<{ include: typeof INCLUDE }>;

const ENTITY = 'user_role';

export async function createUserRole(tx: Tx, actor: AuditActor, input: UserRoleInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await checkUsers(tx, organisationId, input.user_ids);
  const id = newId();
  // A code taken by another role is refused by its unique index: 409 ALREADY_EXISTS.
  await tx.userRole.create({ data: { id, organisationId, code: input.code ?? null, name: input.name, description: input.description ?? null } });
  await writeMembers(tx, organisationId, id, input.user_ids, false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The role, or 404 (also for another organisation's id). */
export async function getUserRole(tx: Tx, organisationId: string, id: string): Promise<UserRoleRecord> {
  return found(await tx.userRole.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'User role');
}

export async function listUserRoles(tx: Tx, organisationId: string, args: ListArgs, q: NameCodeFilter): Promise<ListPage<UserRoleRecord>> {
  const where: Prisma.UserRoleWhereInput = { organisationId, ...nameCodeWhere(q) };
  return pageOf(tx.userRole.findMany({ where, include: INCLUDE, ...args }), tx.userRole.count({ where }));
}

/** Partial; null clears code and description. */
export async function updateUserRole(tx: Tx, actor: AuditActor, id: string, patch: UserRolePatch): Promise<void> {
  const { organisationId } = actor;
  await getUserRole(tx, organisationId, id);
  if (patch.user_ids) await checkUsers(tx, organisationId, patch.user_ids);
  await tx.userRole.update({ where: { id }, data: { code: patch.code, name: patch.name, description: patch.description } });
  if (patch.user_ids) await writeMembers(tx, organisationId, id, patch.user_ids, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its members go with it. */
export async function deleteUserRole(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getUserRole(tx, actor.organisationId, id);
  await tx.userRole.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}

async function writeMembers(tx: Tx, organisationId: string, roleId: string, userIds: string[], existing: boolean): Promise<void> {
  if (existing) await tx.userRoleMember.deleteMany({ where: { organisationId, roleId } });
  if (userIds.length) {
    await tx.userRoleMember.createMany({ data: userIds.map((userId, position) => ({ organisationId, roleId, userId, position })) });
  }
}
