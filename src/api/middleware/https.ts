import type { RequestHandler } from 'express';
import { AppError } from '../../domain/errors';

/**
 * Behind a TLS-terminating proxy the connection itself may be plain, so the proxy's word
 * (X-Forwarded-Proto) decides. Without TRUST_PROXY, plain HTTP never gets this far: the
 * listener answers it before any handler (src/api/server.ts).
 */
export function requireForwardedHttps(trustProxy: boolean): RequestHandler {
  return (req, _res, next) => {
    if (!trustProxy) return next();
    const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
    if (proto !== 'https') return next(new AppError('HTTPS_REQUIRED', 'HTTPS is required'));
    next();
  };
}
