/** Errors that map onto a gRPC status; anything else thrown by a handler becomes INTERNAL. */
import { status } from '@grpc/grpc-js';
import { api } from '../proto';
import { EngineError, type ErrorDetail, type EngineErrorKind } from '../engine/errors';
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
  failed_precondition: status.FAILED_PRECONDITION,
};

/** The one place engine errors become gRPC errors. */
export function fromEngineError(e: EngineError): ServiceError {
  return new ServiceError(CODES[e.kind], e.message, e.detail && detailOf(e.detail));
}

/** Whatever a handler threw, as the status both transports answer: unknown failures are INTERNAL. */
export function toServiceError(e: unknown, method: string, log: Logger): ServiceError {
  if (e instanceof EngineError) return fromEngineError(e);
  if (e instanceof ServiceError) return e;
  log('error', 'handler failed', { method, error: String((e as Error)?.stack ?? e) });
  return new ServiceError(status.INTERNAL, `internal error: ${(e as Error)?.message ?? String(e)}`);
}

/** The errordetails.v1 message a Temporal server attaches for each kind of detail. */
function detailOf(d: ErrorDetail): ServiceError['detail'] {
  const details = api.errordetails.v1;
  if ('alreadyStarted' in d) {
    return { typeName: 'temporal.api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure', value: details.WorkflowExecutionAlreadyStartedFailure.encode(d.alreadyStarted).finish() };
  }
  if ('namespaceNotFound' in d) {
    return { typeName: 'temporal.api.errordetails.v1.NamespaceNotFoundFailure', value: details.NamespaceNotFoundFailure.encode({ namespace: d.namespaceNotFound }).finish() };
  }
  return { typeName: 'temporal.api.errordetails.v1.WorkflowNotReadyFailure', value: details.WorkflowNotReadyFailure.encode({}).finish() };
}
