// What an activity makes of the ids a workflow input names (docs/security.md "Workflows and
// personal data"). Anyone who reaches the Temporal frontend can start a workflow with any input,
// so an activity loads every record it is given within the organisation the input names and
// refuses, for good, what is not there: a forged start acts only on its own organisation's
// records, by ids it must already know. Messages name ids only (they are kept in the history).
import { ApplicationFailure } from '@temporalio/common';
import type { OrgSql } from '../db/sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id must be a UUID: anything else is a forged or broken input, never worth a retry. */
export function checkIds(ids: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(ids)) {
    if (typeof value !== 'string' || !UUID.test(value)) throw ApplicationFailure.nonRetryable(`${name} is not an id`, 'INVALID_ID');
  }
}

/** The refusal of a record the organisation does not have (another's, or none at all). */
export function notOwned(what: string, id: string, organisationId: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${what} ${id} is not a record of organisation ${organisationId}`, 'NOT_FOUND');
}

/**
 * The refusal of a money movement nobody asked for (docs/security.md "The engine's door"): an
 * activity that moves money or closes a record acts only for what the API committed (an intent,
 * a claim). A workflow started on the Temporal frontend by anyone else ends here, for good.
 */
export function notRequested(what: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${what} was never requested through the API`, 'NOT_REQUESTED');
}

const INTENDED = `SELECT 1 AS intended FROM workflow_intents WHERE organisation_id = $1 AND workflow_id = $2 AND workflow_type = $3 AND kind <> 'signal'`;

/** Whether a write committed the intent to start this workflow (src/temporal/intents.ts). */
export async function intended(sql: OrgSql, workflowId: string, workflowType: string): Promise<boolean> {
  return (await sql.rows(INTENDED, [workflowId, workflowType])).length > 0;
}
