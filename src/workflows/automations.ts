// The automation run (docs/automations.md "Runs"): one workflow per automation and event
// (id automation-run:<automation id>:<event id>, started by src/temporal/dispatcher.ts). It takes
// the sequence as it was at the start, runs the actions in order, waits durably for approvals,
// and stops at a rejection or a failed action.
import { condition, defineSignal, patched, proxyActivities, proxyLocalActivities, setHandler, type RetryPolicy } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { RunPlan, RunProgress } from '../activities/automations';
import { SIGNAL_NAMES, type ApprovalDecision, type AutomationRunInput, type AutomationRunResult, type SignalArgs } from './contracts';

/** Asked for by POST /adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/{id} with the decision it commits (a signal intent). */
export const approvalDecided = defineSignal<SignalArgs['approvalDecided']>(SIGNAL_NAMES.approvalDecided);

const retry: RetryPolicy = { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 };

// A local activity (issue 32): run by the worker inside the workflow task that asks for it, so the
// usual run is one workflow task in all (no activity task, no second workflow task), and its
// history a marker with the step results. A worker that dies mid-step loses its workflow task;
// the next one runs the step again, which finds its records (docs/automations.md "Runs").
const local = proxyLocalActivities<Activities>({ startToCloseTimeout: '5 minutes', retry });
const { runAutomation: runAsActivity, settleApproval } = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry });

/**
 * Runs begun as activities (before the patch, 2026-12-02) replay, and go on, as they began. It
 * stays while such a run can still be open: an approval waits at most a year (timeout_seconds),
 * so deprecatePatch after 2027-12-02 (docs/DEVELOPING.md "Shims").
 */
const runAutomation: Activities['runAutomation'] = (...args) => (patched('run-step-local') ? local.runAutomation : runAsActivity)(...args);

export async function automationRunWorkflow(input: AutomationRunInput): Promise<AutomationRunResult> {
  const decisions = new Map<string, ApprovalDecision['status']>();
  setHandler(approvalDecided, (d) => void decisions.set(d.recordId, d.status));

  const steps: AutomationRunResult['steps'] = [];
  let plan: RunPlan | null = null;
  let from = 0;
  for (;;) {
    const progress: RunProgress = await runAutomation(input, plan, from);
    if (!progress.plan) return { status: 'GONE', steps };
    plan = progress.plan;
    steps.push(...progress.steps);
    if (progress.stopped) return { status: 'STOPPED', steps };
    if (!progress.approval) return { status: 'COMPLETED', steps };
    const { at, recordId } = progress.approval;
    let status = progress.approval.status;
    if (status === 'PENDING') {
      const seconds = Number(plan.steps[at].parameters.timeout_seconds);
      const decided = await condition(() => decisions.has(recordId), seconds * 1000);
      status = await settleApproval(input.organisationId, recordId, !decided);
    }
    steps.push({ actionId: plan.steps[at].actionId, adaptorAction: 'REQUEST_APPROVAL', recordId, status });
    if (status !== 'APPROVED') return { status: 'STOPPED', steps };
    from = at + 1;
  }
}
