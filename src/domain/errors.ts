/**
 * Typed domain errors. The HTTP layer maps them to status codes and the error body of
 * API-CONVENTIONS.md; domain code never knows about HTTP beyond this status.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly attribute?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (attribute: string | undefined, message: string) =>
  new AppError(400, 'INVALID_REQUEST', message, attribute);

export const notFound = (what: string, attribute?: string) =>
  new AppError(404, 'NOT_FOUND', `${what} not found`, attribute);

export const alreadyExists = (attribute: string, message: string) =>
  new AppError(409, 'ALREADY_EXISTS', message, attribute);

export const conflict = (code: string, message: string, attribute?: string) =>
  new AppError(409, code, message, attribute);

export const forbidden = (message: string) => new AppError(403, 'FORBIDDEN', message);

export const invalidCredential = (message = 'The API key or token is invalid') =>
  new AppError(401, 'INVALID_CREDENTIAL', message);
