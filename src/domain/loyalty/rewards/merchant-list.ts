// GET /merchants (spec 2.13, 4.4): the business network's units of type MERCHANT, with their
// taps and creatives, and on request the schemes they take part in and the venues below them
// (docs/rewards.md "The merchants list").
import type { Prisma, Tx } from '../../../db/client';
import { notFound } from '../../errors';
import type { ListArgs, ListPage } from '../../lists';
import { CREATIVE_ORDER } from '../../network/creatives';
import type { MerchantListFilter } from './types';

const TAP = { orderBy: [{ position: 'asc' }, { id: 'asc' }], select: { id: true, name: true, code: true } } satisfies Prisma.NetworkUnit$tapsArgs;
const BASE = { taps: TAP, creatives: { orderBy: CREATIVE_ORDER }, _count: { select: { children: true } } } satisfies Prisma.NetworkUnitInclude;

type IdName = { id: string; name: string };
type Tap = { id: string; name: string; code: string };

/** A merchant with its taps, its creatives (as they were created) and its number of child units; schemes and venues only when asked for. */
export type MerchantRecord = Prisma.NetworkUnitGetPayload<{ include: typeof BASE }> & {
  schemes?: Array<IdName & { code: string | null }>;
  venues?: Array<IdName & { taps: Tap[] }>;
};

export async function listMerchants(db: Tx, organisationId: string, args: ListArgs, filter: MerchantListFilter): Promise<ListPage<MerchantRecord>> {
  const where: Prisma.NetworkUnitWhereInput = { organisationId, type: 'MERCHANT' };
  if (filter.reward_scheme_id !== undefined) {
    const scheme = await db.rewardScheme.findFirst({ where: { organisationId, id: filter.reward_scheme_id }, select: { id: true } });
    if (!scheme) throw notFound('Reward scheme', 'reward_scheme_id');
    where.schemes = { some: { schemeId: scheme.id } };
  }
  const [rows, total] = await Promise.all([db.networkUnit.findMany({ where, include: BASE, ...args }), db.networkUnit.count({ where })]);
  const ids = rows.map((r) => r.id);
  const [schemes, venues] = await Promise.all([
    filter.include_schemes ? schemesOf(db, organisationId, ids) : undefined,
    filter.include_venues ? venuesOf(db, organisationId, ids) : undefined,
  ]);
  return {
    rows: rows.map((r) => ({ ...r, ...(schemes && { schemes: schemes.get(r.id) ?? [] }), ...(venues && { venues: venues.get(r.id) ?? [] }) })),
    total,
  };
}

/** The schemes each merchant takes part in, by name. */
async function schemesOf(db: Tx, organisationId: string, unitIds: string[]): Promise<Map<string, NonNullable<MerchantRecord['schemes']>>> {
  const rows = await db.rewardSchemeMerchant.findMany({
    where: { organisationId, unitId: { in: unitIds } },
    orderBy: [{ scheme: { name: 'asc' } }, { schemeId: 'asc' }],
    select: { unitId: true, scheme: { select: { id: true, name: true, code: true } } },
  });
  return groupBy(rows, (r) => r.unitId, (r) => r.scheme);
}

/** The units of type VENUE directly below each merchant, by name, with their taps. */
async function venuesOf(db: Tx, organisationId: string, unitIds: string[]): Promise<Map<string, NonNullable<MerchantRecord['venues']>>> {
  const rows = await db.networkUnit.findMany({
    where: { organisationId, type: 'VENUE', parentId: { in: unitIds } },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, parentId: true, taps: TAP },
  });
  return groupBy(rows, (r) => r.parentId!, (r) => ({ id: r.id, name: r.name, taps: r.taps }));
}

function groupBy<R, V>(rows: R[], key: (r: R) => string, value: (r: R) => V): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k) ?? [];
    list.push(value(r));
    out.set(k, list);
  }
  return out;
}
