// Throttling of sign-in (login, refresh) per username and per client address, kept in the
// database so that every replica sees the same counts (docs/security.md "Sign-in and sessions").
import { Prisma, type Tx as Db } from '../../db/client';
import { effectiveIp, parseIp } from '../../outbound/addresses';
import { AppError } from '../errors';

export interface ThrottleLimits {
  /** Failures allowed before backoff starts. */
  perUsername: number;
  perAddress: number;
  /**
   * Failed refreshes per address. A refresh has no username to count against, and a client only
   * fails one by holding a stale token, so fewer are free than for logins (issue 31: 20 unknown
   * tokens in a row went unthrottled under the address's 100).
   */
  perRefreshAddress: number;
}

/** Failures are forgotten after this long without one (counted from the end of the last lock). */
const WINDOW_SECONDS = 15 * 60;
/** The n-th failure beyond the free ones locks the key for 2^(n-1) s, at most this long. */
const MAX_LOCK_SECONDS = 15 * 60;

export const usernameKey = (username: string) => `user:${username}`;

/** Refreshes count on a key of their own: a locked refresh leaves logins from the address alone. */
export const refreshKey = (address: string) => `refresh:${addressKey(address)}`;

/**
 * IPv4 (and IPv4-mapped IPv6) by address; IPv6 by its /64, the block one subscriber gets, so
 * an attacker cannot walk through 2^64 addresses of their own.
 */
export function addressKey(address: string): string {
  const ip = parseIp(address);
  if (!ip) return `ip:${address}`;
  const { family, value } = effectiveIp(ip);
  if (family === 4) return `ip:${[24n, 16n, 8n, 0n].map((s) => (value >> s) & 0xffn).join('.')}`;
  return `ip:${[112n, 96n, 80n, 64n].map((s) => ((value >> s) & 0xffffn).toString(16)).join(':')}::/64`;
}

const free = (limits: ThrottleLimits) =>
  Prisma.sql`(CASE WHEN t.key LIKE 'user:%' THEN ${limits.perUsername}::int WHEN t.key LIKE 'refresh:%' THEN ${limits.perRefreshAddress}::int ELSE ${limits.perAddress}::int END)`;

/**
 * Counts the attempt against every key before the password is checked: an attempt is a failure
 * until it succeeds, so a burst of parallel guesses stops at the threshold instead of costing a
 * hash each. A key whose lock is in force stays unchanged and refuses the attempt (429 with
 * Retry-After); the other keys then take their count back, so a refused attempt counts nowhere.
 */
export async function countAttempt(db: Db, keys: string[], limits: ThrottleLimits): Promise<void> {
  const stale = Prisma.sql`coalesce(t.locked_until, t.last_failure_at) < now() - make_interval(secs => ${WINDOW_SECONDS})`;
  const next = Prisma.sql`(CASE WHEN ${stale} THEN 1 ELSE t.failures + 1 END)`;
  const counted = await db.$queryRaw<Array<{ key: string }>>`
    INSERT INTO login_throttles AS t (key, failures, last_failure_at)
    SELECT k, 1, now() FROM unnest(${keys}::text[]) AS k
    ON CONFLICT (key) DO UPDATE SET
      failures = ${next},
      last_failure_at = now(),
      locked_until = CASE WHEN ${next} > ${free(limits)}
        THEN now() + make_interval(secs => least(power(2, least(${next} - ${free(limits)} - 1, 20)), ${MAX_LOCK_SECONDS})) END
    WHERE t.locked_until IS NULL OR t.locked_until <= now()
    RETURNING t.key`;
  if (Math.random() < 0.01) {
    await db.$executeRaw`DELETE FROM login_throttles t WHERE ${stale}`;
  }
  if (counted.length === keys.length) return;
  await settleAttempt(db, { reset: [], uncount: counted.map((r) => r.key) }, limits);
  const [lock] = await db.$queryRaw<Array<{ seconds: number | null }>>`
    SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
      FROM login_throttles WHERE key = ANY(${keys}::text[]) AND locked_until > now()`;
  const retryAfter = Math.max(1, lock?.seconds ?? 1);
  throw Object.assign(new AppError('RATE_LIMITED', `Too many failed sign-in attempts: retry in ${retryAfter} s`), { retryAfter });
}

/**
 * After a success (or a refusal): `reset` keys start again from nothing (the username that
 * signed in), `uncount` keys take back the attempt countAttempt counted (the address: its
 * successes must not add up to a lock of everyone behind it).
 */
export async function settleAttempt(db: Db, keys: { reset: string[]; uncount: string[] }, limits: ThrottleLimits): Promise<void> {
  await db.$executeRaw`
    WITH reset AS (DELETE FROM login_throttles WHERE key = ANY(${keys.reset}::text[]))
    UPDATE login_throttles AS t SET
      failures = greatest(t.failures - 1, 0),
      locked_until = CASE WHEN t.failures - 1 > ${free(limits)} THEN t.locked_until END
    WHERE t.key = ANY(${keys.uncount}::text[])`;
}
