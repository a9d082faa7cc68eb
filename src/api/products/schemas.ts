// Products (spec 2.3 members, 2.4 spend conditions, 2.12 purchases name them by sku).
import { z } from 'zod';
import { contentList } from '../lists';
import { pagingQuery, zId } from '../validation';

const sku = z.string().trim().min(1).max(100).regex(/^[^/]+$/, 'must not contain "/"');
const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000);

export const productCreateBody = z.strictObject({
  sku: sku.meta({ description: 'Unique within the organisation.' }),
  name,
  description: description.nullish(),
  product_type_id: zId.nullish(),
  product_family_id: zId.nullish(),
});

/** Partial: only the fields given change; null clears description, type or family. */
export const productUpdateBody = z.strictObject({
  sku: sku.optional(),
  name: name.optional(),
  description: description.nullish(),
  product_type_id: zId.nullish(),
  product_family_id: zId.nullish(),
});

export const productListQuery = pagingQuery(['sku', 'name', 'created_on']).extend({
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the sku or the name.' }),
  sku: z.string().min(1).max(100).optional().meta({ description: 'Exact sku.' }),
  name: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the name.' }),
  product_type_id: zId.optional(),
  product_family_id: zId.optional(),
});

const named = z.object({ id: z.string(), name: z.string() }).nullable();

export const productItem = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  product_type: named,
  product_family: named,
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const productList = contentList(productItem);
