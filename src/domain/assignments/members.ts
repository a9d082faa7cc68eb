// What departments and user roles share: their members are users of the organisation, kept in
// the order given, and organisations named by id are the tenant itself or one of its units.
import type { Prisma, Tx } from '../../db/client';
import { notFound } from '../errors';
import type { IdName } from './types';

/** How a user is named on records: first and last name, else the username. */
export function userName(u: { username: string; firstName: string | null; lastName: string | null }): string {
  return [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username;
}

export const USER_NAME_SELECT = { id: true, username: true, firstName: true, lastName: true } satisfies Prisma.UserSelect;

/** Each id is a user of the organisation: 400 naming user_ids.N otherwise. */
export async function checkUsers(tx: Tx, organisationId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await tx.user.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true } });
  const found = new Set(rows.map((r) => r.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw notFound('User', `user_ids.${i}`);
  });
}

/** `id` as a unit id: null for the tenant itself, the unit's id for one of its units, else 400 naming `attribute`. */
export async function unitOrTenant(tx: Tx, organisationId: string, id: string | null | undefined, attribute: string): Promise<string | null> {
  if (id == null || id === organisationId) return null;
  const unit = await tx.networkUnit.findFirst({ where: { organisationId, id }, select: { id: true } });
  if (!unit) throw notFound('Organisation', attribute);
  return unit.id;
}

/** The tenant's {id, name} (organisations is not organisation-scoped data: a raw read naming it). */
export async function tenantIdName(tx: Tx, organisationId: string): Promise<IdName> {
  const [org] = await tx.$queryRaw<IdName[]>`SELECT id::text AS id, name FROM organisations WHERE id = ${organisationId}::uuid`;
  return org;
}

