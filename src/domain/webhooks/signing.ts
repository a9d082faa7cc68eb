// Standard Webhooks signing (docs/webhooks.md "Signature"): `whsec_` + base64 of 32 random
// bytes; each signature is `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the
// decoded bytes after the prefix.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface SecretState {
  secret: string;
  secretActiveUntil: Date | null;
  previousSecret: string | null;
  previousSecretActiveUntil: Date | null;
}

/** The secrets that sign at `now`: the current one until its date (none: always), the previous one until its date. */
export function activeSecrets(w: SecretState, now: Date): string[] {
  const out: string[] = [];
  if (!w.secretActiveUntil || w.secretActiveUntil > now) out.push(w.secret);
  if (w.previousSecret && w.previousSecretActiveUntil && w.previousSecretActiveUntil > now) out.push(w.previousSecret);
  return out;
}
