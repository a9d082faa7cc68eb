// A unit's parent is another unit of the same organisation, and the network stays a tree.
import type { Tx } from '../../db/client';
import { invalid } from '../errors';
import { lockOrganisation } from '../locks';

/**
 * Checks that `parentId` may be the parent of `unitId` (undefined for a unit being created): it
 * is a unit of this organisation and `unitId` is not among its ancestors (nor itself). Two
 * concurrent moves could each pass alone and together close a loop, so moves are serialised.
 */
export async function checkParent(tx: Tx, organisationId: string, parentId: string, unitId?: string): Promise<void> {
  if (unitId !== undefined) await lockOrganisation(tx, organisationId, 'network_tree');
  // The parent and its ancestors; UNION (not ALL) ends even on data that already loops.
  const chain = await tx.$queryRaw<Array<{ id: string }>>`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM network_units WHERE organisation_id = ${organisationId}::uuid AND id = ${parentId}::uuid
      UNION
      SELECT u.id, u.parent_id FROM network_units u JOIN up ON u.id = up.parent_id WHERE u.organisation_id = ${organisationId}::uuid
    )
    SELECT id::text AS id FROM up`;
  if (chain.length === 0) throw invalid('parent_id', 'parent_id: organisation unit not found');
  if (unitId !== undefined && chain.some((row) => row.id === unitId)) {
    throw invalid('parent_id', 'parent_id: a unit cannot be placed below itself or one of its own units');
  }
}
