// Delivering one webhook request (workflow id `webhook-request:<request id>`, started by
// the outbox dispatcher once the request's row committed): for each delay of the schedule,
// sleep, then one attempt; a 2xx ends it SUCCESS, the last failure FAILED (docs/webhooks.md).
import { proxyActivities, sleep } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { WebhookDeliveryInput, WebhookRequestState } from './contracts';

/** An attempt waits at most WEBHOOK_TIMEOUT_MS (≤ 60 s) for the answer; only database errors are retried. */
const webhooks = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookRequestState> {
  const ref = { organisationId: input.organisationId, requestId: input.requestId };
  // An attempt on a request that is no longer PENDING (a repeated start) sends nothing.
  const schedule = input.scheduleMs ?? (await webhooks.webhookRetrySchedule());
  for (let i = 0; i < schedule.length; i++) {
    if (schedule[i] > 0) await sleep(schedule[i]);
    const state = await webhooks.attemptWebhookDelivery({ ...ref, attempt: i + 1, last: i === schedule.length - 1 });
    if (state !== 'PENDING') return state;
  }
  return 'FAILED';
}
