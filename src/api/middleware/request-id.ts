import type { RequestHandler } from 'express';
import { newId } from '../../domain/ids';

const SAFE = /^[\w.:\-]{1,128}$/;

/** Echo the caller's X-Request-Id when it is a sane token, otherwise mint one. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.header('x-request-id');
  const id = given && SAFE.test(given) ? given : newId();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
