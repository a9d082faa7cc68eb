import express, { type Request, type Response } from 'express';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../domain/errors';
import type { Logger } from '../log';
import { Authenticator, authorise, type Principal } from './middleware/auth';
import { parseJson, requireJson } from './middleware/body';
import { errorHandler, fromZod } from './middleware/errors';
import { requireForwardedHttps } from './middleware/https';
import { Idempotency, fingerprint } from './middleware/idempotency';
import { RateLimiter } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import type { RequestContext, RouteDef } from './route';
import { allRoutes } from './routes';
import { docsRouter } from './docs';

export const BASE_PATH = '/backoffice/v1';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  jwtSecret: string;
  /** Extra readiness checks for /health (database, Temporal). */
  health: () => Promise<Record<string, { ok: boolean; detail?: string }>>;
}

export function createApp(deps: AppDeps) {
  const { config, db, log } = deps;
  const authenticator = new Authenticator(db, deps.jwtSecret, config.AUTH_CACHE_SECONDS * 1000);
  const limiter = new RateLimiter(config.RATE_LIMIT_PER_SECOND);
  const idempotency = new Idempotency(db);
  const pipeline = { deps, authenticator, limiter, idempotency };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('etag', false);
  app.use(requestId);
  app.use(accessLog(log));
  app.use(requireForwardedHttps(config.TRUST_PROXY));

  const api = express.Router();
  api.use(requireJson, parseJson);
  const routes = allRoutes({ ...deps, onKeyRevoked: () => authenticator.evictAll() });
  for (const def of routes) {
    api[def.method](toExpressPath(def.path), (req, res) => runRoute(pipeline, def, req, res));
  }
  api.use(docsRouter(routes));
  app.use(BASE_PATH, api);
  app.use((_req, _res, next) => next(new AppError(404, 'NOT_FOUND', 'No such operation')));
  app.use(errorHandler(log));
  return { app, authenticator };
}

type Pipeline = { deps: AppDeps; authenticator: Authenticator; limiter: RateLimiter; idempotency: Idempotency };

/** auth → rate limit → validation → idempotency → handler → response (ARCHITECTURE "Flow of a request"). */
async function runRoute(p: Pipeline, def: RouteDef, req: Request, res: Response): Promise<void> {
  let principal: Principal | null = null;
  if (def.auth !== 'none') {
    principal = await p.authenticator.authenticate(req);
    p.limiter.take(principal.actor.id, principal.rateLimitPerSecond);
    authorise(principal, def.auth);
  }
  const params = parsePart(def.params, req.params);
  const query = parsePart(def.query, req.query);
  const body = parsePart(def.body, req.body ?? {});
  const ctx: RequestContext = {
    organisationId: principal?.organisationId ?? '',
    actor: principal?.actor ?? { type: 'api_key', id: 'anonymous', kind: 'PUBLIC', scopes: [], isAdmin: false },
    requestId: String(res.locals.requestId),
    db: p.deps.db,
    config: p.deps.config,
  };
  res.locals.principal = principal;

  const key = req.method === 'POST' ? req.header('idempotency-key') : undefined;
  const scope = principal && { organisationId: principal.organisationId, credentialId: principal.actor.id };
  if (key !== undefined && scope) {
    const replay = await p.idempotency.claim(scope, key, fingerprint(req.method, req.originalUrl, req.body));
    if (replay) {
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(replay.status).json(replay.body);
      return;
    }
  }
  const status = def.status ?? 200;
  let result: unknown;
  try {
    result = await def.handler({ ctx, params, query, body });
    if (p.deps.config.RESPONSE_VALIDATION) checkResponse(def, result);
  } catch (err) {
    if (key !== undefined && scope) await settleKey(p, scope, key, err);
    throw err;
  }
  if (key !== undefined && scope) await p.idempotency.complete(scope, key, { status, body: redact(result ?? null, def.secretFields) });
  res.status(status).json(result ?? null);
}

/** A handled client error is remembered like a success; anything else frees the key for a retry. */
async function settleKey(p: Pipeline, scope: { organisationId: string; credentialId: string }, key: string, err: unknown) {
  if (err instanceof AppError && err.status < 500) {
    const body = { code: err.code, message: err.message, ...(err.attribute ? { attribute: err.attribute } : {}) };
    await p.idempotency.complete(scope, key, { status: err.status, body });
  } else {
    await p.idempotency.release(scope, key);
  }
}

function redact(body: unknown, fields: string[] | undefined): unknown {
  if (!fields || typeof body !== 'object' || body === null) return body;
  return { ...body, ...Object.fromEntries(fields.map((f) => [f, null])) };
}

function parsePart(schema: RouteDef['body'], value: unknown) {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

/** In tests every response is checked against its documented schema, so the docs cannot drift. */
function checkResponse(def: RouteDef, result: unknown) {
  const parsed = def.response.safeParse(result);
  if (!parsed.success) {
    throw new Error(`Response of ${def.operationId} does not match its schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
  }
}

function toExpressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function accessLog(log: Logger) {
  return (req: Request, res: Response, next: () => void) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const principal = res.locals.principal as Principal | null | undefined;
      log.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          org: principal?.organisationId,
          actor: principal?.actor.id,
        },
        'request',
      );
    });
    next();
  };
}
