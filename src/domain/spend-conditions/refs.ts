// The units and products a spend condition names must be the organisation's own; a bad one is
// the body's mistake: 400 naming the item (`organisations.2`, `products.0.id`). Their foreign
// keys then keep them from being deleted while named (409 IN_USE).
import type { Tx } from '../../db/client';
import { invalid } from '../errors';
import { newId } from '../ids';
import type { ProductIdType } from './read';

interface ProductRef {
  id_type: ProductIdType;
  id: string;
}

interface Owner {
  organisationId: string;
  spendConditionId: string;
}

export async function replaceUnits(tx: Tx, owner: Owner, ids: string[], existing: boolean): Promise<void> {
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) throw invalid(`organisations.${i}`, `organisations.${i}: listed twice`);
  });
  const found = new Set((await tx.networkUnit.findMany({ where: { organisationId: owner.organisationId, id: { in: ids } }, select: { id: true } })).map((u) => u.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw invalid(`organisations.${i}`, `organisations.${i}: organisation unit not found`);
  });
  if (existing) await tx.spendConditionUnit.deleteMany({ where: owner });
  if (ids.length) await tx.spendConditionUnit.createMany({ data: ids.map((unitId, position) => ({ ...owner, unitId, position })) });
}

const COLUMN = { FAMILY: 'productFamilyId', TYPE: 'productTypeId', PRODUCT: 'productId' } as const;

export async function replaceProducts(tx: Tx, owner: Owner, refs: ProductRef[], existing: boolean): Promise<void> {
  const key = (r: ProductRef) => `${r.id_type}:${r.id}`;
  const keys = refs.map(key);
  keys.forEach((k, i) => {
    if (keys.indexOf(k) !== i) throw invalid(`products.${i}.id`, `products.${i}.id: listed twice`);
  });
  const found = await existingIds(tx, owner.organisationId, refs);
  refs.forEach((r, i) => {
    if (!found.has(key(r))) throw invalid(`products.${i}.id`, `products.${i}.id: no ${r.id_type.toLowerCase()} with this id`);
  });
  if (existing) await tx.spendConditionProduct.deleteMany({ where: owner });
  if (!refs.length) return;
  await tx.spendConditionProduct.createMany({
    data: refs.map((r, position) => ({ id: newId(), ...owner, position, idType: r.id_type, [COLUMN[r.id_type]]: r.id })),
  });
}

/** `<id_type>:<id>` of each reference that exists in its table, one query per table named. */
async function existingIds(tx: Tx, organisationId: string, refs: ProductRef[]): Promise<Set<string>> {
  const of = (type: ProductIdType) => refs.filter((r) => r.id_type === type).map((r) => r.id);
  const select = { id: true } as const;
  const lookups: Array<[ProductIdType, Promise<Array<{ id: string }>>]> = [];
  if (of('FAMILY').length) lookups.push(['FAMILY', tx.productFamily.findMany({ where: { organisationId, id: { in: of('FAMILY') } }, select })]);
  if (of('TYPE').length) lookups.push(['TYPE', tx.productType.findMany({ where: { organisationId, id: { in: of('TYPE') } }, select })]);
  if (of('PRODUCT').length) lookups.push(['PRODUCT', tx.product.findMany({ where: { organisationId, id: { in: of('PRODUCT') } }, select })]);
  const found = new Set<string>();
  for (const [type, rows] of lookups) for (const row of await rows) found.add(`${type}:${row.id}`);
  return found;
}
