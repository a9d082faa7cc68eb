/**
 * Errors the engine (and the namespace registry) report to callers. They say what went wrong,
 * not how to transport it: grpc/errors.ts turns each kind into a gRPC status.
 */
export type EngineErrorKind = 'invalid_argument' | 'not_found' | 'already_exists' | 'deadline_exceeded';

/** What the SDK needs to raise WorkflowExecutionAlreadyStartedError. */
export interface AlreadyStarted {
  startRequestId: string;
  runId: string;
}

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    readonly alreadyStarted?: AlreadyStarted,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export const invalidArgument = (msg: string): EngineError => new EngineError('invalid_argument', msg);
export const notFound = (msg: string): EngineError => new EngineError('not_found', msg);
export const alreadyExists = (msg: string, started?: AlreadyStarted): EngineError => new EngineError('already_exists', msg, started);
