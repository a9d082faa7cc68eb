import type { Db } from '../../src/db/client';

/** Rows of every table a run (or a simulation) could write, in the organisation. */
export async function effectRows(database: Db, organisationId: string): Promise<Record<string, number>> {
  const tables = ['adaptor_action_records', 'webhook_requests', 'communications', 'outbox_events', 'workflow_intents', 'audit_entries', 'contact_custom_fields', 'segment_contacts'];
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [row] = await database.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${t} WHERE organisation_id = $1::uuid`, organisationId);
    out[t] = row.n;
  }
  return out;
}
