import type { Request } from 'express';
import type { Db } from '../../db/client';
import { forbidden, invalidCredential } from '../../domain/errors';
import { findUsableApiKey } from '../../domain/identity/api-keys';
import { hasScope } from '../../domain/identity/scopes';
import { verifyAccessToken } from '../../domain/identity/tokens';
import type { Actor, RouteDef } from '../route';

export interface Principal {
  organisationId: string;
  actor: Actor;
  rateLimitPerSecond: number | null;
}

/**
 * Resolves the request's credential to a principal. API-key lookups are cached for a few
 * seconds (AUTH_CACHE_SECONDS) to keep a database round trip off every request; revocation
 * through this process evicts at once, other replicas see it within the cache time.
 */
export class Authenticator {
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly jwtSecret: string,
    private readonly cacheMs: number,
  ) {}

  async authenticate(req: Request): Promise<Principal> {
    const apiKey = req.header('api_key') ?? req.header('api-key');
    if (apiKey) return this.fromApiKey(apiKey.trim());
    const authorization = req.header('authorization');
    if (authorization) return this.fromToken(authorization.replace(/^Bearer\s+/i, '').trim());
    throw invalidCredential('Authentication required: send an api_key header or Authorization: Bearer <token>');
  }

  evictAll(): void {
    this.cache.clear();
  }

  private async fromApiKey(secret: string): Promise<Principal> {
    const now = Date.now();
    const cached = this.cache.get(secret);
    let principal: Principal | null;
    if (cached && cached.until > now) {
      principal = cached.principal;
    } else {
      const row = await findUsableApiKey(this.db, secret);
      principal = row && {
        organisationId: row.organisationId,
        actor: { type: 'api_key', id: row.id, kind: row.kind as 'SECRET' | 'PUBLIC', scopes: row.scopes, isAdmin: false },
        rateLimitPerSecond: row.rateLimitPerSecond,
      };
      const expires = row?.expiresAt ? Math.min(row.expiresAt.getTime(), now + this.cacheMs) : now + this.cacheMs;
      if (this.cacheMs > 0) this.remember(secret, principal, expires);
    }
    if (!principal) throw invalidCredential();
    return principal;
  }

  private fromToken(token: string): Principal {
    const claims = verifyAccessToken(token, this.jwtSecret);
    if (!claims) throw invalidCredential();
    return {
      organisationId: claims.org,
      actor: { type: 'user', id: claims.sub, kind: 'SECRET', scopes: claims.scopes, isAdmin: claims.adm },
      rateLimitPerSecond: null,
    };
  }

  private remember(secret: string, principal: Principal | null, until: number) {
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(secret, { principal, until });
  }
}

/** Checks that the principal may call this route: key kind, admin flag, scope. */
export function authorise(principal: Principal, auth: Exclude<RouteDef['auth'], 'none'>): void {
  const { actor } = principal;
  if (actor.kind === 'PUBLIC' && !auth.public) {
    throw forbidden('Public API keys are accepted only by the communication operations; use a secret key');
  }
  if (auth.adminOnly && actor.type === 'user' && !actor.isAdmin) throw forbidden('This operation requires an admin user');
  if (actor.kind === 'SECRET' && !hasScope(actor.scopes, auth.scope)) {
    throw forbidden(`This credential lacks the scope ${auth.scope}`);
  }
}
