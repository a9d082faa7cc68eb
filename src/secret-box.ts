// Secrets the service must use again (webhook credentials and signing secrets, integration
// passwords and tokens) are stored sealed (docs/security.md "Secrets at rest"): AES-256-GCM under
// SECRETS_KEY, in an envelope naming its key so that keys can rotate:
// `enc:v1:<key id>:<base64url of iv | ciphertext | tag>`. Each value is bound to its place (table,
// field and row id, as GCM's additional data), so a sealed value copied onto another row or field
// does not open there.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { loadConfig } from './config';
import { loadSecretsKeys, type SecretsKeys } from './secrets';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  readonly currentId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(keys: SecretsKeys) {
    for (const key of [keys.current, keys.previous]) {
      if (key && key.length !== 32) throw new Error('a secrets key must be 32 bytes (check SECRETS_KEY, SECRETS_KEY_PREVIOUS or DATA_DIR/secrets-key)');
    }
    this.currentId = keyId(keys.current);
    this.keys.set(this.currentId, keys.current);
    if (keys.previous) this.keys.set(keyId(keys.previous), keys.previous);
  }

  /** The ids of the keys that open: the current one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  seal(plain: string, place: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv).setAAD(Buffer.from(place));
    const body = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.currentId}:${body.toString('base64url')}`;
  }

  /**
   * The plain value. A value without the envelope is one stored before sealing and is answered as
   * it is (the start-up sweep seals those). A key this process does not have is a configuration
   * fault (replicas with different keys, a lost key file), never a wrong secret: it throws.
   */
  open(stored: string, place: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, data] = stored.slice(PREFIX.length).split(':');
    const key = this.keys.get(id);
    if (!key) throw new Error(`a secret of ${place} was sealed under key ${id}, which this process does not have (it has ${this.keyIds.join(', ')}): check SECRETS_KEY and SECRETS_KEY_PREVIOUS`);
    const body = Buffer.from(data ?? '', 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES }).setAAD(Buffer.from(place));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`a secret of ${place} does not open under key ${id}: it was changed or moved from another row`);
    }
  }

  /** Whether the stored value is sealed under the current key (re-encryption skips it). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.currentId}:`);
  }
}

/** A short fingerprint of the key, stored in every envelope; it reveals nothing of the key. */
function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('backoffice secrets key id').digest('hex').slice(0, 8);
}

let box: SecretBox | undefined;

/** The process's box, from its configuration (the key file is created on first use). */
export function secretBox(): SecretBox {
  return (box ??= new SecretBox(loadSecretsKeys(loadConfig())));
}

export const sealSecret = (plain: string, place: string) => secretBox().seal(plain, place);
export const openSecret = (stored: string, place: string) => secretBox().open(stored, place);
