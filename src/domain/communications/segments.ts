// Segments (docs/communications.md "Segments"): STATIC (members in segment_contacts, each a
// contact of the organisation, kept by a foreign key) or FILTER (GET /contacts filters, stored
// as JSON and resolved when read through the contact search's own condition).
import { Prisma, type Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { SqlParams } from '../../db/sql-params';
import { contactFilterCondition, type ContactFilters } from '../contacts/search';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid, notFound } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';
import type { SegmentInput, SegmentPatch } from './types';

export type SegmentType = 'STATIC' | 'FILTER';

const INCLUDE = { _count: { select: { contacts: true } } } satisfies Prisma.SegmentInclude;
export type SegmentRecord = Prisma.SegmentGetPayload<{ include: typeof INCLUDE }>;

export interface SegmentFilter extends NameCodeFilter {
  type?: SegmentType;
}

const ENTITY = 'segment';

export async function createSegment(tx: Tx, actor: AuditActor, input: SegmentInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const { contactIds, filters } = segmentRule(input.type, input.contact_ids, input.filters);
  await checkContacts(tx, organisationId, contactIds);
  const id = newId();
  await tx.segment.create({
    data: { id, organisationId, name: input.name, code: input.code ?? null, type: input.type, filters: filters ?? undefined },
  });
  await writeMembers(tx, organisationId, id, contactIds, false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The segment, or 404 (also for another organisation's id). */
export async function getSegment(tx: Tx, organisationId: string, id: string): Promise<SegmentRecord> {
  return found(await tx.segment.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Segment');
}

export async function listSegments(tx: Tx, organisationId: string, args: ListArgs, q: SegmentFilter): Promise<ListPage<SegmentRecord>> {
  const where: Prisma.SegmentWhereInput = { organisationId, type: q.type, ...nameCodeWhere(q) };
  return pageOf(tx.segment.findMany({ where, include: INCLUDE, ...args }), tx.segment.count({ where }));
}

/** Partial; the type rule holds for the result (a type change needs the new type's field). */
export async function updateSegment(tx: Tx, actor: AuditActor, id: string, patch: SegmentPatch): Promise<void> {
  const { organisationId } = actor;
  await tx.$queryRaw`SELECT id FROM segments WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const current = await getSegment(tx, organisationId, id);
  const type = patch.type ?? (current.type as SegmentType);
  const switched = type !== current.type;
  const rule = segmentRule(
    type,
    patch.contact_ids,
    patch.filters ?? (type === 'FILTER' && !switched ? (current.filters as ContactFilters) : undefined),
    !switched,
  );
  if (patch.contact_ids) await checkContacts(tx, organisationId, patch.contact_ids);
  await tx.segment.update({
    where: { id },
    data: { name: patch.name, code: patch.code, type, filters: rule.filters ?? Prisma.DbNull },
  });
  // Members are replaced when given, and dropped when the segment becomes a FILTER.
  if (patch.contact_ids) await writeMembers(tx, organisationId, id, patch.contact_ids, true);
  else if (type === 'FILTER' && switched) await tx.segmentContact.deleteMany({ where: { organisationId, segmentId: id } });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its member list goes with it; a plan still naming it keeps it (409 IN_USE). */
export async function deleteSegment(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getSegment(tx, actor.organisationId, id);
  await tx.segment.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}

/**
 * STATIC has contact_ids (required on create) and no filters; FILTER has filters (required) and
 * no contact_ids. `keepsMembers`: an update of a STATIC segment that leaves its members alone.
 */
function segmentRule(type: SegmentType, contactIds: string[] | undefined, filters: ContactFilters | undefined, keepsMembers = false) {
  if (type === 'STATIC') {
    if (filters !== undefined) throw invalid('filters', 'filters: only a FILTER segment has filters');
    if (contactIds === undefined && !keepsMembers) throw invalid('contact_ids', 'contact_ids: required for a STATIC segment');
    return { contactIds: contactIds ?? [], filters: null };
  }
  if (contactIds !== undefined) throw invalid('contact_ids', 'contact_ids: only a STATIC segment has contact_ids');
  if (filters === undefined) throw invalid('filters', 'filters: required for a FILTER segment');
  return { contactIds: [], filters: filters as Prisma.InputJsonValue };
}

/** Each id is a contact of the organisation: 400 naming contact_ids.N otherwise. */
async function checkContacts(tx: Tx, organisationId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await tx.contact.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true } });
  const found = new Set(rows.map((r) => r.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw invalid(`contact_ids.${i}`, `contact_ids.${i}: no contact with this id`);
  });
}

async function writeMembers(tx: Tx, organisationId: string, segmentId: string, contactIds: string[], existing: boolean): Promise<void> {
  if (existing) await tx.segmentContact.deleteMany({ where: { organisationId, segmentId } });
  if (contactIds.length) await tx.segmentContact.createMany({ data: contactIds.map((contactId) => ({ organisationId, segmentId, contactId })) });
}

// ---------------------------------------------------------------- members added one at a time (the Add To Segment action)

/** Why a segment of this type takes no members one at a time; undefined for STATIC. */
export function whyNoMembers(type: string): string | undefined {
  return type === 'STATIC' ? undefined : 'a FILTER segment takes no members: its contacts are computed from its filters; name a STATIC segment';
}

/**
 * The STATIC segment a member is added to: `Segment` 400 naming `attribute` when the organisation
 * has none of this id, 409 SEGMENT_NOT_STATIC for a FILTER one. `lock` holds the row FOR SHARE
 * until the transaction ends, so a switch to FILTER (which drops the members, under FOR UPDATE)
 * waits for the member written here instead of leaving it behind; a read-only transaction (a
 * simulation) cannot lock and does not.
 */
export async function staticSegment(tx: Tx, organisationId: string, id: string, attribute: string, lock: boolean): Promise<{ id: string; name: string }> {
  const [segment] = await tx.$queryRaw<Array<{ id: string; name: string; type: string }>>`
    SELECT id, name, type FROM segments WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid ${lock ? Prisma.sql`FOR SHARE` : Prisma.empty}`;
  if (!segment) throw notFound('Segment', attribute);
  const why = whyNoMembers(segment.type);
  if (why) throw conflict('SEGMENT_NOT_STATIC', `${attribute}: ${why}`, attribute);
  return { id: segment.id, name: segment.name };
}

/** Whether the contact is a member of the segment (its row in segment_contacts). */
export async function isMember(tx: Tx, organisationId: string, segmentId: string, contactId: string): Promise<boolean> {
  return !!(await tx.segmentContact.findFirst({ where: { organisationId, segmentId, contactId }, select: { contactId: true } }));
}

/**
 * Adds the contact to a STATIC segment (`staticSegment` first), audited; false when it already was
 * a member: INSERT ... ON CONFLICT DO NOTHING on the primary key, so two events at once write one row.
 */
export async function addMember(tx: Tx, actor: AuditActor, segmentId: string, contactId: string): Promise<boolean> {
  const { count } = await tx.segmentContact.createMany({ data: [{ organisationId: actor.organisationId, segmentId, contactId }], skipDuplicates: true });
  if (count) await audit(tx, actor, { action: 'ADD_MEMBER', entityType: ENTITY, entityId: segmentId, changes: { contact_id: contactId } });
  return count > 0;
}

// ---------------------------------------------------------------- resolving a segment's contacts

interface Resolved {
  where: string;
  values: unknown[];
}

/** The condition over `contacts c` a segment's contacts meet; 404 for an unknown segment. */
async function segmentCondition(sql: OrgSql, segmentId: string): Promise<Resolved> {
  const [segment] = await sql.rows<{ type: SegmentType; filters: ContactFilters | null }>(
    'SELECT type, filters FROM segments WHERE organisation_id = $1 AND id = $2::uuid',
    [segmentId],
  );
  if (!segment) throw notFound('Segment');
  if (segment.type === 'FILTER') return contactFilterCondition(segment.filters ?? {});
  return {
    where: 'c.organisation_id = $1 AND c.id IN (SELECT s.contact_id FROM segment_contacts s WHERE s.organisation_id = $1 AND s.segment_id = $2::uuid)',
    values: [segmentId],
  };
}

export interface SegmentContact {
  id: string;
  code: string | null;
  name: string;
}

/** A page of the segment's contacts, in id order. */
export async function listSegmentContacts(sql: OrgSql, organisationId: string, segmentId: string, page: { page: number; size: number }): Promise<ListPage<SegmentContact>> {
  void organisationId; // `sql` is scoped to it ($1)
  const { where, values } = await segmentCondition(sql, segmentId);
  const params = new SqlParams(...values);
  const rows = await sql.rows<SegmentContact & { total: number }>(
    `SELECT c.id, c.code, coalesce(c.company_name, nullif(concat_ws(' ', c.first_name, c.last_name), ''), c.code, '') AS name,
            (count(*) OVER ())::int AS total
       FROM contacts c WHERE ${where} ORDER BY c.id ${params.page(page)}`,
    params.values,
  );
  let total = rows[0]?.total ?? 0;
  if (!rows.length && page.page > 1) {
    const [count] = await sql.rows<{ total: number }>(`SELECT count(*)::int AS total FROM contacts c WHERE ${where}`, values);
    total = count.total;
  }
  return { rows: rows.map(({ id, code, name }) => ({ id, code, name })), total };
}

/**
 * The segment's contact ids after `after` (exclusive), in id order, at most `limit`: keyset
 * paging for a plan's tick to stream a large segment (pass the last id back as `after`).
 * `sql` is ctx.sql, or `txSql(tx, organisationId)` / `pgSql(pool, organisationId)` in an activity.
 */
export async function segmentContactIds(sql: OrgSql, organisationId: string, segmentId: string, after: string | undefined, limit: number): Promise<string[]> {
  void organisationId; // `sql` is scoped to it ($1)
  const { where, values } = await segmentCondition(sql, segmentId);
  const params = new SqlParams(...values);
  const from = params.add(after ?? null, 'uuid');
  const rows = await sql.rows<{ id: string }>(
    `SELECT c.id FROM contacts c WHERE ${where} AND (${from} IS NULL OR c.id > ${from}) ORDER BY c.id LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((r) => r.id);
}
