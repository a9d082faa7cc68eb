// The workflows and signals a committed write may ask for, by the names the outbox stores
// (workflow_intents.workflow_type, .signal_name), typed by the contracts (src/workflows/contracts.ts
// WorkflowInputs, SignalArgs), not by the workflow implementations: this layer loads no workflow
// code, so nothing it is imported by reaches back into the workflows and their activities. A name
// the registry does not know is refused when the intent is written (the types) and when it is
// performed (the dispatcher).
import { ID_PREFIX, SIGNAL_NAMES, type SignalArgs, type WorkflowInputs } from '../workflows/contracts';

export type WorkflowType = keyof WorkflowInputs;
export type SignalName = keyof SignalArgs;


/**
 * A start intent is performed once per workflow id: a run of the id, running or closed, makes it
 * done. Except these, which a later write may ask for again after a run that failed: a refused
 * termination (a wallet made meanwhile in another currency) is asked for again once fixed.
 */
export const STARTS_AGAIN_AFTER_FAILURE: ReadonlySet<WorkflowType> = new Set(['accountTerminationWorkflow']);

/** The one argument a workflow of this type is started with. */
export type InputOf<T extends WorkflowType> = WorkflowInputs[T];
/** The arguments a signal of this name carries. */
export type SignalArgsOf<S extends SignalName> = SignalArgs[S];

// ID_PREFIX has exactly the keys of WorkflowInputs (its `satisfies`), SIGNAL_NAMES those of SignalArgs.
export const isWorkflowType = (name: string): name is WorkflowType => Object.hasOwn(ID_PREFIX, name);
export const isSignalName = (name: string): name is SignalName => Object.hasOwn(SIGNAL_NAMES, name);
