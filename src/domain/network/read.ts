// Reading the business network: one unit with its locations and taps, or a page of them.
import type { Prisma, Tx } from '../../db/client';
import { found } from '../errors';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';

export const UNIT_INCLUDE = {
  locations: { orderBy: { position: 'asc' } },
  taps: { orderBy: { position: 'asc' } },
} satisfies Prisma.NetworkUnitInclude;

export type UnitRecord = Prisma.NetworkUnitGetPayload<{ include: typeof UNIT_INCLUDE }>;

export interface UnitFilter extends NameCodeFilter {
  type?: string;
  parentId?: string;
}

/** The unit, or 404: another organisation's unit is unknown here. */
export async function getUnit(tx: Tx, organisationId: string, id: string): Promise<UnitRecord> {
  return found(await tx.networkUnit.findFirst({ where: { organisationId, id }, include: UNIT_INCLUDE }), 'Organisation unit');
}

export async function listUnits(tx: Tx, organisationId: string, args: ListArgs, q: UnitFilter): Promise<ListPage<UnitRecord>> {
  const where: Prisma.NetworkUnitWhereInput = { organisationId, type: q.type, parentId: q.parentId, ...nameCodeWhere(q) };
  return pageOf(tx.networkUnit.findMany({ where, include: UNIT_INCLUDE, ...args }), tx.networkUnit.count({ where }));
}
