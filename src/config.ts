import path from 'node:path';
import { z } from 'zod';
import { parseCidr, type Cidr } from './outbound/addresses';
import { temporalSecurityProblem, temporalSecurityShape } from './temporal/connection';
import { retentionShape } from './domain/retention/settings';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** A port, or `off` (undefined). */
function portOrOff(fallback: string) {
  return z
    .string()
    .regex(/^(off|\d{1,5})$/, 'must be a port or off')
    .default(fallback)
    .transform((v) => (v === 'off' ? undefined : Number(v)))
    .refine((v) => v === undefined || v <= 65535, 'must be a port or off');
}

/**
 * Every environment variable the service reads. Unset DATABASE_URL, TEMPORAL_ADDRESS and
 * SMTP_URL select the embedded shape (ARCHITECTURE.md).
 */
export const configSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port').optional(),
  /**
   * Which server the service starts itself when TEMPORAL_ADDRESS is unset: `embedded` (the
   * project's own, temporal/server) or `cli` (`temporal server start-dev` of the Temporal CLI,
   * temporal/server/cli-server.ts), on the port below, its Web UI on TEMPORAL_UI_PORT.
   */
  TEMPORAL_SERVER: z.enum(['embedded', 'cli']).default('embedded'),
  /** The `temporal` binary TEMPORAL_SERVER=cli runs: a path, or a name on PATH. */
  TEMPORAL_CLI: z.string().min(1).default('temporal'),
  /** Port of the embedded Temporal server (when TEMPORAL_ADDRESS is unset); 0 picks a free one. */
  TEMPORAL_EMBEDDED_PORT: z.coerce.number().int().min(0).max(65535).default(7233),
  /**
   * The Temporal Web UI of the embedded server (temporal/server/ui-server.ts; not with TEMPORAL_ADDRESS):
   * a port, 0 for a free one, or `off`. 8233 is the port of Temporal's development server UI.
   */
  TEMPORAL_UI_PORT: portOrOff('8233'),
  /** Where the UI listens: loopback by default, as it has no login. */
  TEMPORAL_UI_HOST: z.string().min(1).default('127.0.0.1'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('backoffice'),
  /** TLS, mTLS and API key to TEMPORAL_ADDRESS (src/temporal/connection.ts). */
  ...temporalSecurityShape,
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
  /**
   * Which peers are TLS-terminating proxies whose X-Forwarded-* headers count (docs/security.md
   * "Proxies"): `false`, or their addresses and CIDR ranges, comma-separated (also Express's
   * names `loopback`, `linklocal`, `uniquelocal`); `true` trusts every peer (a warning at start).
   */
  TRUST_PROXY: z.string().default('false').transform(parseTrustProxy),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Key of the vouchers' secret-number hashes; unset: generated once into the data directory. */
  VOUCHER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * AES-256 key sealing the stored secrets the service uses again (docs/security.md "Secrets at
   * rest"); unset: generated once into the data directory. PREVIOUS only opens (key rotation).
   */
  SECRETS_KEY: z.string().trim().refine(isKey32, 'must be 32 bytes in base64 (openssl rand -base64 32)').optional(),
  SECRETS_KEY_PREVIOUS: z.string().trim().refine(isKey32, 'must be 32 bytes in base64 (openssl rand -base64 32)').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(30 * 24 * 3600),
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(1000),
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).default(5),
  /** Failed sign-ins allowed before backoff, per username and per client address (docs/security.md "Sign-in and sessions"). */
  LOGIN_FAILURES_PER_USERNAME: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(100),
  REFRESH_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RESPONSE_VALIDATION: bool.default(false),
  /** Whether this process runs the outbox dispatcher: automation fan-out and every workflow intent (docs/DEVELOPING.md "From a commit to a workflow"). */
  OUTBOX_DISPATCHER: bool.default(true),
  /** How often the dispatcher sweeps for events no commit kicked it for (another replica's, a failed start's). */
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /**
   * How often this process looks for workflows an operator terminated or cancelled and settles
   * their records (docs/temporal-ui.md "Terminate and cancel"); 0: never, not even at start.
   */
  WORKFLOW_RECONCILE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  /** Delays before each attempt of a webhook request, e.g. `0,5s,5m` (docs/webhooks.md); parsed to ms. */
  WEBHOOK_RETRY_SCHEDULE: z.string().default('0,5s,5m,30m,2h,5h,10h,10h').transform(parseSchedule),
  /** Events a HISTORY simulation judges per page: what a retry repeats and a cancel waits for (docs/automations.md "Simulations"). */
  SIMULATION_PAGE_EVENTS: z.coerce.number().int().min(1).max(5_000).default(500),
  /** How long one webhook attempt waits for the whole answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /**
   * CIDR ranges outbound requests may reach although they are not public (docs/security.md
   * "Outbound requests"), e.g. `127.0.0.1/32,10.20.0.0/16`; also allows plain http to them.
   */
  OUTBOUND_ALLOW_CIDRS: z.string().default('').transform(parseCidrList),
  /**
   * The Prometheus endpoint (GET /metrics, docs/operations.md "Metrics"): a port, 0 for a free
   * one, or `off`. 9464 is the port of OpenTelemetry's Prometheus exporter.
   */
  METRICS_PORT: portOrOff('9464'),
  /** Where it listens: loopback unless the operator opens it (it has no login). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The Temporal SDK's own worker metrics (its core's Prometheus endpoint, on METRICS_HOST), in a
   * process that runs a worker: a port or `off` (the SDK cannot pick a free one and say which).
   */
  TEMPORAL_METRICS_PORT: portOrOff('9465').refine((v) => v !== 0, 'must be a port other than 0, or off'),
  /** Adds the organisation id as a label of the per-tenant counters: one series per organisation, so off by default. */
  METRICS_ORGANISATION_LABELS: bool.default(false),
  /** Where spans go over OTLP/HTTP (e.g. http://collector:4318; /v1/traces is appended); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  /** The `service.name` of the metrics' target_info and of every span. */
  OTEL_SERVICE_NAME: z.string().min(1).default('backoffice'),
  /** How long finished rows are kept (RETENTION_*; docs/operations.md "Retention"). */
  ...retentionShape,
});

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const MAX_DELAY_MS = 7 * 24 * 3_600_000;
/** Attempts of one webhook request at most: the schedule's length (an activity refuses a later one). */
export const WEBHOOK_MAX_ATTEMPTS = 20;

/** `0,500ms,5s,5m,2h`: 1 to 20 delays, each 0 or a whole number with a unit, at most 7 days. */
function parseSchedule(text: string, ctx: z.RefinementCtx): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const delays = parts.map((p) => {
    if (p === '0') return 0;
    const m = /^(\d{1,9})(ms|s|m|h)$/.exec(p);
    return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
  });
  if (parts.length > WEBHOOK_MAX_ATTEMPTS || delays.some((d) => !(d >= 0 && d <= MAX_DELAY_MS))) {
    ctx.addIssue({ code: 'custom', message: 'must be 1 to 20 comma-separated delays, each 0 or a number with ms, s, m or h (at most 7 days), e.g. 0,5s,5m,2h' });
    return z.NEVER;
  }
  return delays;
}

/** 32 bytes in base64 or base64url, padded or not. */
export function isKey32(text: string): boolean {
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(text) && Buffer.from(text, 'base64').length === 32;
}

export type TrustProxy = boolean | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** What Express's `trust proxy` takes: a boolean, or a list of addresses, ranges and names. */
function parseTrustProxy(text: string, ctx: z.RefinementCtx): TrustProxy {
  const value = text.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  // A zero-length prefix would be "everyone" in disguise; Express refuses it too.
  const bad = parts.find((p) => !PROXY_NAMES.has(p) && !(parseCidr(p) && !/\/0+$/.test(p)));
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must be false, true, or comma-separated proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal), e.g. 10.0.0.5,10.1.0.0/16; "${bad}" is not one` });
    return z.NEVER;
  }
  return parts;
}

function parseCidrList(text: string, ctx: z.RefinementCtx): Cidr[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  const cidrs = parts.map(parseCidr);
  const bad = parts.find((_p, i) => cidrs[i] === null);
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must be comma-separated CIDR ranges such as 127.0.0.1/32,fd00::/8; "${bad}" is not one` });
    return z.NEVER;
  }
  return cidrs as Cidr[];
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
  if (parsed.data.TEMPORAL_SERVER === 'cli' && parsed.data.TEMPORAL_ADDRESS) {
    throw new ConfigError('Invalid configuration: TEMPORAL_SERVER=cli starts a Temporal server of its own; unset TEMPORAL_ADDRESS (or TEMPORAL_SERVER)');
  }
  const temporalProblem = temporalSecurityProblem(parsed.data);
  if (temporalProblem) throw new ConfigError(`Invalid configuration: ${temporalProblem}`);
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
