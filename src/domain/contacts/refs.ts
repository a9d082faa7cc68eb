// Reference data named in a contact body (category, industry, sectors). An unknown reference is
// a mistake in that field of the body: 400 naming it (lookups in domain/reference).
import type { Prisma } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { invalid } from '../errors';
import { moneyText } from '../money';
import { findCategory, findIndustry, findIndustrySectors } from '../reference';
import type { CompanyProfileInput, Ref } from './types';

export async function resolveCategoryId(sql: OrgSql, ref: Ref | null | undefined, attribute: string): Promise<string | null | undefined> {
  if (ref === undefined || ref === null) return ref;
  return (await findCategory(sql, ref, attribute)).id;
}

export interface ResolvedProfile {
  /** The stored JSON: every profile field except industry and sectors. */
  profile: Prisma.InputJsonObject;
  industryId?: string | null;
  industrySectorIds?: string[];
}

/**
 * `industry_id` (main) or `industry {id|code}` (alternative); sectors as GUIDs (main) or
 * {id|code} (alternative), each a sector of the given industry (or of the current one on update).
 * `current` is the stored profile: on update the supplied keys replace, the others stay.
 */
export async function resolveCompanyProfile(
  sql: OrgSql,
  input: CompanyProfileInput,
  current: { profile: Prisma.JsonValue | null; industryId: string | null },
): Promise<ResolvedProfile> {
  const { industry_id, industry, industry_sectors, ...rest } = input;
  if (industry_id !== undefined && industry !== undefined) throw invalid('company_profile.industry', 'give industry_id or industry, not both');
  const { annual_turnover, ...plain } = rest;
  const turnover = annual_turnover === undefined ? {} : { annual_turnover: annual_turnover === null ? null : moneyText(annual_turnover) };
  const out: ResolvedProfile = { profile: { ...asObject(current.profile), ...withoutUndefined(plain), ...turnover } };
  const industryRef = industry_id !== undefined ? (industry_id === null ? null : { id: industry_id }) : industry;
  if (industryRef === null) out.industryId = null;
  else if (industryRef !== undefined) {
    const attribute = industry_id !== undefined ? 'company_profile.industry_id' : 'company_profile.industry';
    out.industryId = (await findIndustry(sql, industryRef, attribute)).id;
  }
  if (industry_sectors !== undefined) {
    const refs = industry_sectors.map((s) => (typeof s === 'string' ? { id: s } : s));
    const industryId = out.industryId === undefined ? current.industryId : out.industryId;
    const sectors = await findIndustrySectors(sql, industryId, refs, 'company_profile.industry_sectors');
    out.industrySectorIds = [...new Set(sectors.map((s) => s.id))];
  }
  return out;
}

function asObject(value: Prisma.JsonValue | null): Prisma.InputJsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Prisma.InputJsonObject) : {};
}

export function withoutUndefined<T extends object>(value: T): Prisma.InputJsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Prisma.InputJsonObject;
}
