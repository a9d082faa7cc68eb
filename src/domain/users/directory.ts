// The organisation's users with the departments and user roles they are members of (what the
// assignment actions name, docs/assignments.md "Users") and their access. Never the password hash.
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { found, notFound } from '../errors';
import { pageOf, searchWhere, type ListArgs, type ListPage } from '../lists';

const SELECT = {
  id: true,
  username: true,
  firstName: true,
  lastName: true,
  email: true,
  isAdmin: true,
  scopes: true,
  disabledAt: true,
  createdAt: true,
  departments: { orderBy: { department: { name: 'asc' } }, select: { department: { select: { id: true, name: true } } } },
  roles: { orderBy: { role: { name: 'asc' } }, select: { role: { select: { id: true, name: true } } } },
} satisfies Prisma.UserSelect;
export type UserRecord = Prisma.UserGetPayload<{ select: typeof SELECT }>;

export interface UserFilter {
  username?: string;
  searchValue?: string;
}

export async function getUser(tx: Tx, organisationId: string, id: string): Promise<UserRecord> {
  return found(await tx.user.findFirst({ where: { organisationId, id }, select: SELECT }), 'User');
}

export async function listUsers(tx: Tx, organisationId: string, args: ListArgs, q: UserFilter): Promise<ListPage<UserRecord>> {
  const where: Prisma.UserWhereInput = { organisationId, username: q.username, ...searchWhere(['username', 'firstName', 'lastName', 'email'], q.searchValue) };
  return pageOf(tx.user.findMany({ where, select: SELECT, ...args }), tx.user.count({ where }));
}

export interface UserProfilePatch {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * A user's e-mail and names (what reports are mailed to, what assignments show). Admin rights,
 * scopes and the account's state are src/domain/users/access.ts: what a credential may
 * give is checked there.
 */
export async function updateUserProfile(tx: Tx, actor: AuditActor, id: string, patch: UserProfilePatch): Promise<void> {
  const { count } = await tx.user.updateMany({ where: { organisationId: actor.organisationId, id }, data: patch });
  if (count === 0) throw notFound('User');
  await audit(tx, actor, { action: 'UPDATE', entityType: 'USER', entityId: id, changes: { fields: Object.keys(patch) } });
}
