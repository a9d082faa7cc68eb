// The engine peer's one workflow (bench/engine-peer.ts): one activity per (automation, event),
// as the service's automationRunWorkflow does for a one-action automation. Bundled by the
// peer's in-process worker (Worker.create({ workflowsPath })).
import { proxyActivities } from '@temporalio/workflow';
import type { PeerActivities, PeerRunInput } from './engine-peer-run';

const { peerRun } = proxyActivities<PeerActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
});

export async function peerRunWorkflow(input: PeerRunInput): Promise<string> {
  return peerRun(input);
}
