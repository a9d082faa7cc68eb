// Starting the delivery of webhook requests (docs/webhooks.md "Delivery"): one workflow per
// request, id `webhook-request:<request id>`, started after the request's row committed. A
// repeated start is a no-op, so every caller may simply start it again.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { WebhookDeliveryInput } from './activities/webhooks';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Logger } from './log';
import { searchAttributes } from './search-attributes';

export const webhookRequestWorkflowId = (requestId: string) => `webhook-request:${requestId}`;

/** What a delivery is found by besides its organisation (a run's automation and entity). */
export interface DeliveryRefs {
  automationId?: string | null;
  entityType?: string | null;
  entityId?: string | null;
}

export async function startWebhookDelivery(client: Client, config: Config, organisationId: string, requestId: string, refs: DeliveryRefs = {}): Promise<void> {
  const input: WebhookDeliveryInput = { organisationId, requestId, scheduleMs: config.WEBHOOK_RETRY_SCHEDULE };
  try {
    await client.workflow.start('webhookDeliveryWorkflow', {
      workflowId: webhookRequestWorkflowId(requestId),
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args: [input],
      typedSearchAttributes: searchAttributes({ organisationId, ...refs }),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * At start-up: every PENDING request's delivery is started (a no-op for one already started),
 * so a crash between a request's commit and its start loses no request.
 */
export async function resumeWebhookDeliveries(client: Client, db: Db, config: Config, log: Logger): Promise<void> {
  const rows = await db.webhookRequest.findMany({
    where: { state: 'PENDING' }, select: { id: true, organisationId: true, automationId: true, entityType: true, entityId: true },
  });
  for (const { id, organisationId, ...refs } of rows) await startWebhookDelivery(client, config, organisationId, id, refs);
  if (rows.length) log.info({ requests: rows.length }, 'webhook deliveries resumed');
}
