import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Claims of the access tokens this service issues (HS256 JWT). */
export interface AccessClaims {
  sub: string;
  org: string;
  scopes: string[];
  adm: boolean;
  /** The user's session generation at issue; absent in tokens older than it (read as 0). */
  gen?: number;
  iat: number;
  exp: number;
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signAccessToken(claims: AccessClaims, secret: string): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${hmac(body, secret)}`;
}

/** Returns the claims of a well-formed, correctly signed, unexpired token; otherwise null. */
export function verifyAccessToken(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): AccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = Buffer.from(hmac(`${parts[0]}.${parts[1]}`, secret));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as AccessClaims;
    if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return null;
    if (typeof claims.sub !== 'string' || typeof claims.org !== 'string' || !Array.isArray(claims.scopes)) return null;
    return claims;
  } catch {
    return null;
  }
}

/** Opaque high-entropy secret (API keys, refresh tokens) and its stored form. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function hmac(data: string, secret: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
