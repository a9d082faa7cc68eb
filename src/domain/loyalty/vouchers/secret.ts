// Voucher secret numbers (docs/vouchers.md "Secret numbers"): generated here, answered once, and
// kept only as a keyed hash. The key is a service secret that never enters the database, so a
// copy of the database alone cannot be searched offline for the secrets (16 digits are ~53 bits:
// an unkeyed hash of them would fall to a GPU in hours).
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { loadConfig } from '../../../config';
import { loadVoucherSecret } from '../../../secrets';

/** Digits of a secret number; every digit uniform, a leading zero allowed: 10^16 values. */
export const SECRET_DIGITS = 16;

const SCHEME = 'hmac-sha256';

interface Key {
  key: Buffer;
  /** A short fingerprint stored with every hash, so a hash made under another key is recognised as such. */
  id: string;
}

let cached: Key | undefined;

/** VOUCHER_SECRET or the data directory's generated one (src/secrets.ts), loaded on first use. */
function voucherKey(): Key {
  if (cached) return cached;
  const key = Buffer.from(loadVoucherSecret(loadConfig()), 'utf8');
  cached = { key, id: createHmac('sha256', key).update('voucher-key-id').digest('hex').slice(0, 8) };
  return cached;
}

/** A new secret number: SECRET_DIGITS decimal digits from the CSPRNG. */
export function newSecretNumber(): string {
  return Array.from({ length: SECRET_DIGITS }, () => randomInt(0, 10)).join('');
}

/** What a person may type around the digits (spaces, hyphens) is not part of the secret. */
export function normaliseSecret(value: string): string {
  return value.replace(/[\s-]/g, '');
}

function mac(key: Buffer, voucherId: string, secret: string): Buffer {
  // Bound to the voucher: the same secret hashes differently on two vouchers, and a hash copied
  // onto another voucher row proves nothing there.
  return createHmac('sha256', key).update(`voucher:${voucherId}:${normaliseSecret(secret)}`).digest();
}

/** `hmac-sha256:<key id>:<base64url MAC>`: what the secret_hash column holds. */
export function hashSecret(voucherId: string, secret: string): string {
  const k = voucherKey();
  return `${SCHEME}:${k.id}:${mac(k.key, voucherId, secret).toString('base64url')}`;
}

/**
 * Whether `secret` is the voucher's secret number, compared in constant time. A hash made under
 * another key cannot be checked: that is a configuration fault (replicas with different keys, a
 * lost key file), answered as a server error rather than as a wrong secret.
 */
export function secretMatches(voucherId: string, stored: string, secret: string): boolean {
  const k = voucherKey();
  const [scheme, keyId, digest] = stored.split(':');
  if (scheme !== SCHEME || keyId !== k.id || !digest) {
    throw new Error(`voucher ${voucherId}: its secret hash was made under another key (${scheme}:${keyId}); check VOUCHER_SECRET or the voucher-secret file`);
  }
  const expected = Buffer.from(digest, 'base64url');
  const given = mac(k.key, voucherId, secret);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
