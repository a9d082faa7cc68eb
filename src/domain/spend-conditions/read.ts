// A spend condition as spec 2.4 shows it: units with their names and locations, product
// references with the name and description of what they name, timings. The wallet balances
// present this same read model.
import type { NetworkLocation, Prisma, Tx } from '../../db/client';
import { notFound } from '../errors';
import { nameCodeWhere, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';

export type ProductIdType = 'FAMILY' | 'TYPE' | 'PRODUCT';

export interface Timing {
  month: number | null;
  /** 1 = Sunday ... 7 = Saturday */
  day: number | null;
  /** HH:MM, inclusive */
  start_time: string;
  /** HH:MM, exclusive; 24:00 is the end of the day */
  end_time: string;
}

export interface SpendConditionView {
  id: string;
  code: string | null;
  name: string;
  organisations: Array<{ id: string; name: string; locations: NetworkLocation[] }>;
  products: Array<{ idType: ProductIdType; id: string; name: string; description: string | null }>;
  timings: Timing[];
  createdAt: Date;
  updatedAt: Date;
}

const described = { select: { id: true, name: true, description: true } } as const;

const INCLUDE = {
  units: { orderBy: { position: 'asc' }, include: { unit: { select: { id: true, name: true, locations: { orderBy: { position: 'asc' } } } } } },
  products: { orderBy: { position: 'asc' }, include: { productFamily: described, productType: described, product: described } },
} satisfies Prisma.SpendConditionInclude;

type SpendConditionRecord = Prisma.SpendConditionGetPayload<{ include: typeof INCLUDE }>;

/** The spend condition with its references resolved, or 404 (also for another organisation's id). */
export async function getSpendCondition(tx: Tx, organisationId: string, id: string): Promise<SpendConditionView> {
  const row = await tx.spendCondition.findFirst({ where: { organisationId, id }, include: INCLUDE });
  if (!row) throw notFound('Spend condition');
  return toView(row);
}

/** Several at once, by id (unknown ids are left out): for reads that show many, e.g. balances. */
export async function getSpendConditions(tx: Tx, organisationId: string, ids: string[]): Promise<Map<string, SpendConditionView>> {
  const rows = await tx.spendCondition.findMany({ where: { organisationId, id: { in: ids } }, include: INCLUDE });
  return new Map(rows.map((row) => [row.id, toView(row)]));
}

export async function listSpendConditions(tx: Tx, organisationId: string, args: ListArgs, q: NameCodeFilter): Promise<ListPage<SpendConditionView>> {
  const where: Prisma.SpendConditionWhereInput = { organisationId, ...nameCodeWhere(q) };
  const [rows, total] = await Promise.all([tx.spendCondition.findMany({ where, include: INCLUDE, ...args }), tx.spendCondition.count({ where })]);
  return { rows: rows.map(toView), total };
}

function toView(row: SpendConditionRecord): SpendConditionView {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    organisations: row.units.map(({ unit }) => unit),
    products: row.products.map((p) => {
      // The CHECK constraint guarantees the one reference id_type names is set.
      const target = (p.productFamily ?? p.productType ?? p.product)!;
      return { idType: p.idType as ProductIdType, id: target.id, name: target.name, description: target.description };
    }),
    timings: row.timings as unknown as Timing[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
