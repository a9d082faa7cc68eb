// Starting the delivery of webhook requests (docs/webhooks.md "Delivery"): one workflow per
// request, id `webhook-request:<request id>`, started after the request's row committed. A
// repeated start is a no-op, so every caller may simply start it again.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
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

/** Answers whether it started a run: false when one of that id exists, running or closed. */
export async function startWebhookDelivery(client: Client, config: Config, organisationId: string, requestId: string, refs: DeliveryRefs = {}): Promise<boolean> {
  const input: WebhookDeliveryInput = { organisationId, requestId, scheduleMs: config.WEBHOOK_RETRY_SCHEDULE };
  try {
    await client.workflow.start('webhookDeliveryWorkflow', {
      workflowId: webhookRequestWorkflowId(requestId),
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args: [input],
      typedSearchAttributes: searchAttributes({ organisationId, ...refs }),
    });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}

/**
 * At start-up: every PENDING request's delivery is started, so a crash between a request's commit
 * and its start loses no request. A refused start is not "running": REJECT_DUPLICATE refuses a
 * closed run of the id as well, so the run is looked at, and one closed from outside (an
 * operator's terminate) gets its request settled by `settleClosed` (src/workflow-settlements.ts).
 */
export async function resumeWebhookDeliveries(
  client: Client, db: Db, config: Config, log: Logger, settleClosed: (run: WorkflowExecutionDescription) => Promise<boolean>,
): Promise<void> {
  const rows = await db.webhookRequest.findMany({
    where: { state: 'PENDING' }, select: { id: true, organisationId: true, automationId: true, entityType: true, entityId: true },
  });
  const counts = { started: 0, running: 0, settled: 0, unsettled: 0 };
  for (const { id, organisationId, ...refs } of rows) {
    if (await startWebhookDelivery(client, config, organisationId, id, refs)) {
      counts.started++;
      continue;
    }
    const run = await client.workflow.getHandle(webhookRequestWorkflowId(id)).describe();
    if (run.status.name === 'RUNNING') counts.running++;
    else if (await settleClosed(run)) counts.settled++;
    else counts.unsettled++;
  }
  if (counts.unsettled) log.warn(counts, 'PENDING webhook requests whose delivery ended without settling them');
  else if (rows.length) log.info(counts, 'webhook deliveries resumed');
}
