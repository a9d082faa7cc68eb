// The automation run (docs/automations.md "Runs"): one workflow per automation and event
// (id automation-run:<automation id>:<event id>, started by src/outbox-dispatcher.ts). It takes
// the sequence as it was at the start, runs the actions in order, waits durably for approvals,
// and stops at a rejection or a failed action.
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AutomationRunInput, StepResult } from '../activities/automations';

export interface ApprovalDecision {
  recordId: string;
  status: 'APPROVED' | 'REJECTED';
}

/** Sent by POST /adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/{id} after it commits the decision. */
export const approvalDecided = defineSignal<[ApprovalDecision]>('approvalDecided');

export interface AutomationRunResult {
  /** COMPLETED: every action ran or was skipped; STOPPED: a rejection or a failure ended it; GONE: the automation was deleted. */
  status: 'COMPLETED' | 'STOPPED' | 'GONE';
  steps: Array<{ actionId: string; adaptorAction: string } & StepResult>;
}

const { prepareAutomationRun, runAutomationStep, openApproval, settleApproval } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
});

export async function automationRunWorkflow(input: AutomationRunInput): Promise<AutomationRunResult> {
  const decisions = new Map<string, ApprovalDecision['status']>();
  setHandler(approvalDecided, (d) => void decisions.set(d.recordId, d.status));

  const plan = await prepareAutomationRun(input);
  if (!plan) return { status: 'GONE', steps: [] };
  const steps: AutomationRunResult['steps'] = [];
  for (const step of plan.steps) {
    let result: StepResult;
    if (step.matched && step.adaptorAction === 'REQUEST_APPROVAL') {
      const opened = await openApproval(input, plan, step);
      let status = opened.status;
      if (status === 'PENDING') {
        const seconds = Number(step.parameters.timeout_seconds ?? 7 * 24 * 3600);
        const decided = await condition(() => decisions.has(opened.recordId), seconds * 1000);
        status = await settleApproval(input.organisationId, opened.recordId, !decided);
      }
      result = { recordId: opened.recordId, status };
    } else {
      result = await runAutomationStep(input, plan, step);
    }
    steps.push({ actionId: step.actionId, adaptorAction: step.adaptorAction, ...result });
    if (result.status === 'FAILED' || result.status === 'REJECTED') return { status: 'STOPPED', steps };
  }
  return { status: 'COMPLETED', steps };
}
