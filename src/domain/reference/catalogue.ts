// Reference data lists (contact categories, industries, industry sectors, KYC profiles, account
// classifications) share one shape: id, optional code unique per organisation, name,
// description. One implementation serves them all; each list is a `Catalogue` naming its table.
import type { Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { found } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';

export interface CatalogueRow {
  id: string;
  organisationId: string;
  code: string | null;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Text = string | { equals?: string; contains?: string; mode?: 'insensitive' };

/** The subset of a Prisma where clause the catalogues use; sectors add `industryId`. */
export interface CatalogueWhere {
  organisationId: string;
  id?: string | { not: string };
  industryId?: string;
  code?: Text | null;
  name?: Text;
  OR?: Array<{ code?: Text; name?: Text }>;
}


interface CatalogueData {
  code?: string | null;
  name?: string;
  description?: string | null;
}

/** What the catalogue code needs of a Prisma model delegate; every reference model fits it. */
export interface CatalogueTable {
  findFirst(args: { where: CatalogueWhere }): PromiseLike<CatalogueRow | null>;
  findMany(args: { where: CatalogueWhere } & Partial<ListArgs>): PromiseLike<CatalogueRow[]>;
  count(args: { where: CatalogueWhere }): PromiseLike<number>;
  create(args: { data: CatalogueData & { id: string; organisationId: string; name: string; industryId?: string } }): PromiseLike<CatalogueRow>;
  update(args: { where: { id: string }; data: CatalogueData }): PromiseLike<CatalogueRow>;
  delete(args: { where: { id: string } }): PromiseLike<CatalogueRow>;
}

export interface Catalogue {
  /** Audit entity type, snake_case. */
  entity: string;
  /** Human name for messages: "Contact category not found". */
  label: string;
  table(tx: Tx): CatalogueTable;
  /** The table's SQL name, for the one-statement reference look-ups (lookups.ts). */
  tableName: string;
}

export const contactCategories: Catalogue = { entity: 'contact_category', label: 'Contact category', table: (tx) => tx.contactCategory, tableName: 'contact_categories' };
export const industries: Catalogue = { entity: 'industry', label: 'Industry', table: (tx) => tx.industry, tableName: 'industries' };
export const industrySectors: Catalogue = { entity: 'industry_sector', label: 'Industry sector', table: (tx) => tx.industrySector, tableName: 'industry_sectors' };
export const kycProfiles: Catalogue = { entity: 'kyc_profile', label: 'KYC profile', table: (tx) => tx.kycProfile, tableName: 'kyc_profiles' };
export const accountClassifications: Catalogue = {
  entity: 'account_classification',
  label: 'Account classification',
  table: (tx) => tx.accountClassification,
  tableName: 'account_classifications',
};
export const productTypes: Catalogue = { entity: 'product_type', label: 'Product type', table: (tx) => tx.productType, tableName: 'product_types' };
export const productFamilies: Catalogue = { entity: 'product_family', label: 'Product family', table: (tx) => tx.productFamily, tableName: 'product_families' };
export const purchaseClassifications: Catalogue = {
  entity: 'purchase_classification',
  label: 'Purchase classification',
  table: (tx) => tx.purchaseClassification,
  tableName: 'purchase_classifications',
};

/** Narrows every query to a parent (a sector's industry); empty for top-level lists. */
export interface Parent {
  industryId?: string;
}

export interface EntryInput {
  code?: string | null;
  name: string;
  description?: string | null;
}

export type EntryPatch = Partial<EntryInput>;

export async function createEntry(tx: Tx, actor: AuditActor, cat: Catalogue, input: EntryInput, parent: Parent = {}): Promise<CatalogueRow> {
  const table = cat.table(tx);
  // A code already taken is refused by the unique index (409 ALREADY_EXISTS naming `code`).
  const row = await table.create({
      data: {
        id: newId(),
        organisationId: actor.organisationId,
        ...parent,
        code: input.code ?? null,
        name: input.name,
        description: input.description ?? null,
      },
    });
  await audit(tx, actor, { action: 'CREATE', entityType: cat.entity, entityId: row.id, changes: { ...input, ...parent } });
  return row;
}

export async function listEntries(tx: Tx, organisationId: string, cat: Catalogue, args: ListArgs, q: NameCodeFilter, parent: Parent = {}): Promise<ListPage<CatalogueRow>> {
  const where: CatalogueWhere = { organisationId, ...parent, ...nameCodeWhere(q) };
  const table = cat.table(tx);
  return pageOf(table.findMany({ where, ...args }), table.count({ where }));
}

/** The row, or 404: another organisation's id (or another industry's sector) is unknown here. */
export async function getEntry(tx: Tx, organisationId: string, cat: Catalogue, id: string, parent: Parent = {}): Promise<CatalogueRow> {
  return found(await cat.table(tx).findFirst({ where: { organisationId, id, ...parent } }), cat.label);
}

export async function updateEntry(tx: Tx, actor: AuditActor, cat: Catalogue, id: string, patch: EntryPatch, parent: Parent = {}) {
  const table = cat.table(tx);
  const current = await getEntry(tx, actor.organisationId, cat, id, parent);
  const row = await table.update({ where: { id: current.id }, data: patch });
  await audit(tx, actor, { action: 'UPDATE', entityType: cat.entity, entityId: id, changes: { ...patch } });
  return row;
}

export async function deleteEntry(tx: Tx, actor: AuditActor, cat: Catalogue, id: string, parent: Parent = {}): Promise<void> {
  const current = await getEntry(tx, actor.organisationId, cat, id, parent);
  // Still referenced: the foreign key refuses it (409 IN_USE).
  await cat.table(tx).delete({ where: { id: current.id } });
  await audit(tx, actor, { action: 'DELETE', entityType: cat.entity, entityId: id, changes: { code: current.code, name: current.name } });
}
