import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { ping } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/** Health/smoke workflow: one activity round trip through a worker. */
export async function pingWorkflow(name: string): Promise<string> {
  return await ping(name);
}
