// The merchants and products schemes and offers list must be the organisation's own; a bad one
// is the body's mistake: 400 naming the item (`merchants.2`, `products.0.id`). Their
// foreign keys then keep them from being deleted while named (409 IN_USE). Items listed twice
// are refused by the request schemas.
import type { Tx } from '../../../db/client';
import { invalid } from '../../errors';
import type { ProductIdType } from '../../spend-conditions/read';

export interface ProductRef {
  id_type: ProductIdType;
  id: string;
}

/**
 * Each id is a network unit of the organisation of type MERCHANT; a bad one is 400 naming
 * `attribute(i)` (default `merchants.<i>`; a creative's one id: `() => 'merchant_id'`).
 */
export async function checkMerchants(tx: Tx, organisationId: string, ids: string[], attribute = (i: number) => `merchants.${i}`): Promise<void> {
  if (!ids.length) return;
  const rows = await tx.networkUnit.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true, type: true } });
  const typeOf = new Map(rows.map((u) => [u.id, u.type]));
  ids.forEach((id, i) => {
    const type = typeOf.get(id);
    const at = attribute(i);
    if (type === undefined) throw invalid(at, `${at}: organisation unit not found`);
    if (type !== 'MERCHANT') throw invalid(at, `${at}: the organisation unit is a ${type}, not a MERCHANT`);
  });
}

/** Each reference exists in the table its id_type names, in this organisation. */
export async function checkProducts(tx: Tx, organisationId: string, refs: ProductRef[]): Promise<void> {
  if (!refs.length) return;
  const of = (type: ProductIdType) => refs.filter((r) => r.id_type === type).map((r) => r.id);
  const select = { id: true } as const;
  const none = Promise.resolve<Array<{ id: string }>>([]);
  const [families, types, products] = await Promise.all([
    of('FAMILY').length ? tx.productFamily.findMany({ where: { organisationId, id: { in: of('FAMILY') } }, select }) : none,
    of('TYPE').length ? tx.productType.findMany({ where: { organisationId, id: { in: of('TYPE') } }, select }) : none,
    of('PRODUCT').length ? tx.product.findMany({ where: { organisationId, id: { in: of('PRODUCT') } }, select }) : none,
  ]);
  const found = new Set([
    ...families.map((r) => `FAMILY:${r.id}`),
    ...types.map((r) => `TYPE:${r.id}`),
    ...products.map((r) => `PRODUCT:${r.id}`),
  ]);
  refs.forEach((r, i) => {
    if (!found.has(`${r.id_type}:${r.id}`)) throw invalid(`products.${i}.id`, `products.${i}.id: no ${r.id_type.toLowerCase()} with this id`);
  });
}

const COLUMN = { FAMILY: 'productFamilyId', TYPE: 'productTypeId', PRODUCT: 'productId' } as const;

/** The column a product reference fills: exactly the one its id_type names. */
export function productColumns(ref: ProductRef): { idType: ProductIdType; productFamilyId?: string; productTypeId?: string; productId?: string } {
  return { idType: ref.id_type, [COLUMN[ref.id_type]]: ref.id };
}

