// Reading the business network: one unit with its locations and taps, or a page of them.
import type { Prisma, Tx } from '../../db/client';
import { notFound } from '../errors';
import type { ListArgs, ListPage } from '../lists';

export const UNIT_INCLUDE = {
  locations: { orderBy: { position: 'asc' } },
  taps: { orderBy: { position: 'asc' } },
} satisfies Prisma.NetworkUnitInclude;

export type UnitRecord = Prisma.NetworkUnitGetPayload<{ include: typeof UNIT_INCLUDE }>;

export interface UnitFilter {
  searchValue?: string;
  code?: string;
  name?: string;
  type?: string;
  parentId?: string;
}

/** The unit, or 404: another organisation's unit is unknown here. */
export async function getUnit(tx: Tx, organisationId: string, id: string): Promise<UnitRecord> {
  const row = await tx.networkUnit.findFirst({ where: { organisationId, id }, include: UNIT_INCLUDE });
  if (!row) throw notFound('Organisation unit');
  return row;
}

export async function listUnits(tx: Tx, organisationId: string, args: ListArgs, q: UnitFilter): Promise<ListPage<UnitRecord>> {
  const where: Prisma.NetworkUnitWhereInput = { organisationId };
  if (q.code !== undefined) where.code = q.code;
  if (q.name !== undefined) where.name = { contains: q.name, mode: 'insensitive' };
  if (q.type !== undefined) where.type = q.type;
  if (q.parentId !== undefined) where.parentId = q.parentId;
  if (q.searchValue !== undefined) {
    const text = { contains: q.searchValue, mode: 'insensitive' } as const;
    where.OR = [{ name: text }, { code: text }];
  }
  const [rows, total] = await Promise.all([
    tx.networkUnit.findMany({ where, include: UNIT_INCLUDE, ...args }),
    tx.networkUnit.count({ where }),
  ]);
  return { rows, total };
}
