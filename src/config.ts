import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/**
 * Every environment variable the service reads. Unset DATABASE_URL, TEMPORAL_ADDRESS and
 * SMTP_URL select the embedded shape (ARCHITECTURE.md).
 */
export const configSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port').optional(),
  /** Port of the embedded Temporal server (when TEMPORAL_ADDRESS is unset); 0 picks a free one. */
  TEMPORAL_EMBEDDED_PORT: z.coerce.number().int().min(0).max(65535).default(7233),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('backoffice'),
  RUN_WORKER: bool.default(true),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  /** Sender of every mail the service sends (an address, optionally with a display name). */
  MAIL_FROM: z.string().trim().min(1).default('backoffice@localhost'),
  DATA_DIR: z.string().min(1).default('./.data'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8443),
  /** Where clients reach the API (e.g. https://api.example.com/backoffice/v1): the base of e-mail tracking links. */
  PUBLIC_BASE_URL: z.url().optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  TRUST_PROXY: bool.default(false),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Key of the vouchers' secret-number hashes; unset: generated once into the data directory. */
  VOUCHER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(30 * 24 * 3600),
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(1000),
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RESPONSE_VALIDATION: bool.default(false),
});

export type Config = z.infer<typeof configSchema> & { dataDir: string };

export class ConfigError extends Error {}

/** Parses the environment; the first bad variable is named in one clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  );
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  if ((parsed.data.TLS_CERT_FILE === undefined) !== (parsed.data.TLS_KEY_FILE === undefined)) {
    throw new ConfigError('Invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

/** For entry points: a bad configuration prints its one message and exits with code 2. */
export function loadConfigOrExit(check: (config: Config) => void = () => undefined): Config {
  try {
    const config = loadConfig();
    check(config);
    return config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}
