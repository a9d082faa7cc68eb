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
  /**
   * The Temporal Web UI of the embedded server (temporal/ui-server.ts; not with TEMPORAL_ADDRESS):
   * a port, 0 for a free one, or `off`. 8233 is the port of Temporal's development server UI.
   */
  TEMPORAL_UI_PORT: z
    .string()
    .regex(/^(off|\d{1,5})$/, 'must be a port or off')
    .default('8233')
    .transform((v) => (v === 'off' ? undefined : Number(v)))
    .refine((v) => v === undefined || v <= 65535, 'must be a port or off'),
  /** Where the UI listens: loopback by default, as it has no login. */
  TEMPORAL_UI_HOST: z.string().min(1).default('127.0.0.1'),
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
  /** Whether this process dispatches outbox events to automations (docs/automations.md "Dispatch"). */
  OUTBOX_DISPATCHER: bool.default(true),
  /** How often the dispatcher sweeps for events no commit kicked it for (another replica's, a failed start's). */
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Delays before each attempt of a webhook request, e.g. `0,5s,5m` (docs/webhooks.md); parsed to ms. */
  WEBHOOK_RETRY_SCHEDULE: z.string().default('0,5s,5m,30m,2h,5h,10h,10h').transform(parseSchedule),
  /** How long one webhook attempt waits for the whole answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
});

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const MAX_DELAY_MS = 7 * 24 * 3_600_000;

/** `0,500ms,5s,5m,2h`: 1 to 20 delays, each 0 or a whole number with a unit, at most 7 days. */
function parseSchedule(text: string, ctx: z.RefinementCtx): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const delays = parts.map((p) => {
    if (p === '0') return 0;
    const m = /^(\d{1,9})(ms|s|m|h)$/.exec(p);
    return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
  });
  if (parts.length > 20 || delays.some((d) => !(d >= 0 && d <= MAX_DELAY_MS))) {
    ctx.addIssue({ code: 'custom', message: 'must be 1 to 20 comma-separated delays, each 0 or a number with ms, s, m or h (at most 7 days), e.g. 0,5s,5m,2h' });
    return z.NEVER;
  }
  return delays;
}

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
