import { ERROR_CODES, type ErrorCode } from './error-codes';

/**
 * Typed domain errors. The HTTP layer maps them to status codes and the error body of
 * API-CONVENTIONS.md; domain code never knows about HTTP beyond this status.
 */
export class AppError extends Error {
  /** From the code's registration (src/domain/error-codes.ts): one code, one status. */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly attribute?: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

export const invalid = (attribute: string | undefined, message: string) =>
  new AppError('INVALID_REQUEST', message, attribute);

/**
 * No such record in the organisation. The path's own record is 404; a record a body or query
 * field names (`attribute`) is a field that breaks a rule, 400 naming it, as any other (issue 34).
 */
export const notFound = (what: string, attribute?: string) =>
  attribute === undefined ? new AppError('NOT_FOUND', `${what} not found`) : new AppError('INVALID_REQUEST', `${attribute}: ${what} not found`, attribute);

/**
 * An operation run on a part of the body (a PURCHASE event's `purchase`): its refusals name their
 * fields from the body's top, `purchase.contact_id`.
 */
export async function inField<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError) || err.attribute === undefined) throw err;
    const message = err.message.startsWith(`${err.attribute}:`) ? `${field}.${err.message}` : err.message;
    throw new AppError(err.code, message, `${field}.${err.attribute}`);
  }
}

/** The row a lookup found, or notFound(what, attribute): 404, or 400 naming the body field that named it. */
export function found<T>(row: T | null | undefined, what: string, attribute?: string): T {
  if (row === null || row === undefined) throw notFound(what, attribute);
  return row;
}

export const alreadyExists = (attribute: string, message: string) =>
  new AppError('ALREADY_EXISTS', message, attribute);

export const conflict = (code: ErrorCode, message: string, attribute?: string) =>
  new AppError(code, message, attribute);

export const forbidden = (message: string, attribute?: string) => new AppError('FORBIDDEN', message, attribute);

export const invalidCredential = (message = 'The API key or token is invalid') =>
  new AppError('INVALID_CREDENTIAL', message);
