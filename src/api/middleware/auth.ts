import type { Request } from 'express';
import type { Db } from '../../db/client';
import { forbidden, invalidCredential } from '../../domain/errors';
import { findUsableApiKey, looksLikeApiKey } from '../../domain/identity/api-keys';
import { hasScope } from '../../domain/identity/scopes';
import { verifyAccessToken } from '../../domain/identity/tokens';
import type { Actor, RouteDef } from '../route';

export interface Principal {
  organisationId: string;
  actor: Actor;
  rateLimitPerSecond: number | null;
}

type UserState = { organisationId: string; disabledAt: Date | null; sessionGeneration: number };

/** A JSON Web Token's shape: three base64url parts, the header a JSON object ("eyJ"). */
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/;

/**
 * Resolves the request's credential to a principal. API-key lookups, and the state of a token's
 * user (disabled, session generation), are cached for a few seconds (AUTH_CACHE_SECONDS) to
 * keep a database round trip off every request; revocation through this process evicts at
 * once, other replicas and the admin command line are seen within the cache time.
 */
export class Authenticator {
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>();
  private readonly users = new Map<string, { user: UserState | null; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly jwtSecret: string,
    private readonly cacheMs: number,
  ) {}

  /** Whether the request carries a credential at all, valid or not. */
  static sent(req: Request): boolean {
    return Boolean(req.header('api_key') ?? req.header('api-key') ?? req.header('authorization'));
  }

  async authenticate(req: Request): Promise<Principal> {
    const apiKey = req.header('api_key') ?? req.header('api-key');
    if (apiKey) return this.fromApiKey(apiKey.trim());
    const authorization = req.header('authorization');
    if (authorization) return await this.fromToken(authorization.replace(/^Bearer\s+/i, '').trim());
    throw invalidCredential('Authentication required: send an api_key header or Authorization: Bearer <token>');
  }

  /**
   * A credential in the other header would only ever answer "invalid": say where it goes. Shape
   * alone decides (no lookup), so the hint tells nothing about whether the value is a real key.
   */
  private static misplaced(header: 'api_key' | 'authorization', value: string): string | undefined {
    if (header === 'authorization' && looksLikeApiKey(value)) return 'API keys go in the api_key header (api_key: <key>), not in Authorization';
    if (header === 'api_key' && JWT.test(value)) return 'This is an access token: send it as Authorization: Bearer <token>, not in the api_key header';
    return undefined;
  }

  evictAll(): void {
    this.cache.clear();
    this.users.clear();
  }

  private async fromApiKey(secret: string): Promise<Principal> {
    const misplaced = Authenticator.misplaced('api_key', secret);
    if (misplaced) throw invalidCredential(misplaced);
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

  private async fromToken(token: string): Promise<Principal> {
    const misplaced = Authenticator.misplaced('authorization', token);
    if (misplaced) throw invalidCredential(misplaced);
    const claims = verifyAccessToken(token, this.jwtSecret);
    if (!claims) throw invalidCredential();
    const user = await this.userState(claims.sub);
    if (!user || user.disabledAt || user.organisationId !== claims.org || (claims.gen ?? 0) < user.sessionGeneration) throw invalidCredential();
    return {
      organisationId: claims.org,
      actor: { type: 'user', id: claims.sub, kind: 'SECRET', scopes: claims.scopes, isAdmin: claims.adm },
      rateLimitPerSecond: null,
    };
  }

  private async userState(id: string): Promise<UserState | null> {
    const now = Date.now();
    const cached = this.users.get(id);
    if (cached && cached.until > now) return cached.user;
    const user = await this.db.user.findUnique({ where: { id }, select: { organisationId: true, disabledAt: true, sessionGeneration: true } });
    if (this.cacheMs > 0) {
      if (this.users.size > 10_000) this.users.clear();
      this.users.set(id, { user, until: now + this.cacheMs });
    }
    return user;
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
  // A public key's [] is the whole public set; a list narrows it (src/domain/identity/scopes.ts).
  if ((actor.kind === 'SECRET' || (actor.kind === 'PUBLIC' && actor.scopes.length)) && !hasScope(actor.scopes, auth.scope)) {
    throw forbidden(`This credential lacks the scope ${auth.scope}`);
  }
}
