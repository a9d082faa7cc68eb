// The report run (workflow id `report-run:<run id>`; docs/reports.md "Run"), started once its
// PENDING row committed. Deterministic code only: @temporalio/workflow and types.
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { ReportRunOutcome, ReportRunRef } from './contracts';

/** Attempts of the run's activity; a refusal is not retried at all. */
const REPORT_RUN_ATTEMPTS = 5;

const run = proxyActivities<Activities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: REPORT_RUN_ATTEMPTS },
});

const settle = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One activity writes the file, mails it and marks the run SENT. When it is refused or its
 * last attempt fails, the run is marked FAILED with the reason.
 */
export async function reportRunWorkflow(input: ReportRunRef): Promise<ReportRunOutcome> {
  try {
    return await run.runReport(input);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await settle.failReportRun({ ...input, error: err.cause?.message ?? err.message });
    return 'FAILED';
  }
}
