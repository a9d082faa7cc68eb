// What an activity makes of the ids a workflow input names (docs/security.md "Workflows and
// personal data"). Anyone who reaches the Temporal frontend can start a workflow with any input,
// so an activity loads every record it is given within the organisation the input names and
// refuses, for good, what is not there: a forged start acts only on its own organisation's
// records, by ids it must already know. Messages name ids only (they are kept in the history).
import { ApplicationFailure } from '@temporalio/common';

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
