import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { Config } from '../config';
import { registerSearchAttributes } from './search-attributes';
import { embeddedConnectionOptions, temporalConnectionOptions, type TemporalConnectionOptions } from './connection';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import { startTemporalCliServer } from '@backoffice/temporal-server';
import { startEmbeddedServer } from './embedded-server';
import type { prepareInProcessWorker } from './in-process-worker';

export interface TemporalHandle {
  address: string;
  /** 'host:port' of the embedded server's HTTP API: there when the Temporal UI is on (TEMPORAL_UI_PORT). */
  httpAddress?: string;
  /** The embedded server's API key: what the Temporal UI server passes on (none for other servers). */
  apiKey?: string;
  /** The Web UI of the Temporal CLI's dev server (TEMPORAL_SERVER=cli), which serves its own. */
  uiUrl?: string;
  /** host:port of every listener of the server this process started (none with TEMPORAL_ADDRESS). */
  ownAddresses: string[];
  connection: Connection;
  /** The workflow client of the configured namespace: the API starts workflows with it. */
  client: Client;
  ping(): Promise<{ ok: boolean; detail?: string }>;
  /**
   * Settles only when the embedded server's thread ended without close() asking it to (an
   * uncaught exception in the engine): the service must then stop, not run on half-alive.
   * Never settles with TEMPORAL_ADDRESS or TEMPORAL_SERVER=cli.
   */
  failed: Promise<Error>;
  /**
   * Runs the project's worker in this process on the service's database; a no-op with
   * RUN_WORKER=false. `afterWrite` is called when an activity committed workflow intents.
   */
  startWorker(database: Database, afterWrite?: () => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to TEMPORAL_ADDRESS, or starts a Temporal server when it is unset: the embedded one
 * (state in <DATA_DIR>/temporal), or with TEMPORAL_SERVER=cli the Temporal CLI's dev server
 * (state in <DATA_DIR>/temporal-cli.db), stopped again by close(). The worker starts later, once
 * the database is up (startWorker), unless RUN_WORKER=false (at scale, workers are separate
 * processes).
 */
export async function startTemporal(config: Config, log: Logger): Promise<TemporalHandle> {
  // Loaded only with the worker on (in-process-worker.ts); preparing it starts the workflow bundle
  // while the caller starts the database.
  const startInProcessWorker: ReturnType<typeof prepareInProcessWorker> | undefined = config.RUN_WORKER
    ? (require('./in-process-worker') as typeof import('./in-process-worker')).prepareInProcessWorker(config, log)
    : undefined;
  const closers: Array<() => Promise<void>> = [];
  const own = config.TEMPORAL_ADDRESS ? undefined : await startOwnServer(config, log);
  if (own) closers.push(own.close);
  const address = config.TEMPORAL_ADDRESS ?? own!.address;
  // A cluster: its TLS and API key. The embedded server: its key, in the clear on loopback.
  const security = own ? own.security : temporalConnectionOptions(config);
  let connection: Connection;
  try {
    connection = await Connection.connect({ address, ...security });
    closers.push(() => connection.close());
    // Every Temporal server, the embedded one too, takes only registered custom attributes.
    await registerSearchAttributes(connection, config.TEMPORAL_NAMESPACE, log);
  } catch (err) {
    // A dev server is a child process: it must not outlive a failed start.
    for (const fn of closers.reverse()) await fn().catch(() => undefined);
    throw err;
  }
  // Starts and signals carry the active trace into the workflow's headers (docs/operations.md "Traces").
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } });
  return {
    address,
    httpAddress: own?.httpAddress,
    apiKey: own?.apiKey,
    uiUrl: own?.uiUrl,
    ownAddresses: own?.ownAddresses ?? [],
    connection,
    client,
    failed: own?.failed ?? new Promise<Error>(() => undefined),
    async startWorker(database, afterWrite) {
      if (!startInProcessWorker) return;
      closers.push(await startInProcessWorker({ address, ...security }, database, afterWrite));
    },
    async ping() {
      try {
        await connection.workflowService.getSystemInfo({});
        return { ok: true };
      } catch (err) {
        return { ok: false, detail: (err as Error).message.slice(0, 200) };
      }
    },
    async close() {
      for (const fn of closers.reverse()) await fn();
    },
  };
}

type OwnServer = Pick<TemporalHandle, 'address' | 'httpAddress' | 'uiUrl' | 'ownAddresses' | 'apiKey'> & {
  security: TemporalConnectionOptions;
  failed?: Promise<Error>;
  close(): Promise<void>;
};

/** The server TEMPORAL_SERVER names, on 127.0.0.1 and the configured ports. */
async function startOwnServer(config: Config, log: Logger): Promise<OwnServer> {
  if (config.TEMPORAL_SERVER === 'cli') {
    const cli = await startTemporalCliServer({
      bin: config.TEMPORAL_CLI,
      dbFile: path.join(config.dataDir, 'temporal-cli.db'),
      pidFile: path.join(config.dataDir, 'temporal-cli.pid'),
      host: '127.0.0.1',
      port: config.TEMPORAL_EMBEDDED_PORT,
      uiPort: config.TEMPORAL_UI_PORT,
      uiHost: config.TEMPORAL_UI_HOST,
      namespace: config.TEMPORAL_NAMESPACE,
      log: (level, msg, fields) => log[level]({ ...fields }, msg),
    });
    const ui = cli.uiUrl ? [new URL(cli.uiUrl).host] : [];
    // The CLI's dev server has no door (docs/temporal.md): a tool for tests and development.
    return { address: cli.address, uiUrl: cli.uiUrl, ownAddresses: [cli.address, cli.httpAddress, ...ui], security: {}, close: cli.stop };
  }
  // In a worker thread of this process (embedded-server.ts); its log lines come back to `log`.
  const security = embeddedConnectionOptions(config);
  const server = await startEmbeddedServer(
    {
      apiKey: security.apiKey,
      host: '127.0.0.1',
      port: config.TEMPORAL_EMBEDDED_PORT,
      // Only the UI reads it (same origin, through the UI server): any free loopback port.
      httpPort: config.TEMPORAL_UI_PORT === undefined ? undefined : 0,
      dataDir: path.join(config.dataDir, 'temporal'),
    },
    log,
  );
  log.info({ address: server.address }, 'embedded Temporal server started');
  const ownAddresses = [server.address, ...(server.httpAddress ? [server.httpAddress] : [])];
  return {
    address: server.address, httpAddress: server.httpAddress, ownAddresses, apiKey: security.apiKey,
    security, failed: server.failed, close: () => server.close(),
  };
}
