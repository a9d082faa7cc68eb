// Telling communication-plan workflows about their plans (docs/communications.md "Plans"):
// after each committed write, and at start-up for every POSTED plan, so a crash between a commit
// and its signal leaves no plan without its workflow.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config } from './config';
import type { Db } from './db/client';
import type { PlanState } from './domain/communications/plans';
import type { Logger } from './log';
import { searchAttributes } from './search-attributes';

export const planWorkflowId = (planId: string) => `communication-plan:${planId}`;

/** Start or wake the workflow of a POSTED plan (signal-with-start); wake any other's, so it ends. */
export async function notifyPlanWorkflow(client: Client, taskQueue: string, organisationId: string, planId: string, state: PlanState | 'DELETED'): Promise<void> {
  const workflowId = planWorkflowId(planId);
  if (state === 'POSTED') {
    await client.workflow.signalWithStart('communicationPlanWorkflow', {
      workflowId, taskQueue, args: [{ organisationId, planId }], signal: 'planChanged', signalArgs: [],
      typedSearchAttributes: searchAttributes({ organisationId, entityType: 'COMMUNICATION_PLANS', entityId: planId }),
    });
    return;
  }
  try {
    await client.workflow.getHandle(workflowId).signal('planChanged');
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err; // none running: nothing to end
  }
}

/** At start-up: every POSTED plan's workflow runs (a running one just re-reads its plan). */
export async function resumePlanWorkflows(client: Client, db: Db, config: Config, log: Logger): Promise<void> {
  const plans = await db.communicationPlan.findMany({ where: { lifeCycleState: 'POSTED' }, select: { id: true, organisationId: true } });
  for (const p of plans) await notifyPlanWorkflow(client, config.TEMPORAL_TASK_QUEUE, p.organisationId, p.id, 'POSTED');
  if (plans.length) log.info({ plans: plans.length }, 'communication plan workflows resumed');
}
