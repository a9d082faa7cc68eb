// What a group funds of a member: FULLY everything, PARTIALLY only the listed products, product
// types and families, each of which must exist in the organisation (docs/accounts.md).
import type { Tx } from '../../db/client';
import { invalid } from '../errors';
import type { FundingScope } from './types';

export interface Funding {
  scope: FundingScope;
  products: string[];
  productTypes: string[];
  productFamilies: string[];
}

type Lister = (tx: Tx, organisationId: string, ids: string[]) => Promise<Array<{ id: string }>>;

const LISTS: Array<{ key: 'products' | 'productTypes' | 'productFamilies'; attribute: string; what: string; find: Lister }> = [
  { key: 'products', attribute: 'products', what: 'product', find: (tx, organisationId, ids) => tx.product.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true } }) },
  { key: 'productTypes', attribute: 'product_types', what: 'product type', find: (tx, organisationId, ids) => tx.productType.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true } }) },
  { key: 'productFamilies', attribute: 'product_families', what: 'product family', find: (tx, organisationId, ids) => tx.productFamily.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true } }) },
];

/** The funding as it will be stored, or 400 naming the first item or list at fault. */
export async function checkFunding(tx: Tx, organisationId: string, f: Funding): Promise<Funding> {
  for (const list of LISTS) {
    const ids = f[list.key];
    if (f.scope === 'FULLY' && ids.length) throw invalid(list.attribute, `${list.attribute}: a FULLY funded member needs no list; use PARTIALLY to fund only some products`);
    // One query per list, however long it is.
    const known = new Set((ids.length ? await list.find(tx, organisationId, ids) : []).map((r) => r.id));
    const seen = new Set<string>();
    for (const [i, id] of ids.entries()) {
      if (!known.has(id)) throw invalid(`${list.attribute}.${i}`, `${list.attribute}.${i}: no such ${list.what} in this organisation`);
      if (seen.has(id)) throw invalid(`${list.attribute}.${i}`, `${list.attribute}.${i}: the ${list.what} is listed twice`);
      seen.add(id);
    }
  }
  if (f.scope === 'PARTIALLY' && !f.products.length && !f.productTypes.length && !f.productFamilies.length) {
    throw invalid('funding_scope', 'PARTIALLY funds only what products, product_types or product_families list: give at least one');
  }
  return f;
}
