/**
 * Temporal's HTTP API (the one its frontend serves on the HTTP port, and the Temporal UI reads):
 * every route derived from the descriptor's annotations, each calling the same handler the gRPC
 * service calls, in-process. JSON in and out follows protojson (protojson.ts); errors are
 * `{code, message, details}` with grpc-gateway's HTTP status for the gRPC code.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { status as Code } from '@grpc/grpc-js';
import { invoke, protoRoot, requestType, responseType, CallContext, Services, type Authorised, UNAUTHENTICATED_MESSAGE } from '../grpc/service';
import { ServiceError, toServiceError } from '../grpc/errors';
import type { Logger } from '../engine/engine';
import { deriveRoutes, matchRoute, Route } from './routes';
import { bytesToJson, fromJson, Json, JsonError, setParam, toJson, toMessage, TypeLike } from './protojson';
import { uiSettings } from './settings';

export interface HttpApiOptions {
  host: string;
  /** 0 = random free port. */
  port: number;
  services: Services;
  log: Logger;
  /** The same door as the gRPC port's (credential.ts): the `Authorization` header. */
  authorised: Authorised;
}

export interface HttpApi {
  /** 'host:port' */
  address: string;
  routes: Route[];
  close(): Promise<void>;
}

/** Temporal's frontend caps HTTP request bodies at gRPC's default message size. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** grpc-gateway's HTTPStatusFromCode. */
const HTTP_STATUS: Record<number, number> = {
  [Code.OK]: 200,
  [Code.CANCELLED]: 499,
  [Code.UNKNOWN]: 500,
  [Code.INVALID_ARGUMENT]: 400,
  [Code.DEADLINE_EXCEEDED]: 504,
  [Code.NOT_FOUND]: 404,
  [Code.ALREADY_EXISTS]: 409,
  [Code.PERMISSION_DENIED]: 403,
  [Code.RESOURCE_EXHAUSTED]: 429,
  [Code.FAILED_PRECONDITION]: 400,
  [Code.ABORTED]: 409,
  [Code.OUT_OF_RANGE]: 400,
  [Code.UNIMPLEMENTED]: 501,
  [Code.INTERNAL]: 500,
  [Code.UNAVAILABLE]: 503,
  [Code.DATA_LOSS]: 500,
  [Code.UNAUTHENTICATED]: 401,
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

export async function startHttpApi(opts: HttpApiOptions): Promise<HttpApi> {
  const routes = deriveRoutes();
  const server = http.createServer((req, res) => {
    serve(req, res).catch((e) => {
      opts.log('error', 'http request failed', { error: String((e as Error)?.stack ?? e) });
      if (!res.headersSent) sendError(res, new ServiceError(Code.INTERNAL, 'internal error'));
      else res.destroy();
    });
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, opts.host)) {
      send(res, 403, { code: Code.PERMISSION_DENIED, message: 'Host not allowed', details: [] });
      return;
    }
    if (!sameOriginOnly(req, res)) return;
    if (!opts.authorised(req.headers.authorization)) {
      send(res, 401, { code: Code.UNAUTHENTICATED, message: UNAUTHENTICATED_MESSAGE, details: [] });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const indent = url.searchParams.has('pretty') ? 2 : undefined;
    const verb = req.method ?? 'GET';
    if (url.pathname === '/api/v1/settings' && verb === 'GET') {
      send(res, 200, uiSettings(), indent);
      return;
    }
    let match;
    try {
      match = matchRoute(routes, verb, url.pathname);
    } catch {
      sendError(res, new ServiceError(Code.INVALID_ARGUMENT, 'malformed path escape'), indent);
      return;
    }
    if (match === undefined) return sendError(res, new ServiceError(Code.NOT_FOUND, 'Not Found'), indent);
    if (match === 'method-not-allowed') return sendError(res, new ServiceError(Code.UNIMPLEMENTED, 'Method Not Allowed'), indent);
    const { route, params } = match;
    const ctx = callContext(res);
    try {
      const body = route.body ? await readBody(req) : '';
      const request = buildRequest(route, params, url.searchParams, body);
      const out = await invoke(opts.services[route.service] ?? {}, route.method.name, request, ctx, opts.log);
      if (res.destroyed) return;
      const resType = responseType(route.method) as unknown as TypeLike;
      let json: Json;
      try {
        json = bytesToJson(resType, resType.encode(out).finish());
      } catch (e) {
        opts.log('error', 'response encoding failed', { method: route.method.name, error: String(e) });
        throw new ServiceError(Code.INTERNAL, `response encoding failed: ${(e as Error).message}`);
      }
      send(res, 200, json, indent);
    } catch (e) {
      if (res.destroyed) return;
      sendError(res, e instanceof JsonError ? new ServiceError(Code.INVALID_ARGUMENT, e.message) : toServiceError(e, route.method.name, opts.log), indent);
    }
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
  const address = `${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  return {
    address,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        // Open long polls were answered by the engine's shutdown; anything left gets 2 s.
        const force = setTimeout(() => server.closeAllConnections(), 2000);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** Body JSON, then the query string (unless the body is the whole request), then path values. */
function buildRequest(route: Route, params: Record<string, string>, query: URLSearchParams, body: string): object {
  const type = requestType(route.method) as unknown as TypeLike;
  let plain: Record<string, unknown> = {};
  if (route.body) {
    let json: unknown;
    try {
      json = body.trim() ? JSON.parse(body) : {};
    } catch (e) {
      throw new JsonError(`request body is not JSON: ${(e as Error).message}`);
    }
    plain = fromJson(type, route.body === '*' ? json : { [route.body]: json });
  }
  if (route.body !== '*') for (const key of new Set(query.keys())) setParam(type, plain, key, query.getAll(key));
  for (const [field, value] of Object.entries(params)) setParam(type, plain, field, [value]);
  return toMessage(type, plain);
}

function callContext(res: http.ServerResponse): CallContext {
  const cancels: (() => void)[] = [];
  let gone = false;
  res.on('close', () => {
    if (res.writableFinished) return;
    gone = true;
    for (const cb of cancels) cb();
  });
  return { onCancel: (cb) => (gone ? cb() : cancels.push(cb)), remainingMs: () => Infinity };
}

/** The body as text; more than `maxBytes` is not buffered and rejects. */
export function readBody(req: http.IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBytes) chunks.push(c);
    });
    req.on('end', () => (size > maxBytes ? reject(new JsonError('request body too large')) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/**
 * No cross-origin grants: its one browser client, the Temporal UI, calls it through the UI
 * server (same origin, ui-server.ts), which adds the credential. A request a page of another
 * origin sends is refused before anything runs; without CORS headers a page reads nothing.
 * Returns false when answered.
 */
function sameOriginOnly(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (!req.headers.origin) return true;
  send(res, 403, { code: Code.PERMISSION_DENIED, message: 'Origin not allowed', details: [] });
  return false;
}

/** Like Temporal's allowed-hosts check: loopback names, the bound host, anything on a wildcard bind. */
export function hostAllowed(header: string | undefined, bound: string): boolean {
  if (!header || WILDCARD.has(bound)) return true;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.replace(/:\d+$/, '');
  return LOOPBACK.has(name) || name === bound || name === `[${bound}]`;
}

function send(res: http.ServerResponse, status: number, body: unknown, indent?: number): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body, null, indent));
}

function sendError(res: http.ServerResponse, e: ServiceError, indent?: number): void {
  const details = e.detail
    ? [toJson(protoRoot.lookupType('google.protobuf.Any') as unknown as TypeLike, { type_url: `type.googleapis.com/${e.detail.typeName}`, value: e.detail.value })]
    : [];
  send(res, HTTP_STATUS[e.code] ?? 500, { code: e.code, message: e.message, details }, indent);
}
