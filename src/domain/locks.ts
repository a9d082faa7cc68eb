import type { Tx } from '../db/client';

/**
 * Serialises one kind of write within one organisation, for rules no index can hold: periods
 * that must not overlap, a network tree without cycles, settings read, merged and written back.
 * A transaction-scoped advisory lock: released at commit or rollback, other organisations and
 * other topics never wait. (An exclusion constraint would need btree_gist, which the embedded
 * database does not load.)
 */
export async function lockOrganisation(tx: Tx, organisationId: string, topic: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${topic}::text || ':' || ${organisationId}::text, 0))`;
}
