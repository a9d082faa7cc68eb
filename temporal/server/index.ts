/**
 * The embedded Temporal server: Temporal's gRPC WorkflowService on one port, so the unmodified
 * SDK client and worker run against it as against a Temporal cluster, and optionally Temporal's
 * HTTP API (what the Temporal Web UI reads) on another, calling the same handlers. With `dataDir` every
 * accepted change is fsynced before it is acknowledged; without it, state lives in memory.
 *
 * This file is the package's only entry (README.md "Use"): the server, the API key file its callers
 * share, its Web UI, and Temporal's own dev server, the real server it is measured against.
 */
import * as path from 'path';
import * as grpc from '@grpc/grpc-js';
import { Store } from './store/log';
import { Segments } from './store/segments';
import { Namespaces } from './namespaces';
import { Engine, Logger, Tx } from './engine/engine';
import type { RunState } from './engine/state';
import { workflowDeadlines } from './engine/workflow-tasks';
import { activityDeadlines } from './engine/activities';
import { recover } from './engine/recovery';
import { addServices, OPERATOR_SERVICE, Services, WORKFLOW_SERVICE } from './grpc/service';
import { workflowHandlers } from './grpc/workflows';
import { workerHandlers } from './grpc/worker';
import { readHandlers } from './grpc/read';
import { operatorHandlers } from './grpc/operator';
import { snapshotRecords } from './store/snapshot';
import { startHttpApi, HttpApi } from './http/server';
import { Schedules } from './schedules/scheduler';
import { scheduleHandlers } from './grpc/schedules';
import { bearerCheck } from './credential';

export { loadOrCreateApiKey } from './credential';
export { startTemporalUi, type TemporalUi, type TemporalUiOptions } from './ui-server';
export { uiBuildDir } from './ui-build';
export { startTemporalCliServer, type TemporalCliOptions, type TemporalCliServer } from './cli-server';

export interface TemporalServerOptions {
  host?: string;
  /** 0 = random free port. */
  port?: number;
  dataDir?: string;
  /** Port of the HTTP API (Temporal's `/api/v1/...` routes, on `host`); unset = no HTTP API, 0 = random. */
  httpPort?: number;
  logger?: (level: string, msg: string, fields?: object) => void;
  /**
   * Every call must carry `Authorization: Bearer <apiKey>` (credential.ts), else UNAUTHENTICATED
   * (HTTP 401). Unset: no door (the conformance tests; never the service's own server).
   */
  apiKey?: string;
}

export interface TemporalServer {
  /** 'host:port' */
  address: string;
  /** 'host:port' of the HTTP API, when `httpPort` was given. */
  httpAddress?: string;
  close(): Promise<void>;
}

export async function startTemporalServer(opts: TemporalServerOptions = {}): Promise<TemporalServer> {
  const log: Logger = opts.logger ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  let engine: Engine | undefined;
  let schedules: Schedules | undefined;
  const { store, loaded } = Store.open<RunState>(opts.dataDir, () => snapshotRecords(engine!, schedules));
  const namespaces = new Namespaces(loaded.namespaces);
  // Closed runs live on disk, in segments next to the log (store/segments.ts).
  const segments = opts.dataDir ? new Segments(path.join(opts.dataDir, 'closed'), loaded.closed.map((c) => c.at)) : undefined;
  engine = new Engine(store, namespaces, log, segments);
  engine.deadlines.handle({ ...workflowDeadlines(engine), ...activityDeadlines(engine) });
  const def = namespaces.ensureDefault();
  if (def) {
    const tx = new Tx();
    tx.ns.push(def);
    await engine.commit(tx);
  }
  recover(engine, loaded);
  schedules = new Schedules(engine, loaded.schedules);
  schedules.start();
  const e0 = engine;
  const sweep = (): void => void e0.purgeExpired().catch((err) => log('error', 'retention purge failed', { error: String(err) }));
  // A server that was down past a retention period deletes at once, not at its first sweep.
  sweep();
  const purge = setInterval(sweep, 10 * 60_000);
  purge.unref();

  const server = new grpc.Server({
    'grpc.max_receive_message_length': 128 * 1024 * 1024,
    'grpc.max_send_message_length': 128 * 1024 * 1024,
  });
  // One set of handlers, served over gRPC and (optionally) HTTP.
  const read = readHandlers(engine);
  const services: Services = {
    [WORKFLOW_SERVICE]: { ...workflowHandlers(engine), ...workerHandlers(engine), ...read, ...scheduleHandlers(engine, schedules, read.CountWorkflowExecutions) },
    [OPERATOR_SERVICE]: operatorHandlers(engine),
  };
  const authorised = opts.apiKey === undefined ? () => true : bearerCheck(opts.apiKey);
  addServices(server, services, log, authorised);
  let port: number;
  let httpApi: HttpApi | undefined;
  try {
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${host}:${opts.port ?? 7233}`, grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    if (opts.httpPort !== undefined) httpApi = await startHttpApi({ host, port: opts.httpPort, services, log, authorised });
  } catch (e) {
    server.forceShutdown();
    await engine.shutdown();
    throw e;
  }
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  log('info', 'temporal server listening', {
    address,
    httpAddress: httpApi?.address ?? null,
    dataDir: opts.dataDir ?? null,
    runs: loaded.runs.length,
    closedOnDisk: loaded.closed.length,
    schedules: loaded.schedules.length,
  });
  let closing: Promise<void> | undefined;
  const e = engine;
  return {
    address,
    httpAddress: httpApi?.address,
    close: () =>
      (closing ??= (async () => {
        // Answer the long polls first so workers see an empty poll rather than a hang.
        clearInterval(purge);
        const shut = e.shutdown();
        const httpClosed = httpApi?.close();
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            server.forceShutdown();
            resolve();
          }, 2000);
          server.tryShutdown(() => {
            clearTimeout(t);
            resolve();
          });
        });
        await httpClosed;
        await shut;
        log('info', 'temporal server stopped', { address });
      })()),
  };
}
