// The registry types every intent by the contracts (src/workflows/contracts.ts WorkflowInputs,
// SignalArgs), not by the workflow implementations: this holds the implementations to them.
// The assignment below is checked by `npm run check` (tsc): a workflow whose input differs from
// its contract's does not compile. The test checks the names at run time.
import * as workflows from '../../src/workflows';
import { SIGNAL_NAMES, type WorkflowInputs } from '../../src/workflows/contracts';
import { isSignalName, isWorkflowType } from '../../src/temporal/registry';

type Implementations = { [T in keyof WorkflowInputs]: (input: WorkflowInputs[T]) => Promise<unknown> };
const implementations: Implementations = workflows;

test('every workflow of the contracts is one the worker hosts, and the registry knows it by the same name', () => {
  const types = Object.keys(implementations) as Array<keyof WorkflowInputs>;
  const contracted: Record<keyof WorkflowInputs, true> = {
    automationRunWorkflow: true, webhookDeliveryWorkflow: true, communicationSendWorkflow: true, communicationPlanWorkflow: true,
    reportRunWorkflow: true, walletTopupWorkflow: true, accountTerminationWorkflow: true, automationSimulationWorkflow: true,
  };
  for (const type of Object.keys(contracted) as Array<keyof WorkflowInputs>) {
    expect([type, typeof implementations[type], isWorkflowType(type)]).toEqual([type, 'function', true]);
  }
  expect(types).toEqual(expect.arrayContaining(Object.keys(contracted)));
  expect(isWorkflowType('pingWorkflow')).toBe(false);
});

test('the signals go by the names their workflows define them with', () => {
  expect(workflows.approvalDecided.name).toBe(SIGNAL_NAMES.approvalDecided);
  expect(workflows.planChangedSignal.name).toBe(SIGNAL_NAMES.planChanged);
  for (const name of Object.values(SIGNAL_NAMES)) expect(isSignalName(name)).toBe(true);
});
