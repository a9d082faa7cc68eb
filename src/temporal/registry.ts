// The workflows and signals a committed write may ask for, by the names the outbox stores
// (workflow_intents.workflow_type, .signal_name). Starts and signals go through these
// definitions, never a bare string: a name the registry does not know is refused when the intent
// is written (the types) and when it is performed (the dispatcher).
import type { SignalDefinition } from '@temporalio/common';
import { automationRunWorkflow, approvalDecided } from '../workflows/automations';
import { communicationPlanWorkflow, communicationSendWorkflow, planChangedSignal } from '../workflows/communications';
import { reportRunWorkflow } from '../workflows/reports';
import { accountTerminationWorkflow } from '../workflows/termination';
import { walletTopupWorkflow } from '../workflows/topup';
import { webhookDeliveryWorkflow } from '../workflows/webhooks';

export const WORKFLOWS = {
  automationRunWorkflow,
  webhookDeliveryWorkflow,
  communicationSendWorkflow,
  communicationPlanWorkflow,
  reportRunWorkflow,
  walletTopupWorkflow,
  accountTerminationWorkflow,
} as const;

export const SIGNALS = {
  approvalDecided,
  planChanged: planChangedSignal,
} as const;

export type WorkflowType = keyof typeof WORKFLOWS;

/**
 * A start intent is performed once per workflow id: a run of the id, running or closed, makes it
 * done. Except these, which a later write may ask for again after a run that failed: a refused
 * termination (a wallet made meanwhile in another currency) is asked for again once fixed.
 */
export const STARTS_AGAIN_AFTER_FAILURE: ReadonlySet<WorkflowType> = new Set(['accountTerminationWorkflow']);
export type SignalName = keyof typeof SIGNALS;

/** The one argument a workflow of this type is started with. */
export type InputOf<T extends WorkflowType> = Parameters<(typeof WORKFLOWS)[T]>[0];
/** The arguments a signal of this name carries. */
export type SignalArgsOf<S extends SignalName> = (typeof SIGNALS)[S] extends SignalDefinition<infer A> ? A : never;

export const isWorkflowType = (name: string): name is WorkflowType => Object.hasOwn(WORKFLOWS, name);
export const isSignalName = (name: string): name is SignalName => Object.hasOwn(SIGNALS, name);
