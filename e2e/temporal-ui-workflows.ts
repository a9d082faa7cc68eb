/** Workflows for e2e/temporal-ui.e2e.ts: one of each state an operator meets in the UI. */
import { ApplicationFailure, executeChild, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';

const { greet } = proxyActivities<{ greet(name: string): Promise<string> }>({ startToCloseTimeout: '10 seconds' });

export async function greetWorkflow(name: string): Promise<string> {
  return await greet(name);
}

export async function failingWorkflow(reason: string): Promise<void> {
  throw ApplicationFailure.nonRetryable(reason, 'E2E_REFUSED');
}

/** Runs until terminated: a timer far in the future. */
export async function waitingWorkflow(): Promise<void> {
  await sleep('1 day');
}

export async function parentWorkflow(name: string): Promise<string> {
  return await executeChild(greetWorkflow, { args: [name], workflowId: `${workflowInfo().workflowId}-child` });
}
