// Webhook delivery activities (docs/webhooks.md "Delivery"). An HTTP failure is an outcome,
// not an error: only the database failing throws, and Temporal retries that.
import { ApplicationFailure } from '@temporalio/common';
import { WEBHOOK_MAX_ATTEMPTS, type Config } from '../config';
import type { Pool } from 'pg';
import { pgSql } from '../db/sql';
import { attemptDelivery, type AttemptInput, type RequestState } from '../domain/webhooks/delivery';
import { checkIds } from './ownership';

export type { AttemptInput, RequestState };

export function webhookActivities(deps: { pool: Pool; config: Config }) {
  return {
    /** One signed attempt, logged; answers the request's state after it. */
    async attemptWebhookDelivery(input: AttemptInput): Promise<RequestState> {
      checkIds({ organisationId: input.organisationId, requestId: input.requestId });
      // The schedule comes from the workflow's input: a forged one gets no more attempts than a configured one.
      if (!Number.isInteger(input.attempt) || input.attempt < 1 || input.attempt > WEBHOOK_MAX_ATTEMPTS) {
        throw ApplicationFailure.nonRetryable(`attempt ${input.attempt} is outside 1..${WEBHOOK_MAX_ATTEMPTS}`, 'INVALID_ATTEMPT');
      }
      return await attemptDelivery(pgSql(deps.pool, input.organisationId), { timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, config: deps.config }, input);
    },
    /** The configured WEBHOOK_RETRY_SCHEDULE, for a delivery started without one. */
    async webhookRetrySchedule(): Promise<number[]> {
      return deps.config.WEBHOOK_RETRY_SCHEDULE;
    },
  };
}
