// Industries own their sectors: a sector is addressed under its industry, and an industry with
// sectors cannot be deleted.
import type { Tx } from '../../db/client';
import type { AuditActor } from '../audit';
import { conflict } from '../errors';
import { deleteEntry, getEntry, industries, industrySectors } from './catalogue';

/** The industry with its sectors (by name), or 404. */
export async function getIndustryWithSectors(tx: Tx, organisationId: string, id: string) {
  const industry = await getEntry(tx, organisationId, industries, id);
  const sectors = await tx.industrySector.findMany({
    where: { organisationId, industryId: industry.id },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    select: { id: true, code: true, name: true },
  });
  return { industry, sectors };
}

/** Checked first for a clear message; the foreign key (P2003 → IN_USE) still guards races. */
export async function deleteIndustry(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  await getEntry(tx, actor.organisationId, industries, id);
  const sectors = await tx.industrySector.count({ where: { organisationId: actor.organisationId, industryId: id } });
  if (sectors > 0) throw conflict('IN_USE', `Industry still has ${sectors} sector(s); delete them first`);
  await deleteEntry(tx, actor, industries, id);
}

/** 404 for an unknown industry before any sector operation below it. */
export async function requireIndustry(tx: Tx, organisationId: string, industryId: string) {
  return getEntry(tx, organisationId, industries, industryId);
}

/**
 * Contacts keep their sectors as an id array (no foreign key), so the check is explicit: a
 * sector still named by a contact is IN_USE rather than left dangling.
 */
export async function deleteSector(tx: Tx, actor: AuditActor, industryId: string, sectorId: string): Promise<void> {
  const parent = { industryId };
  await getEntry(tx, actor.organisationId, industrySectors, sectorId, parent);
  const users = await tx.contact.count({ where: { organisationId: actor.organisationId, industrySectorIds: { has: sectorId } } });
  if (users > 0) throw conflict('IN_USE', `Industry sector is still used by ${users} contact(s)`);
  await deleteEntry(tx, actor, industrySectors, sectorId, parent);
}
