// GET /accounts/{id}/members: the group's members with what it funds of each, names resolved in
// one query per reference table for the whole group.
import type { Prisma, Tx } from '../../db/client';
import { findAccount } from './rules';

const INCLUDE = { member: { select: { number: true } } } satisfies Prisma.AccountMemberInclude;

export interface MemberView {
  row: Prisma.AccountMemberGetPayload<{ include: typeof INCLUDE }>;
  products: Array<{ id: string; sku: string }>;
  productTypes: Array<{ id: string; name: string }>;
  productFamilies: Array<{ id: string; name: string }>;
}

export async function listMembers(tx: Tx, organisationId: string, groupId: string): Promise<MemberView[]> {
  await findAccount(tx, organisationId, groupId);
  const rows = await tx.accountMember.findMany({ where: { organisationId, groupAccountId: groupId }, include: INCLUDE, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const all = (pick: (r: (typeof rows)[number]) => string[]) => [...new Set(rows.flatMap(pick))];
  const [products, types, families] = await Promise.all([
    tx.product.findMany({ where: { organisationId, id: { in: all((r) => r.productIds) } }, select: { id: true, sku: true } }),
    tx.productType.findMany({ where: { organisationId, id: { in: all((r) => r.productTypeIds) } }, select: { id: true, name: true } }),
    tx.productFamily.findMany({ where: { organisationId, id: { in: all((r) => r.productFamilyIds) } }, select: { id: true, name: true } }),
  ]);
  // In the order the member record lists them; one deleted since is left out.
  const inOrder = <T extends { id: string }>(found: T[], ids: string[]): T[] => {
    const byId = new Map(found.map((f) => [f.id, f]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  return rows.map((row) => ({
    row,
    products: inOrder(products, row.productIds),
    productTypes: inOrder(types, row.productTypeIds),
    productFamilies: inOrder(families, row.productFamilyIds),
  }));
}
