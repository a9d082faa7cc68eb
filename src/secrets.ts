import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import type { BootstrapCredentials } from './domain/identity/bootstrap';

/**
 * JWT_SECRET, or one generated once into the data directory. Replicas at scale must share
 * JWT_SECRET, since a token signed by one is checked by another.
 */
export function loadJwtSecret(config: Config): string {
  return config.JWT_SECRET ?? dataDirSecret(config, 'jwt-secret');
}

/**
 * VOUCHER_SECRET, or one generated once into the data directory: the key of the vouchers'
 * secret-number hashes (docs/vouchers.md). Replicas at scale must share it.
 */
export function loadVoucherSecret(config: Config): string {
  return config.VOUCHER_SECRET ?? dataDirSecret(config, 'voucher-secret');
}

export interface SecretsKeys {
  /** Seals and opens. */
  current: Buffer;
  /** Only opens: values sealed before a rotation, until `reencrypt-secrets` has run. */
  previous?: Buffer;
}

/**
 * SECRETS_KEY, or one generated once into the data directory (32 bytes), and SECRETS_KEY_PREVIOUS:
 * the keys of the secrets sealed at rest (src/secret-box.ts). Replicas and workers at scale must
 * share SECRETS_KEY: a value sealed by one is opened by another.
 */
export function loadSecretsKeys(config: Config): SecretsKeys {
  const current = Buffer.from(config.SECRETS_KEY ?? dataDirSecret(config, 'secrets-key', 32), 'base64');
  const previous = config.SECRETS_KEY_PREVIOUS ? Buffer.from(config.SECRETS_KEY_PREVIOUS, 'base64') : undefined;
  return { current, previous };
}

/** A random secret kept in `<DATA_DIR>/<name>` (mode 0600), created by the first process that needs it. */
function dataDirSecret(config: Config, name: string, bytes = 48): string {
  const file = path.join(config.dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(bytes).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process of the same data directory wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

export function writeCredentials(config: Config, credentials: BootstrapCredentials): string {
  const file = path.join(config.dataDir, 'credentials.json');
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return file;
}
