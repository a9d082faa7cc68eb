// Noticing workflows closed from outside (docs/temporal-ui.md "Terminate and cancel"): every
// WORKFLOW_RECONCILE_MS one visibility query lists the service's workflows terminated, cancelled
// or timed out since the last pass, and each whose latest run that still is gets its record
// settled (src/temporal/settlements.ts). The first pass after a start looks at every such close
// the namespace still keeps, so closes made while the service was down are settled too. Every
// replica may run it: settlements are conditional and restarts refuse a duplicate.
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { settleClosedWorkflow, SETTLED_WORKFLOW_TYPES, type SettleDeps } from './settlements';

/** A close reaches visibility a little after it happens (seconds on an Elasticsearch-backed cluster). */
const OVERLAP_MS = 5 * 60_000;

const CLOSED_FROM_OUTSIDE = `WorkflowType IN (${SETTLED_WORKFLOW_TYPES.map((t) => `'${t}'`).join(', ')}) AND ExecutionStatus IN ('Terminated', 'Canceled', 'TimedOut')`;

export class WorkflowReconciler {
  private since: Date | undefined;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private closed = false;

  constructor(private readonly deps: SettleDeps) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (!this.running && !this.closed) this.running = this.pass().finally(() => (this.running = null));
    }, intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a failure is logged and the next pass looks at the same closes again. Answers how many it settled. */
  async pass(): Promise<number> {
    const from = new Date(Date.now() - OVERLAP_MS);
    // Its own task queue only: another deployment sharing the namespace settles its own records.
    let query = `${CLOSED_FROM_OUTSIDE} AND TaskQueue = '${this.deps.config.TEMPORAL_TASK_QUEUE.replace(/'/g, "''")}'`;
    if (this.since) query += ` AND CloseTime > '${this.since.toISOString()}'`;
    let settled = 0;
    let failed = false;
    try {
      for await (const run of this.deps.client.workflow.list({ query })) {
        if (this.closed) return settled;
        try {
          if (await this.settle(run)) settled++;
        } catch (err) {
          failed = true;
          this.deps.log.warn({ err, workflowId: run.workflowId }, 'settling a workflow closed from outside failed; the next pass retries');
        }
      }
      if (!failed) this.since = from;
    } catch (err) {
      this.deps.log.warn({ err }, 'listing workflows closed from outside failed; the next pass retries');
    }
    return settled;
  }

  private async settle(run: WorkflowExecutionInfo): Promise<boolean> {
    // A later run of the same id (a retry, a restart, a plan posted again) carries the record on.
    const latest = await this.deps.client.workflow.getHandle(run.workflowId).describe();
    return latest.runId === run.runId && settleClosedWorkflow(this.deps, latest);
  }
}
