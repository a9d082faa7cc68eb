/**
 * The service's own periodic work, as Temporal Schedules (docs/money.md "Expiry"): operators see
 * it in the Temporal UI's Schedules page and can pause, trigger or backfill it there; terminating
 * one run ends only that run. Every replica ensures the schedules at start: a create, or, when it
 * exists, an update back to the definition here (the code owns it; an operator's pause and note are
 * kept). A schedule whose action names another task queue belongs to another deployment sharing
 * the namespace and is left alone. Deployments before schedules ran the expiry as a cron workflow
 * with the schedule's id: a leftover run of it is terminated, so the work is never done by both.
 */
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, WorkflowNotFoundError, type Client, type ScheduleOptions } from '@temporalio/client';
import type { Logger } from '../log';
import { LEDGER_EXPIRY_ID, RETENTION_ID } from '../workflows/contracts';
import { ledgerExpiryWorkflow } from '../workflows/ledger-expiry';
import { retentionWorkflow } from '../workflows/retention';

/** What the schedules of this service are; their runs are `<workflowId>-<time>`. */
export function recurringSchedules(taskQueue: string): ScheduleOptions[] {
  return [
    {
      // Daily at 02:00 UTC: expired lots leave the balances. A day missed while Temporal was down is
      // caught up once (SKIP): one run expires everything past valid_to.
      scheduleId: LEDGER_EXPIRY_ID,
      spec: { cronExpressions: ['0 2 * * *'] },
      action: { type: 'startWorkflow', workflowType: ledgerExpiryWorkflow, workflowId: LEDGER_EXPIRY_ID, taskQueue },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    },
    {
      // Daily at 03:00 UTC, an hour after the expiry: finished rows past their periods are deleted
      // (docs/operations.md "Retention"). A run still going when the next is due makes that one skip.
      scheduleId: RETENTION_ID,
      spec: { cronExpressions: ['0 3 * * *'] },
      action: { type: 'startWorkflow', workflowType: retentionWorkflow, workflowId: RETENTION_ID, taskQueue },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    },
  ];
}

export async function ensureRecurringSchedules(client: Client, taskQueue: string, log: Logger): Promise<void> {
  for (const want of recurringSchedules(taskQueue)) {
    try {
      await client.schedule.create(want);
      log.info({ scheduleId: want.scheduleId }, 'schedule created');
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      const handle = client.schedule.getHandle(want.scheduleId);
      const owner = (await handle.describe()).action.taskQueue;
      if (owner !== taskQueue) {
        log.warn({ scheduleId: want.scheduleId, taskQueue: owner }, 'the schedule belongs to the deployment of another task queue: left as it is');
        continue;
      }
      await handle.update((current) => ({ spec: want.spec, action: want.action, policies: want.policies, state: current.state }));
    }
    await endCronRun(client, want.scheduleId, log);
  }
}

/** Terminates the cron workflow an older deployment ran under the schedule's id, if it still runs. */
async function endCronRun(client: Client, workflowId: string, log: Logger): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  try {
    if ((await handle.describe()).status.name !== 'RUNNING') return;
    await handle.terminate('replaced by the schedule of the same id');
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    throw err;
  }
  log.info({ workflowId }, 'terminated the cron workflow the schedule replaces');
}
