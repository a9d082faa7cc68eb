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
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}

export function writeCredentials(config: Config, credentials: BootstrapCredentials): string {
  const file = path.join(config.dataDir, 'credentials.json');
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return file;
}
