/**
 * Errors the engine (and the namespace registry) report to callers. They say what went wrong,
 * not how to transport it: grpc/errors.ts turns each kind into a gRPC status, and each detail
 * into the error detail a Temporal server attaches (the SDK picks its error class by it).
 */
export type EngineErrorKind = 'invalid_argument' | 'not_found' | 'already_exists' | 'deadline_exceeded' | 'failed_precondition';

/** What the SDK needs to raise WorkflowExecutionAlreadyStartedError. */
export interface AlreadyStarted {
  startRequestId: string;
  runId: string;
}

export type ErrorDetail =
  | { alreadyStarted: AlreadyStarted }
  /** NamespaceNotFoundFailure: the SDK raises NamespaceNotFoundError, not WorkflowNotFoundError. */
  | { namespaceNotFound: string }
  /** WorkflowNotReadyFailure: e.g. a query before the first workflow task. */
  | { workflowNotReady: true };

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    readonly detail?: ErrorDetail,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export const invalidArgument = (msg: string): EngineError => new EngineError('invalid_argument', msg);
export const notFound = (msg: string): EngineError => new EngineError('not_found', msg);
export const alreadyExists = (msg: string, started?: AlreadyStarted): EngineError =>
  new EngineError('already_exists', msg, started && { alreadyStarted: started });
export const namespaceNotFound = (name: string): EngineError =>
  new EngineError('not_found', `Namespace ${name || '(empty)'} is not found.`, { namespaceNotFound: name });
export const workflowNotReady = (msg: string): EngineError => new EngineError('failed_precondition', msg, { workflowNotReady: true });
