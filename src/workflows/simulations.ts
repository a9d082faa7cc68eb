// The replay of an automation over a window of history (workflow id `automation-simulation:<id>`;
// docs/automations.md "Simulations"), started once its RUNNING row committed. The replay is one
// long activity that pages through the window, heartbeating, and checkpoints each page in the row:
// a worker that dies mid-way loses at most the page it was judging, and the retry resumes there.
import { ActivityFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import { HEARTBEAT_TIMEOUT } from './heartbeat';
import type { Activities } from '../activities';
import type { SimulationOutcome, SimulationRef } from './contracts';

const replay = proxyActivities<Activities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

const settle = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Count, replay, complete; a refusal or the last failed attempt marks the row FAILED with the
 * reason. An operator's cancel ends the workflow cancelled, and its settlement the row CANCELLED.
 */
export async function automationSimulationWorkflow(input: SimulationRef): Promise<SimulationOutcome> {
  try {
    return await replay.replaySimulation(input);
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    await settle.failSimulation(input, err.cause?.message ?? err.message);
    return 'FAILED';
  }
}
