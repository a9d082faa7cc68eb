// What the hand-written peers (bench/peer.ts, bench/engine-peer.ts) share: the credential check
// of src/api/middleware/auth.ts done by hand, and plain JSON answers.
//
// The `api_key` header, hashed with SHA-256, looked up in api_keys; revoked or expired keys are
// refused (401); the answer, good or bad, is cached in memory for AUTH_CACHE_SECONDS (default 5,
// as the service). A public key or a secret key without `scope` gets 403, as `authorise` decides.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import { hasScope, type Scope } from '../src/domain/identity/scopes';

export interface Principal {
  organisationId: string;
  allowed: boolean;
}

const AUTH_CACHE_MS = Number(process.env.AUTH_CACHE_SECONDS ?? 5) * 1000;

/** The check for one scope; `counted` is called once per statement sent. */
export function keyAuthenticator(pool: Pool, scope: Scope, counted: () => void = () => undefined): (secret: string) => Promise<Principal | null> {
  const cache = new Map<string, { principal: Principal | null; until: number }>();
  return async (secret) => {
    const now = Date.now();
    const cached = cache.get(secret);
    if (cached && cached.until > now) return cached.principal;
    counted();
    const { rows } = await pool.query<{ organisation_id: string; kind: string; scopes: string[] | null; revoked_at: Date | null; expires_at: Date | null }>(
      'SELECT organisation_id::text AS organisation_id, kind, scopes, revoked_at, expires_at FROM api_keys WHERE key_hash = $1',
      [createHash('sha256').update(secret).digest('hex')],
    );
    const row = rows[0];
    const usable = row && !row.revoked_at && !(row.expires_at && row.expires_at.getTime() <= now);
    const principal = usable ? { organisationId: row.organisation_id, allowed: row.kind === 'SECRET' && hasScope(row.scopes ?? [], scope) } : null;
    if (AUTH_CACHE_MS > 0) {
      if (cache.size > 10_000) cache.clear();
      const expires = usable && row.expires_at ? Math.min(row.expires_at.getTime(), now + AUTH_CACHE_MS) : now + AUTH_CACHE_MS;
      cache.set(secret, { principal, until: expires });
    }
    return principal;
  };
}

/** The `api_key` header (or `api-key`), trimmed. */
export function apiKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers['api_key'] ?? req.headers['api-key'];
  return (Array.isArray(header) ? header[0] : header)?.trim();
}

export function error(code: string, message: string): string {
  return JSON.stringify({ code, message });
}

export function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
