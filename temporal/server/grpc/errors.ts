/** Errors that map onto a gRPC status; anything else thrown by a handler becomes INTERNAL. */
import { status } from '@grpc/grpc-js';

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
