import express, { type RequestHandler } from 'express';
import { AppError } from '../../domain/errors';
import { refuseUnboundedJson } from './nesting';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Body-carrying requests must be JSON; an empty body needs no content type. */
export const requireJson: RequestHandler = (req, _res, next) => {
  if (!hasBody(req)) return next();
  if (!req.is('application/json')) {
    return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be JSON (Content-Type: application/json)'));
  }
  next();
};

function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

export const parseJson = express.json({ limit: BODY_LIMIT_BYTES, strict: false, type: 'application/json', verify: refuseUnboundedJson });
