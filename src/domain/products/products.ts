// Products: sku unique within the organisation, optionally of a product type and family (docs/money-reference.md
// "Products"). Each write with its audit row in the request's transaction.
import type { z } from 'zod';
import type { productCreateBody, productUpdateBody } from '../../api/products/schemas';
import type { Prisma, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { found } from '../errors';
import { newId } from '../ids';
import { pageOf, searchWhere, within, type ListArgs, type ListPage } from '../lists';
import { findProductFamily, findProductType } from '../reference';

export type ProductInput = z.output<typeof productCreateBody>;
export type ProductPatch = z.output<typeof productUpdateBody>;

const INCLUDE = {
  productType: { select: { id: true, name: true } },
  productFamily: { select: { id: true, name: true } },
} satisfies Prisma.ProductInclude;

export type ProductRecord = Prisma.ProductGetPayload<{ include: typeof INCLUDE }>;

export interface ProductFilter {
  searchValue?: string;
  sku?: string;
  name?: string;
  productTypeId?: string;
  productFamilyId?: string;
}

const ENTITY = 'product';

export async function createProduct(tx: Tx, actor: AuditActor, input: ProductInput): Promise<{ id: string }> {
  await checkRefs(tx, actor.organisationId, input);
  const id = newId();
  // A sku already taken is refused by the unique index (409 ALREADY_EXISTS naming sku).
  await tx.product.create({
    data: {
      id,
      organisationId: actor.organisationId,
      sku: input.sku,
      name: input.name,
      description: input.description ?? null,
      productTypeId: input.product_type_id ?? null,
      productFamilyId: input.product_family_id ?? null,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

export async function getProduct(tx: Tx, organisationId: string, id: string): Promise<ProductRecord> {
  return found(await tx.product.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Product');
}

export async function listProducts(tx: Tx, organisationId: string, args: ListArgs, q: ProductFilter): Promise<ListPage<ProductRecord>> {
  const where: Prisma.ProductWhereInput = { organisationId, productTypeId: q.productTypeId, productFamilyId: q.productFamilyId, sku: q.sku };
  if (q.name !== undefined) where.name = within(q.name);
  Object.assign(where, searchWhere(['sku', 'name'], q.searchValue));
  return pageOf(tx.product.findMany({ where, include: INCLUDE, ...args }), tx.product.count({ where }));
}

export async function updateProduct(tx: Tx, actor: AuditActor, id: string, patch: ProductPatch): Promise<void> {
  await getProduct(tx, actor.organisationId, id);
  await checkRefs(tx, actor.organisationId, patch);
  await tx.product.update({
    where: { id },
    data: { sku: patch.sku, name: patch.name, description: patch.description, productTypeId: patch.product_type_id, productFamilyId: patch.product_family_id },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** A product that a spend condition names cannot go: its foreign key answers 409 IN_USE. */
export async function deleteProduct(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getProduct(tx, actor.organisationId, id);
  await tx.product.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { sku: current.sku, name: current.name } });
}

/** The foreign keys alone would accept another organisation's type or family: checked here. */
async function checkRefs(tx: Tx, organisationId: string, input: ProductPatch): Promise<void> {
  const sql = txSql(tx, organisationId);
  if (input.product_type_id) await findProductType(sql, { id: input.product_type_id }, 'product_type_id');
  if (input.product_family_id) await findProductFamily(sql, { id: input.product_family_id }, 'product_family_id');
}
