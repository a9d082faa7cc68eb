// Resolving references given in request bodies (`category {id or code}`, `classification_id`,
// ...). An unknown reference is the caller's mistake in that field: 400 naming the attribute,
// not 404 (the addressed resource exists; the body is wrong).
import type { AccountClassification, ContactCategory, Industry, IndustrySector, KycProfile, ProductFamily, ProductType, Tx } from '../../db/client';
import { invalid } from '../errors';
import { isId, normaliseId } from '../ids';
import {
  accountClassifications,
  contactCategories,
  industries,
  industrySectors,
  kycProfiles,
  productFamilies,
  productTypes,
  type Catalogue,
  type CatalogueRow,
  type CatalogueWhere,
} from './catalogue';

/** Either the id or the code (or both, then both must match). */
export interface ReferenceRef {
  id?: string;
  code?: string;
}

export function findCategory(tx: Tx, organisationId: string, ref: ReferenceRef, attribute: string): Promise<ContactCategory> {
  return findRef(tx, contactCategories, { organisationId }, ref, attribute);
}

export function findIndustry(tx: Tx, organisationId: string, ref: ReferenceRef, attribute: string): Promise<Industry> {
  return findRef(tx, industries, { organisationId }, ref, attribute);
}

export function findKycProfile(tx: Tx, organisationId: string, ref: ReferenceRef, attribute: string): Promise<KycProfile> {
  return findRef(tx, kycProfiles, { organisationId }, ref, attribute);
}

export function findAccountClassification(tx: Tx, organisationId: string, ref: ReferenceRef, attribute: string): Promise<AccountClassification> {
  return findRef(tx, accountClassifications, { organisationId }, ref, attribute);
}

export function findProductType(tx: Tx, organisationId: string, ref: ReferenceRef, attribute: string): Promise<ProductType> {
  return findRef(tx, productTypes, { organisationId }, ref, attribute);
}

export function findProductFamily(tx: Tx, organisationId: string, ref: ReferenceRef, attribute: string): Promise<ProductFamily> {
  return findRef(tx, productFamilies, { organisationId }, ref, attribute);
}

/**
 * Resolves each sector reference, in the given order, to a sector of `industryId` (any
 * industry of the organisation when null). A bad item is named by index: `<attribute>.<i>`.
 */
export async function findIndustrySectors(
  tx: Tx,
  organisationId: string,
  industryId: string | null | undefined,
  refs: ReferenceRef[],
  attribute: string,
): Promise<IndustrySector[]> {
  const scope: CatalogueWhere = { organisationId, ...(industryId ? { industryId } : {}) };
  const rows: IndustrySector[] = [];
  for (const [i, ref] of refs.entries()) {
    rows.push(await findRef<IndustrySector>(tx, industrySectors, scope, ref, `${attribute}.${i}`));
  }
  return rows;
}

async function findRef<T extends CatalogueRow>(tx: Tx, cat: Catalogue, scope: CatalogueWhere, ref: ReferenceRef, attribute: string): Promise<T> {
  if (ref.id === undefined && ref.code === undefined) throw invalid(attribute, `${attribute}: give the id or the code`);
  // A malformed id cannot match a uuid column; querying it would be a database error, not a 400.
  if (ref.id !== undefined && !isId(ref.id)) throw invalid(attribute, `${attribute}: ${cat.label.toLowerCase()} not found`);
  const where: CatalogueWhere = { ...scope };
  if (ref.id !== undefined) where.id = normaliseId(ref.id);
  if (ref.code !== undefined) where.code = ref.code;
  const row = await cat.table(tx).findFirst({ where });
  if (!row) throw invalid(attribute, `${attribute}: ${cat.label.toLowerCase()} not found`);
  // Every table behind these catalogues is the model T (the catalogue fixes the table).
  return row as T;
}
