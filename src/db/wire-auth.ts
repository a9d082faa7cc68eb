// SCRAM-SHA-256 (RFC 5802, RFC 7677), the server's side, as PostgreSQL speaks it on the wire:
// the embedded database's wire server asks every client for its password (docs/security.md "The
// embedded database"). The password never crosses the socket, and the server keeps only the
// keys derived from it.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

const ITERATIONS = 4096;
export const MECHANISM = 'SCRAM-SHA-256';

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export interface ScramKeys {
  salt: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

export function scramKeys(password: string): ScramKeys {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  return { salt, storedKey: createHash('sha256').update(hmac(salted, 'Client Key')).digest(), serverKey: hmac(salted, 'Server Key') };
}

/** One client's exchange: its first message in, the challenge out; its proof in, the server's signature out (or null: refused). */
export class ScramExchange {
  private gs2 = '';
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';

  constructor(private readonly keys: ScramKeys) {}

  /** Whether the challenge was sent: the next message is the proof. */
  get started(): boolean {
    return this.serverFirst !== '';
  }

  /** The server-first-message, or null when the client's first message is not one this server accepts. */
  challenge(clientFirst: string): string | null {
    // No channel binding without TLS: "n,," (client cannot) or "y,," (client could, server did not offer).
    const m = /^([ny]),,(n=[^,]*,r=([\x21-\x2b\x2d-\x7e]+)(?:,.*)?)$/.exec(clientFirst);
    if (!m) return null;
    this.gs2 = `${m[1]},,`;
    this.clientFirstBare = m[2];
    this.nonce = m[3] + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.keys.salt.toString('base64')},i=${ITERATIONS}`;
    return this.serverFirst;
  }

  /** The server-final-message when the proof is right, else null. */
  verify(clientFinal: string): string | null {
    const m = /^(c=([^,]*),r=([^,]*)(?:,.*)?),p=([A-Za-z0-9+/=]+)$/.exec(clientFinal);
    if (!m || !this.serverFirst) return null;
    const [, withoutProof, binding, nonce, proofText] = m;
    if (binding !== Buffer.from(this.gs2).toString('base64') || nonce !== this.nonce) return null;
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const proof = Buffer.from(proofText, 'base64');
    const signature = hmac(this.keys.storedKey, authMessage);
    if (proof.length !== signature.length) return null;
    const clientKey = Buffer.from(proof.map((b, i) => b ^ signature[i]));
    if (!timingSafeEqual(createHash('sha256').update(clientKey).digest(), this.keys.storedKey)) return null;
    return `v=${hmac(this.keys.serverKey, authMessage).toString('base64')}`;
  }
}
