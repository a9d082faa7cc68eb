import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import { fromDatabaseError } from '../../domain/db-errors';
import { AppError } from '../../domain/errors';
import type { Logger } from '../../log';

interface HttpParserError {
  type?: string;
  status?: number;
}

/** Maps every error to the one error body of API-CONVENTIONS.md; 500s never leak details. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = String(res.locals.requestId ?? '');
    const mapped = toAppError(err);
    if (mapped.status >= 500) {
      log.error({ err, requestId, method: req.method, url: req.originalUrl }, 'request failed');
    }
    // Every 503 is worth a retry: say when (1 s unless the error knows better).
    const retryAfter = 'retryAfter' in mapped ? mapped.retryAfter : mapped.status === 503 ? 1 : undefined;
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(mapped.status).json(errorBody(mapped, requestId));
  };
}

/** The one error body; an `Idempotency-Key` record stores it as sent, so a replay answers it exactly. */
export function errorBody(mapped: AppError, requestId: string) {
  return { code: mapped.code, message: mapped.message, ...(mapped.attribute ? { attribute: mapped.attribute } : {}), request_id: requestId };
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return fromZod(err);
  const parser = err as HttpParserError;
  if (parser?.type === 'entity.parse.failed') return new AppError('INVALID_REQUEST', 'Malformed JSON body');
  if (parser?.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MiB');
  if (parser?.type === 'encoding.unsupported' || parser?.type === 'charset.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  }
  if (parser?.status === 400) return new AppError('INVALID_REQUEST', 'Malformed request');
  const fromDatabase = fromDatabaseError(err);
  if (fromDatabase) return fromDatabase;
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred');
}

/** The first issue names the offending field, e.g. `addresses.0.country_code`. */
export function fromZod(err: z.ZodError): AppError {
  const issue = err.issues[0];
  const pathParts = issue.path.map(String);
  const attribute = pathParts.join('.') || undefined;
  let message = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) message = 'is required';
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    return new AppError('INVALID_REQUEST', `Unknown field ${[...pathParts, key].join('.')}`, [...pathParts, key].join('.'));
  }
  return new AppError('INVALID_REQUEST', attribute ? `${attribute}: ${message}` : message, attribute);
}
