// The intents several writers record alike (src/temporal/intents.ts): a webhook request's
// delivery (docs/webhooks.md "Delivery": the test route and an automation's action) and a plan's
// news (docs/communications.md "Plans": every plan write). On the write's own transaction.
import type { Config } from '../config';
import type { OrgSql } from '../db/sql';
import type { PlanState } from '../domain/communications/plans';
import { planWorkflowId, webhookRequestWorkflowId } from '../workflows/contracts';
import { recordIntent, type Intent } from './intents';

/** What a delivery is found by besides its organisation (a run's automation and entity). */
export interface DeliveryRefs {
  automationId?: string | null;
  entityType?: string | null;
  entityId?: string | null;
}

/** One delivery workflow per request (id `webhook-request:<request id>`): a repeat is a no-op. */
export async function recordWebhookDelivery(sql: OrgSql, config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE'>, organisationId: string, requestId: string, refs: DeliveryRefs = {}): Promise<void> {
  await recordIntent(sql, webhookDelivery(config, organisationId, requestId, refs));
}

export function webhookDelivery(config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE'>, organisationId: string, requestId: string, refs: DeliveryRefs): Intent {
  return {
    kind: 'start', workflow: 'webhookDeliveryWorkflow', workflowId: webhookRequestWorkflowId(requestId),
    input: { organisationId, requestId, scheduleMs: config.WEBHOOK_RETRY_SCHEDULE }, search: refs,
  };
}

/** A POSTED plan's workflow is started or woken (signal-with-start); any other's is woken, so it ends. */
export async function recordPlanChange(sql: OrgSql, organisationId: string, planId: string, state: PlanState | 'DELETED'): Promise<void> {
  const workflowId = planWorkflowId(planId);
  if (state === 'POSTED') {
    await recordIntent(sql, {
      kind: 'signalWithStart', workflow: 'communicationPlanWorkflow', workflowId, input: { organisationId, planId },
      signal: 'planChanged', signalArgs: [], search: { entityType: 'COMMUNICATION_PLANS', entityId: planId },
    });
    return;
  }
  await recordIntent(sql, { kind: 'signal', workflowId, signal: 'planChanged', signalArgs: [] });
}
