// Post-code coverage (docs/assignments.md): a unit of the business network serves the post codes
// that start with a prefix; "fulfilled based on post code coverage" picks the longest prefix.
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { alreadyExists, found, notFound } from '../errors';
import { newId } from '../ids';
import { pageOf, type ListArgs, type ListPage } from '../lists';
import type { CoverageInput, CoveragePatch } from './types';

const INCLUDE = { unit: { select: { id: true, name: true } } } satisfies Prisma.PostCodeCoverageInclude;
export type CoverageRecord = Prisma.PostCodeCoverageGetPayload<{ include: typeof INCLUDE }>;

export interface CoverageFilter {
  unitId?: string;
  /** A full, normalised post code: coverages whose prefix it starts with. */
  postCode?: string;
}

const ENTITY = 'post_code_coverage';

/** Upper case without spaces: how prefixes are stored and post codes compared. */
export function normalisePostCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

export async function createCoverage(tx: Tx, actor: AuditActor, input: CoverageInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const unitId = await coverageUnit(tx, organisationId, input.organisation_id);
  const id = newId();
  // The unique index decides a duplicate; its columns (unit_id, post_code) are not the API's
  // names, so the conflict is reported here, from the insert that did nothing.
  const inserted = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO post_code_coverages (id, organisation_id, unit_id, post_code)
    VALUES (${id}::uuid, ${organisationId}::uuid, ${unitId}::uuid, ${input.post_code})
    ON CONFLICT (organisation_id, unit_id, post_code) DO NOTHING RETURNING id::text AS id`;
  if (!inserted.length) throw duplicate();
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { organisation_id: unitId, post_code: input.post_code } });
  return { id };
}

/** The coverage, or 404 (also for another organisation's id). */
export async function getCoverage(tx: Tx, organisationId: string, id: string): Promise<CoverageRecord> {
  return found(await tx.postCodeCoverage.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Post code coverage');
}

export async function listCoverage(tx: Tx, organisationId: string, args: ListArgs, q: CoverageFilter): Promise<ListPage<CoverageRecord>> {
  const where: Prisma.PostCodeCoverageWhereInput = { organisationId, unitId: q.unitId };
  // Every prefix of the code (at most 10 characters are stored) is a candidate.
  if (q.postCode !== undefined) where.postCode = { in: prefixes(q.postCode) };
  return pageOf(tx.postCodeCoverage.findMany({ where, include: INCLUDE, ...args }), tx.postCodeCoverage.count({ where }));
}

/** Partial. */
export async function updateCoverage(tx: Tx, actor: AuditActor, id: string, patch: CoveragePatch): Promise<void> {
  const { organisationId } = actor;
  const current = await getCoverage(tx, organisationId, id);
  const unitId = patch.organisation_id === undefined ? current.unitId : await coverageUnit(tx, organisationId, patch.organisation_id);
  const postCode = patch.post_code ?? current.postCode;
  const updated = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE post_code_coverages SET unit_id = ${unitId}::uuid, post_code = ${postCode}
     WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid
       AND NOT EXISTS (SELECT 1 FROM post_code_coverages o WHERE o.organisation_id = ${organisationId}::uuid
                          AND o.unit_id = ${unitId}::uuid AND o.post_code = ${postCode} AND o.id <> ${id}::uuid)
    RETURNING id::text AS id`;
  if (!updated.length) throw duplicate();
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { organisation_id: unitId, post_code: postCode } });
}

export async function deleteCoverage(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getCoverage(tx, actor.organisationId, id);
  await tx.postCodeCoverage.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { organisation_id: current.unitId, post_code: current.postCode } });
}

/** Every non-empty prefix of a normalised post code, longest first. */
export function prefixes(postCode: string): string[] {
  return Array.from({ length: Math.min(postCode.length, 10) }, (_, i) => postCode.slice(0, Math.min(postCode.length, 10) - i));
}

/** Coverage belongs to a unit of the network (not the tenant itself): 400 naming organisation_id otherwise. */
async function coverageUnit(tx: Tx, organisationId: string, id: string): Promise<string> {
  const unit = await tx.networkUnit.findFirst({ where: { organisationId, id }, select: { id: true } });
  if (!unit) throw notFound('Organisation unit', 'organisation_id');
  return unit.id;
}

const duplicate = () => alreadyExists('post_code', 'post_code: the unit already covers this post code prefix');
