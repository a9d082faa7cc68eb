import type { Tx as Db } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { newId } from '../ids';
import { invalidCredential, notFound } from '../errors';
import { hashPassword, verifyPassword } from '../identity/passwords';
import { ALL_SCOPES } from '../identity/scopes';
import { addressKey, countAttempt, refreshKey, settleAttempt, usernameKey, type ThrottleLimits } from '../identity/throttle';
import { newSecret, sha256, signAccessToken } from '../identity/tokens';

export interface NewUser {
  organisationId: string;
  username: string;
  isAdmin?: boolean;
  scopes?: string[];
  email?: string;
  firstName?: string;
  lastName?: string;
}

export async function createUser(db: Db, input: NewUser & { password: string }) {
  const { password, ...user } = input;
  return addUser(db, { ...user, passwordHash: await hashPassword(password) });
}

/**
 * A user whose password is already hashed: the API hashes before its transaction opens
 * (`prepare`). With an actor (the API) the creation is audited; the operator's command line and
 * the first start are not requests.
 */
export async function addUser(db: Db, input: NewUser & { passwordHash: string }, actor?: AuditActor) {
  // Unique within the organisation: its own index answers 409 naming username, another organisation's users never collide.
  const user = await db.user.create({
    data: {
      id: newId(),
      organisationId: input.organisationId,
      username: input.username,
      passwordHash: input.passwordHash,
      isAdmin: input.isAdmin ?? false,
      scopes: input.scopes ?? ALL_SCOPES,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
    },
  });
  if (actor) await audit(db, actor, { action: 'CREATE', entityType: 'USER', entityId: user.id, changes: { is_admin: user.isAdmin, scopes: user.scopes } });
  return user;
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

/** Who signs in, for throttling: the client's address (req.ip) and the limits. */
export interface SignInClient {
  address: string;
  limits: ThrottleLimits;
}

/**
 * Throttled per username (known or not) and per address before the password hash is computed.
 * A disabled user gets the answer of a wrong password.
 */
export async function login(db: Db, username: string, password: string, settings: TokenSettings, client: SignInClient): Promise<TokenPair> {
  const [userKey, ipKey] = [usernameKey(username), addressKey(client.address)];
  await countAttempt(db, [userKey, ipKey], client.limits);
  // Usernames are unique per organisation: the password tells the holders of one apart (docs/security.md
  // "Usernames"). Verify even when nobody holds it so that timing does not reveal which usernames exist.
  const holders = await db.user.findMany({ where: { username } });
  const verified = await Promise.all((holders.length ? holders : [null]).map((u) => verifyPassword(u?.passwordHash ?? DUMMY_HASH, password)));
  const matching = holders.filter((_, i) => verified[i]);
  // Two holders with the same password: neither is signed in, since nothing says which one is meant.
  const user = matching.length === 1 ? matching[0] : undefined;
  if (!user || user.disabledAt) throw invalidCredential('Invalid username or password');
  await settleAttempt(db, { reset: [userKey], uncount: [ipKey] }, client.limits);
  return issueTokens(db, user, settings);
}

/**
 * Refresh tokens rotate: each is usable once. Presenting a used one means it leaked, so every
 * refresh token of that user is invalidated.
 */
export async function refresh(db: Db, refreshToken: string, settings: TokenSettings, client: SignInClient): Promise<TokenPair> {
  const ipKey = refreshKey(client.address);
  await countAttempt(db, [ipKey], client.limits);
  const row = await db.refreshToken.findUnique({ where: { tokenHash: sha256(refreshToken) }, include: { user: true } });
  const revoked = row && row.sessionGeneration < row.user.sessionGeneration;
  if (!row || row.expiresAt <= new Date() || row.user.disabledAt || revoked) throw invalidCredential('Invalid refresh token');
  const claimed = await db.refreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (claimed.count === 0) {
    await db.refreshToken.updateMany({ where: { userId: row.userId, usedAt: null }, data: { usedAt: new Date() } });
    throw invalidCredential('Refresh token already used');
  }
  await settleAttempt(db, { reset: [], uncount: [ipKey] }, client.limits);
  return issueTokens(db, row.user, settings);
}

/**
 * Log out: the refresh token expires now, so presenting it again is refused like any expired one
 * (401, and not taken as theft: the user's other sessions stay). Unknown, used or expired tokens
 * change nothing, so the caller learns nothing about them. The row stays for investigation until
 * retention deletes it (RETENTION_REFRESH_TOKENS_DAYS after this expiry). The access token the
 * client holds is not touched: it is stateless and ends by itself (ACCESS_TOKEN_TTL_SECONDS).
 */
export async function logout(db: Db, refreshToken: string): Promise<void> {
  const now = new Date();
  await db.refreshToken.updateMany({ where: { tokenHash: sha256(refreshToken), usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
}

async function issueTokens(
  db: Db,
  user: { id: string; organisationId: string; scopes: string[]; isAdmin: boolean; sessionGeneration: number },
  settings: TokenSettings,
): Promise<TokenPair> {
  const now = Math.floor(Date.now() / 1000);
  const gen = user.sessionGeneration;
  const access = signAccessToken(
    { sub: user.id, org: user.organisationId, scopes: user.scopes, adm: user.isAdmin, gen, iat: now, exp: now + settings.accessTtlSeconds },
    settings.secret,
  );
  const refreshToken = newSecret('rt_');
  await db.refreshToken.create({
    data: { id: newId(), userId: user.id, tokenHash: sha256(refreshToken), sessionGeneration: gen, expiresAt: new Date((now + settings.refreshTtlSeconds) * 1000) },
  });
  return { access_token: access, token_type: 'Bearer', expires_in: settings.accessTtlSeconds, refresh_token: refreshToken };
}

export type UserRef = { id: string } | { username: string };

/**
 * Operator actions of the admin command line and the API. Each one raising the session generation ends
 * every session of the user: access tokens carry the generation they were issued under
 * (refused by src/api/middleware/auth.ts within AUTH_CACHE_SECONDS), refresh tokens at once.
 */
export const revokeSessions = (tx: Db, actor: AuditActor, ref: UserRef) =>
  changeUser(tx, actor, ref, 'REVOKE_SESSIONS', () => ({ sessionGeneration: { increment: 1 } }));

export const disableUser = (tx: Db, actor: AuditActor, ref: UserRef) =>
  changeUser(tx, actor, ref, 'DISABLE', (user) => ({ disabledAt: user.disabledAt ?? new Date(), sessionGeneration: { increment: 1 } }));

export const enableUser = (tx: Db, actor: AuditActor, ref: UserRef) => changeUser(tx, actor, ref, 'ENABLE', () => ({ disabledAt: null }));

/** A new password also lifts the username's sign-in lock: the operator has just vouched for the user. */
export async function resetPassword(tx: Db, actor: AuditActor, ref: UserRef, passwordHash: string) {
  const user = await changeUser(tx, actor, ref, 'RESET_PASSWORD', () => ({ passwordHash, sessionGeneration: { increment: 1 } }));
  await tx.loginThrottle.deleteMany({ where: { key: usernameKey(user.username) } });
  return user;
}

/** The one way a user's access changes: found in the actor's organisation, updated, audited. */
export async function changeUser(
  tx: Db,
  actor: AuditActor,
  ref: UserRef,
  action: string,
  data: (user: { disabledAt: Date | null }) => Parameters<Db['user']['update']>[0]['data'],
  changes?: Record<string, unknown>,
) {
  const user = await tx.user.findFirst({ where: { organisationId: actor.organisationId, ...ref } });
  if (!user) throw notFound('User');
  const updated = await tx.user.update({ where: { id: user.id }, data: data(user) });
  await audit(tx, actor, { action, entityType: 'USER', entityId: user.id, changes });
  return updated;
}

// argon2id hash of a random string, used only to spend the same time on unknown usernames.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$76dpvh2dABEftO8w/PyoZw$7o9M7VkNO5a7Fc/a4ZBxi/Rb9WTc1TyH4H9yCXfWIvw';
