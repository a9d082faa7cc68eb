import express, { type Request, type Response } from 'express';
import type { Tx } from '../db/client';
import { pgSql, txSql, type OrgSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import { AppError, invalid } from '../domain/errors';
import type { Logger } from '../log';
import { Authenticator, authorise, type Principal } from './middleware/auth';
import { parseJson, requireJson } from './middleware/body';
import { errorBody, errorHandler, fromZod, toAppError } from './middleware/errors';
import { requireForwardedHttps } from './middleware/https';
import { Idempotency, type IdempotencyKeyRef } from './middleware/idempotency';
import { fromRecord, secretFieldsOf, toRecord } from './secret-fields';
import { RateLimiter } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { responseHeaders } from './middleware/response-headers';
import { serverTelemetry } from './middleware/telemetry';
import { assertStorableText, bodyFor } from './middleware/strict-input';
import { bodyRequired, runsInTransaction, type RequestContext, type RouteDef } from './route';
import { RouteTable } from './route-table';
import { allRoutes } from './routes';
import { docsRouter } from './docs';
import { trackingRouter } from './communications/tracking';
import { consoleRouter } from './console';
import { WRITE_TRANSACTION } from '../db/transaction';
import type { AppDeps } from './deps';

export const BASE_PATH = '/backoffice/v1';

export type { AppDeps };


export function createApp(deps: AppDeps) {
  const { config, database, log } = deps;
  const authenticator = new Authenticator(database.prisma, deps.jwtSecret, config.AUTH_CACHE_SECONDS * 1000);
  const limiter = new RateLimiter(config.RATE_LIMIT_PER_SECOND);
  const idempotency = new Idempotency(database.prisma, deps.jwtSecret);
  const pipeline = { deps, authenticator, limiter, idempotency };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  if (config.TRUST_PROXY === true) {
    log.warn('TRUST_PROXY=true trusts every peer: anyone who reaches the port directly can claim HTTPS and any client address; list the proxies instead (docs/security.md "Proxies")');
  }
  app.set('etag', false);
  app.use(serverTelemetry);
  app.use(requestId);
  app.use(responseHeaders);
  app.use(accessLog(log));
  app.use(requireForwardedHttps(config.TRUST_PROXY));

  const api = express.Router();
  api.use(requireJson, parseJson);
  const routes = allRoutes({ ...deps, onKeyRevoked: () => authenticator.evictAll() });
  const table = new RouteTable(routes);
  api.use((req, res, next) => {
    const match = table.find(req.method, req.path);
    if (match.kind === 'none') return next();
    if (match.kind === 'method') {
      res.setHeader('Allow', match.allowed.join(', '));
      return next(new AppError('METHOD_NOT_ALLOWED', `${req.method} is not an operation of this path; it has ${match.allowed.join(', ')}`));
    }
    // The template, for the request's metric and span (middleware/telemetry.ts).
    res.locals.route = `${BASE_PATH}${match.def.path}`;
    runRoute(pipeline, match.def, match.params, req, res).catch(next);
  });
  api.use(docsRouter(routes));
  // E-mail tracking (pixel, clicks): not JSON operations, outside the API key.
  app.use(`${BASE_PATH}/t`, trackingRouter(deps));
  app.use(BASE_PATH, api);
  // The web console (docs/console.md): static files beside the API, not an operation of it.
  app.use('/console', consoleRouter(config));
  app.use((_req, _res, next) => next(new AppError('NOT_FOUND', 'No such operation')));
  app.use(errorHandler(log));
  return { app, authenticator };
}

type Pipeline = { deps: AppDeps; authenticator: Authenticator; limiter: RateLimiter; idempotency: Idempotency };

/** The longest a write waits for the start of the workflow it asked for (RouteDef.waitForDispatch). */
const DISPATCH_WAIT_MS = 5_000;

/** `work`, or nothing once `ms` passed (the work goes on). */
async function bounded(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * auth → rate limit → strict input → validation → idempotency → prepare → handler (in one
 * transaction for writes) → response (ARCHITECTURE "Flow of a request").
 */
async function runRoute(p: Pipeline, def: RouteDef, pathParams: Record<string, string>, req: Request, res: Response): Promise<void> {
  let principal: Principal | null = null;
  if (def.auth !== 'none') {
    principal = await p.authenticator.authenticate(req);
    p.limiter.take(principal.actor.id, principal.rateLimitPerSecond);
    authorise(principal, def.auth);
  } else if (def.optionalCredential && Authenticator.sent(req)) {
    principal = await p.authenticator.authenticate(req);
    p.limiter.take(principal.actor.id, principal.rateLimitPerSecond);
  }
  res.locals.principal = principal;
  assertStorableText(pathParams);
  assertStorableText(req.query);
  const rawBody = bodyFor(req.body, !def.body ? 'none' : bodyRequired(def) ? 'required' : 'optional');
  assertStorableText(rawBody);
  const params = parsePart(def.params, pathParams);
  const query = def.query ? parsePart(def.query, req.query) : refuseQuery(req.query);
  const body = parsePart(def.body, rawBody);

  const organisationId = principal?.organisationId ?? '';
  const base = {
    organisationId,
    actor: principal?.actor ?? ANONYMOUS,
    requestId: String(res.locals.requestId),
    config: p.deps.config,
    clientAddress: req.ip ?? req.socket.remoteAddress ?? '',
  };
  const db = principal ? scopedClient(p.deps.database.prisma, organisationId) : NO_DATABASE;
  const sql = principal ? pgSql(p.deps.database.pool, organisationId) : NO_SQL;

  const key = req.method === 'POST' ? req.header('idempotency-key') : undefined;
  // Set only when this request carries a key and a credential to scope it to.
  const scope: IdempotencyKeyRef | undefined = principal && key !== undefined ? { organisationId, credentialId: principal.actor.id, key } : undefined;
  if (scope) {
    const replay = await p.idempotency.claim(scope, scope.key, p.idempotency.fingerprint(req.method, req.originalUrl, req.body));
    if (replay) {
      res.setHeader('Idempotent-Replayed', 'true');
      sendJson(res, replay.status, fromRecord(replay.body, secretFieldsOf(def.response), recordPlace(scope)));
      return;
    }
  }
  const statusOf = (result: unknown) => (def.also?.when(result) ? def.also.status : def.status ?? 200);
  // Secrets never lie in clear in the record: src/api/secret-fields.ts.
  const stored = (at: IdempotencyKeyRef, result: unknown) => ({ status: statusOf(result), body: toRecord(result ?? null, secretFieldsOf(def.response), recordPlace(at)) });
  let result: unknown;
  try {
    const prepared = def.prepare ? await def.prepare({ ctx: { ...base, db, sql }, params, query, body }) : undefined;
    if (runsInTransaction(def) && def.transaction === 'statement' && !scope) {
      result = await def.handler({ ctx: { ...base, db: NO_DATABASE_IN_SQL, sql }, params, query, body, prepared });
    } else if (runsInTransaction(def) && (def.transaction === 'sql' || def.transaction === 'statement')) {
      result = await inSqlTransaction(p, organisationId, async (txSql) => {
        const out = await def.handler({ ctx: { ...base, db: NO_DATABASE_IN_SQL, sql: txSql }, params, query, body, prepared });
        if (scope) await p.idempotency.completeSql(scope, stored(scope, out), txSql);
        return out;
      });
    } else if (runsInTransaction(def)) {
      result = await db.$transaction(async (tx) => {
        const out = await def.handler({ ctx: { ...base, db: tx, sql: txSql(tx, organisationId) }, params, query, body, prepared });
        // The replayable response commits with the change it describes.
        if (scope) await p.idempotency.complete(scope, stored(scope, out), tx);
        return out;
      }, WRITE_TRANSACTION);
    } else {
      result = await def.handler({ ctx: { ...base, db, sql }, params, query, body, prepared });
      if (scope) await p.idempotency.complete(scope, stored(scope, result));
    }
    if (def.waitForDispatch && p.deps.dispatched) await bounded(p.deps.dispatched(), DISPATCH_WAIT_MS);
    else if (def.method !== 'get') p.deps.afterWrite?.();
    if (def.afterCommit) await def.afterCommit({ ctx: { ...base, db, sql }, params, query, body, prepared });
    if (p.deps.config.RESPONSE_VALIDATION) checkResponse(def, result);
  } catch (err) {
    if (scope) await settleKey(p, scope, err, base.requestId);
    throw err;
  }
  sendJson(res, statusOf(result), result);
}

/**
 * Express's res.json turns a body of 1,000 bytes or more into a Buffer, which Node then writes
 * apart from the headers: two TLS records and two socket writes per response. Written as one
 * string, headers and body leave in one write (measured: docs/benchmarks.md).
 */
function sendJson(res: Response, status: number, value: unknown): void {
  if (value === undefined || value === null) {
    // An operation with nothing to say (spec 4.8's ad hoc return without a purchase): no body.
    res.statusCode = status;
    res.setHeader('Content-Length', 0);
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

const ANONYMOUS: RequestContext['actor'] = { type: 'api_key', id: 'anonymous', kind: 'PUBLIC', scopes: [], isAdmin: false };

/** A `ctx.db` that refuses every use, saying why. */
const refusingDb = (why: string) =>
  new Proxy({} as Tx, {
    get() {
      throw new Error(why);
    },
  });

/** Routes without a credential have no organisation, so no database of one. */
const NO_DATABASE = refusingDb('This route has no organisation: use the identity functions with the unscoped client');

/** In a `transaction: 'sql'` (or 'statement') route another connection could wait on ours (embedded database). */
const NO_DATABASE_IN_SQL = refusingDb("A transaction: 'sql' or 'statement' route uses ctx.sql only");

/**
 * The pipeline's own pg transaction: one connection from the shared pool, each statement
 * limited to WRITE_TRANSACTION.timeout.
 */
async function inSqlTransaction<T>(p: Pipeline, organisationId: string, fn: (sql: OrgSql) => Promise<T>): Promise<T> {
  const { pool } = p.deps.database;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${WRITE_TRANSACTION.timeout}`);
    const out = await fn(pgSql(client, organisationId));
    await client.query('COMMIT');
    return out;
  } catch (err) {
    // A connection that cannot even roll back is dropped, not returned to the pool.
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw err;
  } finally {
    client.release(broken);
  }
}

const NO_SQL: OrgSql = {
  rows() {
    throw new Error('This route has no organisation, so no organisation statements');
  },
};

function refuseQuery(query: Record<string, unknown>): undefined {
  const [name] = Object.keys(query);
  if (name !== undefined) throw invalid(name, `Unknown query parameter ${name}`);
  return undefined;
}

/** A handled client error is remembered like a success; anything else frees the key for a retry. */
async function settleKey(p: Pipeline, scope: IdempotencyKeyRef, err: unknown, requestId: string) {
  const mapped = toAppError(err);
  if (mapped.status < 500) {
    await p.idempotency.complete(scope, { status: mapped.status, body: errorBody(mapped, requestId) });
  } else {
    await p.idempotency.release(scope);
  }
}

/** Where a sealed secret of an idempotency record opens (the record's own key). */
const recordPlace = (scope: IdempotencyKeyRef) => `idempotency_records:${scope.organisationId}:${scope.credentialId}:${scope.key}`;

function parsePart(schema: RouteDef['body'], value: unknown) {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

/** In tests every response is checked against its documented schema, so the docs cannot drift. */
function checkResponse(def: RouteDef, result: unknown) {
  const parsed = (def.also?.when(result) ? def.also.response : def.response).safeParse(result);
  if (!parsed.success) {
    throw new Error(`Response of ${def.operationId} does not match its schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
  }
}

function accessLog(log: Logger) {
  return (req: Request, res: Response, next: () => void) => {
    // At LOG_LEVEL=warn and above there is no access log: skip the timing and the listener too.
    if (!log.isLevelEnabled('info')) return next();
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
