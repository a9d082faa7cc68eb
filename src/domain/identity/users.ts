import type { Tx as Db } from '../../db/client';
import { newId } from '../ids';
import { alreadyExists, invalidCredential } from '../errors';
import { hashPassword, verifyPassword } from './passwords';
import { ALL_SCOPES } from './scopes';
import { newSecret, sha256, signAccessToken } from './tokens';

export interface NewUser {
  organisationId: string;
  username: string;
  password: string;
  isAdmin?: boolean;
  scopes?: string[];
  email?: string;
  firstName?: string;
  lastName?: string;
}

export async function createUser(db: Db, input: NewUser) {
  const taken = await db.user.findUnique({ where: { username: input.username }, select: { id: true } });
  if (taken) throw alreadyExists('username', 'A user with this username already exists');
  return db.user.create({
    data: {
      id: newId(),
      organisationId: input.organisationId,
      username: input.username,
      passwordHash: await hashPassword(input.password),
      isAdmin: input.isAdmin ?? false,
      scopes: input.scopes ?? ALL_SCOPES,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
    },
  });
}

export interface TokenSettings {
  secret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export async function login(db: Db, username: string, password: string, settings: TokenSettings): Promise<TokenPair> {
  const user = await db.user.findUnique({ where: { username } });
  // Verify even when the user is unknown so that timing does not reveal which usernames exist.
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok || user.disabledAt) throw invalidCredential('Invalid username or password');
  return issueTokens(db, user, settings);
}

/**
 * Refresh tokens rotate: each is usable once. Presenting a used one means it leaked, so every
 * refresh token of that user is invalidated.
 */
export async function refresh(db: Db, refreshToken: string, settings: TokenSettings): Promise<TokenPair> {
  const row = await db.refreshToken.findUnique({ where: { tokenHash: sha256(refreshToken) }, include: { user: true } });
  if (!row || row.expiresAt <= new Date() || row.user.disabledAt) throw invalidCredential('Invalid refresh token');
  const claimed = await db.refreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (claimed.count === 0) {
    await db.refreshToken.updateMany({ where: { userId: row.userId, usedAt: null }, data: { usedAt: new Date() } });
    throw invalidCredential('Refresh token already used');
  }
  return issueTokens(db, row.user, settings);
}

async function issueTokens(
  db: Db,
  user: { id: string; organisationId: string; scopes: string[]; isAdmin: boolean },
  settings: TokenSettings,
): Promise<TokenPair> {
  const now = Math.floor(Date.now() / 1000);
  const access = signAccessToken(
    { sub: user.id, org: user.organisationId, scopes: user.scopes, adm: user.isAdmin, iat: now, exp: now + settings.accessTtlSeconds },
    settings.secret,
  );
  const refreshToken = newSecret('rt_');
  await db.refreshToken.create({
    data: { id: newId(), userId: user.id, tokenHash: sha256(refreshToken), expiresAt: new Date((now + settings.refreshTtlSeconds) * 1000) },
  });
  return { access_token: access, token_type: 'Bearer', expires_in: settings.accessTtlSeconds, refresh_token: refreshToken };
}

// argon2id hash of a random string, used only to spend the same time on unknown usernames.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$76dpvh2dABEftO8w/PyoZw$7o9M7VkNO5a7Fc/a4ZBxi/Rb9WTc1TyH4H9yCXfWIvw';
