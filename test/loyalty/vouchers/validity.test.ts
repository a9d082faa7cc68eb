// The pure parts of vouchers (docs/vouchers.md): expiry arithmetic and the secret-number hash.
import { randomBytes } from 'node:crypto';
import { expirationOf, validityUnit } from '../../../src/domain/loyalty/validity';

const at = (iso: string) => new Date(iso);
const iso = (d: Date | null) => d?.toISOString();

test('DAY and WEEK are fixed lengths; MONTH and YEAR are UTC calendar months, the day clamped to the month end', () => {
  expect(iso(expirationOf(at('2024-03-30T22:15:00.123Z'), 2, 'DAY'))).toBe('2024-04-01T22:15:00.123Z');
  expect(iso(expirationOf(at('2024-01-01T00:00:00Z'), 2, 'WEEK'))).toBe('2024-01-15T00:00:00.000Z');
  expect(iso(expirationOf(at('2024-01-31T10:00:00Z'), 1, 'MONTH'))).toBe('2024-02-29T10:00:00.000Z');
  expect(iso(expirationOf(at('2025-01-31T10:00:00Z'), 1, 'MONTH'))).toBe('2025-02-28T10:00:00.000Z');
  expect(iso(expirationOf(at('2025-01-31T10:00:00Z'), 3, 'MONTH'))).toBe('2025-04-30T10:00:00.000Z');
  expect(iso(expirationOf(at('2024-11-15T23:59:59.999Z'), 14, 'MONTH'))).toBe('2026-01-15T23:59:59.999Z');
  expect(iso(expirationOf(at('2024-02-29T12:00:00Z'), 1, 'YEAR'))).toBe('2025-02-28T12:00:00.000Z');
  expect(iso(expirationOf(at('2024-02-29T12:00:00Z'), 4, 'YEAR'))).toBe('2028-02-29T12:00:00.000Z');
  expect(expirationOf(at('2024-01-01T00:00:00Z'), 12, 'MONTH')).toEqual(expirationOf(at('2024-01-01T00:00:00Z'), 1, 'YEAR'));
  // Beyond what the API can write as epoch seconds: refused.
  expect(expirationOf(at('2024-01-01T00:00:00Z'), 10_000, 'YEAR')).toBeNull();
});

test('units are read leniently from the type', () => {
  expect(['DAY', 'day', 'Days', ' WEEK ', 'months', 'YEAR'].map(validityUnit)).toEqual(['DAY', 'DAY', 'DAY', 'WEEK', 'MONTH', 'YEAR']);
  expect(['HOUR', '', 'DECADE'].map(validityUnit)).toEqual([null, null, null]);
});

describe('secret numbers', () => {
  const saved = process.env.VOUCHER_SECRET;
  afterAll(() => {
    if (saved === undefined) delete process.env.VOUCHER_SECRET;
    else process.env.VOUCHER_SECRET = saved;
  });

  function load(secret: string): typeof import('../../../src/domain/loyalty/vouchers/secret') {
    process.env.VOUCHER_SECRET = secret;
    let mod!: typeof import('../../../src/domain/loyalty/vouchers/secret');
    jest.isolateModules(() => {
      mod = require('../../../src/domain/loyalty/vouchers/secret');
    });
    return mod;
  }

  test('16 uniform digits; the hash is keyed, bound to the voucher, and checked in constant time', () => {
    const s = load(randomBytes(32).toString('hex'));
    const secret = s.newSecretNumber();
    expect(secret).toMatch(/^\d{16}$/);
    expect(new Set(Array.from({ length: 50 }, () => s.newSecretNumber())).size).toBe(50);
    const hash = s.hashSecret('voucher-a', secret);
    expect(hash).toMatch(/^hmac-sha256:[0-9a-f]{8}:[A-Za-z0-9_-]{43}$/);
    expect(s.secretMatches('voucher-a', hash, secret)).toBe(true);
    expect(s.secretMatches('voucher-a', hash, ` ${secret.slice(0, 8)} - ${secret.slice(8)} `)).toBe(true);
    expect(s.secretMatches('voucher-a', hash, secret.slice(1))).toBe(false);
    // The same secret on another voucher hashes differently, so a hash copied there proves nothing.
    expect(s.hashSecret('voucher-b', secret)).not.toBe(hash);
    expect(s.secretMatches('voucher-b', hash, secret)).toBe(false);
  });

  test('a hash made under another key is a configuration fault, not a wrong secret; a short key is refused', () => {
    const first = load('k'.repeat(40));
    const hash = first.hashSecret('voucher-a', '1234567890123456');
    const second = load('j'.repeat(40));
    expect(() => second.secretMatches('voucher-a', hash, '1234567890123456')).toThrow(/another key/);
    const short = load('too short');
    expect(() => short.hashSecret('voucher-a', '1')).toThrow(/at least 32 characters/);
  });
});
