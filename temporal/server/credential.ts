/**
 * The embedded server's door: one shared secret that every caller sends as
 * `Authorization: Bearer <key>` (the SDK's `apiKey` option), over gRPC and the HTTP API alike.
 * Without it any local process could start, signal or terminate workflows.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';

/** Whether `given` is exactly `secret`, compared in constant time. */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const [a, b] = [Buffer.from(given), Buffer.from(secret)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A checker for one key: true when the header carries exactly it. */
export function bearerCheck(apiKey: string): (header: string | undefined) => boolean {
  const expected = `Bearer ${apiKey}`;
  return (header) => sameSecret(header, expected);
}

/** The key in `file`, made at the first start (32 random bytes, base64url; the file 0600). */
export function loadOrCreateApiKey(file: string): string {
  try {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length < 32) throw new Error(`${file} holds no API key (fewer than 32 characters): delete it to have a new one made`);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(32).toString('base64url');
  try {
    // Exclusive: of two processes starting at once (the service, a worker) one key wins.
    writeFileSync(file, key + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  chmodSync(file, 0o600);
  return key;
}
