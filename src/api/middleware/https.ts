import type { RequestHandler } from 'express';
import type { TrustProxy } from '../../config';
import { AppError } from '../../domain/errors';

/**
 * Behind a TLS-terminating proxy the connection itself may be plain, so the proxy's word
 * (X-Forwarded-Proto) decides, but only a trusted proxy's (TRUST_PROXY): Express's
 * `req.secure` is the socket's TLS, or that header when the peer is one TRUST_PROXY names. A
 * peer outside the list that sends `X-Forwarded-Proto: https` over plain HTTP is refused.
 * Without TRUST_PROXY, plain HTTP never gets this far: the listener answers it before any
 * handler (src/api/server.ts).
 */
export function requireForwardedHttps(trustProxy: TrustProxy): RequestHandler {
  return (req, _res, next) => {
    if (trustProxy === false || req.secure) return next();
    next(new AppError('HTTPS_REQUIRED', 'HTTPS is required'));
  };
}
