import { ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';

/**
 * Daily at 03:00 UTC, an hour after the ledger expiry (src/schedules.ts): finished rows past their
 * periods are deleted (docs/operations.md "Retention"). A run still going when the next is due
 * makes that one skip (SKIP); a day missed while Temporal was down is caught up once.
 */
export function retentionSchedule(taskQueue: string): ScheduleOptions {
  return {
    scheduleId: 'retention',
    spec: { cronExpressions: ['0 3 * * *'] },
    action: { type: 'startWorkflow', workflowType: 'retentionWorkflow', workflowId: 'retention', taskQueue },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
  };
}
