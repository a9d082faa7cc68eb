// Resolving references given in request bodies (`category {id or code}`, `classification_id`,
// ...). An unknown reference is the caller's mistake in that field: 400 naming the attribute,
// not 404 (the addressed resource exists; the body is wrong).
import type { OrgSql } from '../../db/sql';
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
} from './catalogue';

/** Either the id or the code (or both, then both must match). */
export interface ReferenceRef {
  id?: string;
  code?: string;
}

/** What a look-up answers: the id the body meant. A Prisma caller passes `txSql(tx, organisationId)`. */
export interface FoundRef {
  id: string;
}

export function findCategory(sql: OrgSql, ref: ReferenceRef, attribute: string): Promise<FoundRef> {
  return findRef(sql, contactCategories, ref, attribute);
}

export function findIndustry(sql: OrgSql, ref: ReferenceRef, attribute: string): Promise<FoundRef> {
  return findRef(sql, industries, ref, attribute);
}

export function findKycProfile(sql: OrgSql, ref: ReferenceRef, attribute: string): Promise<FoundRef> {
  return findRef(sql, kycProfiles, ref, attribute);
}

export function findAccountClassification(sql: OrgSql, ref: ReferenceRef, attribute: string): Promise<FoundRef> {
  return findRef(sql, accountClassifications, ref, attribute);
}

export function findProductType(sql: OrgSql, ref: ReferenceRef, attribute: string): Promise<FoundRef> {
  return findRef(sql, productTypes, ref, attribute);
}

export function findProductFamily(sql: OrgSql, ref: ReferenceRef, attribute: string): Promise<FoundRef> {
  return findRef(sql, productFamilies, ref, attribute);
}

/**
 * Resolves each sector reference, in the given order, to a sector of `industryId` (any
 * industry of the organisation when null). A bad item is named by index: `<attribute>.<i>`.
 */
export async function findIndustrySectors(sql: OrgSql, industryId: string | null | undefined, refs: ReferenceRef[], attribute: string): Promise<FoundRef[]> {
  const rows: FoundRef[] = [];
  for (const [i, ref] of refs.entries()) rows.push(await findRef(sql, industrySectors, ref, `${attribute}.${i}`, industryId ?? null));
  return rows;
}

// $2 id, $3 code (either may be null, not both); $4 the sector's industry (null: any).
const statement = (cat: Catalogue) => `SELECT id FROM ${cat.tableName} WHERE organisation_id = $1 AND ($2::uuid IS NULL OR id = $2::uuid)
  AND ($3::text IS NULL OR code = $3::text)${cat === industrySectors ? ' AND ($4::uuid IS NULL OR industry_id = $4::uuid)' : ''} LIMIT 1`;

async function findRef(sql: OrgSql, cat: Catalogue, ref: ReferenceRef, attribute: string, industryId: string | null = null): Promise<FoundRef> {
  if (ref.id === undefined && ref.code === undefined) throw invalid(attribute, `${attribute}: give the id or the code`);
  // A malformed id cannot match a uuid column; querying it would be a database error, not a 400.
  if (ref.id !== undefined && !isId(ref.id)) throw invalid(attribute, `${attribute}: ${cat.label.toLowerCase()} not found`);
  const params = [ref.id === undefined ? null : normaliseId(ref.id), ref.code ?? null, ...(cat === industrySectors ? [industryId] : [])];
  const [row] = await sql.rows<FoundRef>(statement(cat), params);
  if (!row) throw invalid(attribute, `${attribute}: ${cat.label.toLowerCase()} not found`);
  return row;
}
