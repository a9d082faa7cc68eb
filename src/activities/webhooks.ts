// Webhook delivery activities (docs/webhooks.md "Delivery"). An HTTP failure is an outcome,
// not an error: only the database failing throws, and Temporal retries that.
import type { Config } from '../config';
import type { Db } from '../db/client';
import { scopedClient } from '../db/tenancy';
import { attemptDelivery, type AttemptInput, type RequestState } from '../domain/webhooks/delivery';

export interface WebhookDeliveryInput {
  organisationId: string;
  requestId: string;
  /** Delay before each attempt, in ms (WEBHOOK_RETRY_SCHEDULE, read when the delivery started). */
  scheduleMs: number[];
}

export type { AttemptInput, RequestState };

export function webhookActivities(deps: { db: Db; config: Config }) {
  return {
    /** One signed attempt, logged; answers the request's state after it. */
    async attemptWebhookDelivery(input: AttemptInput): Promise<RequestState> {
      return await attemptDelivery(scopedClient(deps.db, input.organisationId), { timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS }, input);
    },
  };
}
