import type { z } from 'zod';
import type { ProductFilter, ProductRecord } from '../../domain/products/products';
import type { SortField } from '../lists';
import { epoch } from '../present';
import type { productItem, productListQuery } from './schemas';

export function presentProduct(p: ProductRecord): z.input<typeof productItem> {
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    product_type: p.productType,
    product_family: p.productFamily,
    created_on: epoch(p.createdAt),
    updated_on: epoch(p.updatedAt),
  };
}

export const PRODUCT_SORT: Record<string, SortField> = { sku: 'sku', name: 'name', created_on: 'createdAt' };

export function productFilter(q: z.output<typeof productListQuery>): ProductFilter {
  return { searchValue: q.search_value, sku: q.sku, name: q.name, productTypeId: q.product_type_id, productFamilyId: q.product_family_id };
}
