/** Errors that map onto a gRPC status; anything else thrown by a handler becomes INTERNAL. */
import { status } from '@grpc/grpc-js';
import { api } from '../proto';
import { EngineError, type AlreadyStarted, type EngineErrorKind } from '../engine/errors';
import type { Logger } from '../engine/engine';

export class ServiceError extends Error {
  constructor(
    readonly code: status,
    message: string,
    /** Optional google.rpc.Status details: [type name, encoded message]. */
    readonly detail?: { typeName: string; value: Uint8Array },
  ) {
    super(message);
  }
}

export const invalid = (msg: string): ServiceError => new ServiceError(status.INVALID_ARGUMENT, msg);
export const notFound = (msg: string): ServiceError => new ServiceError(status.NOT_FOUND, msg);
export const alreadyExists = (msg: string, detail?: ServiceError['detail']): ServiceError =>
  new ServiceError(status.ALREADY_EXISTS, msg, detail);
export const failedPrecondition = (msg: string): ServiceError => new ServiceError(status.FAILED_PRECONDITION, msg);

const CODES: Record<EngineErrorKind, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  already_exists: status.ALREADY_EXISTS,
  deadline_exceeded: status.DEADLINE_EXCEEDED,
};

/** The one place engine errors become gRPC errors. */
export function fromEngineError(e: EngineError): ServiceError {
  return new ServiceError(CODES[e.kind], e.message, e.alreadyStarted && alreadyStartedDetail(e.alreadyStarted));
}

/** Whatever a handler threw, as the status both transports answer: unknown failures are INTERNAL. */
export function toServiceError(e: unknown, method: string, log: Logger): ServiceError {
  if (e instanceof EngineError) return fromEngineError(e);
  if (e instanceof ServiceError) return e;
  log('error', 'handler failed', { method, error: String((e as Error)?.stack ?? e) });
  return new ServiceError(status.INTERNAL, `internal error: ${(e as Error)?.message ?? String(e)}`);
}

function alreadyStartedDetail(s: AlreadyStarted): ServiceError['detail'] {
  return {
    typeName: 'temporal.api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure',
    value: api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure.encode(s).finish(),
  };
}
