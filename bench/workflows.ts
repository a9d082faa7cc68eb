/** Benchmark workflows (bench/temporal.ts). Deterministic: only @temporalio/workflow. */
import { proxyActivities, sleep } from '@temporalio/workflow';

export interface BenchActivities {
  echo(n: number): Promise<number>;
}

const { echo } = proxyActivities<BenchActivities>({ startToCloseTimeout: '30 seconds' });

/** One activity round trip: workflow task, activity task, workflow task. */
export async function oneActivityWorkflow(n: number): Promise<number> {
  return await echo(n);
}

/** One durable timer: workflow task, timer fired by the server, workflow task. */
export async function timerWorkflow(ms: number): Promise<number> {
  await sleep(ms);
  return ms;
}
