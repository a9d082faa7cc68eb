import { randomBytes, randomInt } from 'node:crypto';

// Within one millisecond, ids of this process keep the order they were made in (RFC 9562's
// method 1: rand_a is a counter, started at random below its middle), so rows written together and
// ordered by (time, id) read back in the order they were written.
let lastMs = 0;
let counter = 0;

/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, a 12-bit counter, then random bits. Time-ordered
 * ids keep B-tree inserts local and give the spec's "time-based GUID".
 */
export function newId(): string {
  const bytes = randomBytes(16);
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    counter = bytes[7] | ((bytes[6] & 0x07) << 8);
  } else if (++counter > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next one (the clock catches up at once).
    lastMs += 1;
    counter = 0;
  }
  ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return formatUuid(bytes.toString('hex'));
}

/** A GUID as input takes it; no flags, so the OpenAPI document can state it as the `pattern` it is. */
export const ID_PATTERN = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** Accepts 32 hex characters or the hyphenated form in any case; returns lower-case hyphenated. */
export function normaliseId(value: string): string {
  return formatUuid(value.replace(/-/g, '').toLowerCase());
}

function formatUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `length` random decimal digits without a leading zero: account numbers and wallet codes.
 * Random rather than a sequence, so they reveal nothing about volumes.
 */
export function randomDigits(length: number): string {
  return String(randomInt(1, 10)) + Array.from({ length: length - 1 }, () => randomInt(0, 10)).join('');
}
