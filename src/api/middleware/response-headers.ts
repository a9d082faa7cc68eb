import type { RequestHandler } from 'express';

/** A year: browsers that once reached the service over HTTPS never try plain HTTP again. */
export const HSTS = 'max-age=31536000';

/**
 * Headers of every response (docs/security.md "Response headers"):
 * - `Cache-Control: no-store`: every operation answers personal data or a secret (tokens, API
 *   keys, webhook secrets), errors echo what was sent, and no answer is worth a shared cache's
 *   risk. Public, static things opt out where they are served (the reference page's assets).
 * - `Strict-Transport-Security` when the client's connection is HTTPS: the service's own TLS,
 *   or a trusted proxy's `X-Forwarded-Proto: https` (`req.secure`). Over plain HTTP a browser
 *   ignores it (RFC 6797 8.1), and the listener's plain-HTTP refusal never gets here.
 */
export const responseHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  if (req.secure) res.setHeader('Strict-Transport-Security', HSTS);
  next();
};
