import type { AddressInfo } from 'node:net';
import { createApp } from './api/app';
import { createServer } from './api/server';
import type { Config } from './config';
import { protectDataDir } from './data-dir';
import { openDatabase, type Db } from './db/client';
import { startEmbeddedDatabase } from './db/embedded';
import { applyMigrations } from './db/migrate';
import { bootstrapIfEmpty, type BootstrapCredentials } from './domain/identity/bootstrap';
import type { Logger } from './log';
import { registerOwnListener } from './outbound';
import { loadJwtSecret, writeCredentials } from './secrets';
import { OutboxDispatcher } from './temporal/dispatcher';
import { sealAtStart } from './seal-secrets';
import { startTemporal, type TemporalHandle } from './temporal/runtime';
import { ensureRecurringSchedules } from './temporal/schedules';
import { WorkflowReconciler } from './temporal/reconciler';
import { loadTls } from './tls';
import { observeDatabase } from './telemetry/database';
import { startTelemetry } from './telemetry/start';

export interface RunningService {
  url: string;
  databaseUrl: string;
  temporalAddress: string;
  /** The embedded Temporal server's HTTP API, for the Temporal UI (src/main.ts). */
  temporalHttpAddress?: string;
  /** The embedded Temporal server's API key (its door): the Temporal UI server passes it on. */
  temporalApiKey?: string;
  /** The Temporal CLI dev server's own Web UI (TEMPORAL_SERVER=cli). */
  temporalUiUrl?: string;
  /** The Prometheus endpoint (METRICS_PORT), unless off. */
  metricsUrl?: string;
  credentials: BootstrapCredentials | null;
  close(): Promise<void>;
}

/**
 * Starts the whole service in this process. Embedded parts (database, Temporal server) are
 * started only when their address is not configured (ARCHITECTURE.md, two shapes).
 */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const madePrivate = protectDataDir(config.dataDir);
  if (madePrivate) log.info({ dataDir: config.dataDir, entries: madePrivate }, 'data directory: removed the permissions of group and others');
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const fn of closers.splice(0).reverse()) await fn().catch((err) => log.error({ err }, 'shutdown step failed'));
  };
  // Without its database or its Temporal server (threads of this process) the service would only
  // answer errors: it stops, so that a supervisor (or the operator) restarts it. The rest closes
  // first (in-flight requests end, the worker stops), bounded by a timer since a close may wait on
  // the dead part; then exit(1), as main.ts keeps the process alive until a signal.
  const stopOnFailure = (part: string, err: Error) => {
    log.error({ err }, `${part} stopped unexpectedly`);
    setTimeout(() => process.exit(1), 15_000).unref();
    void close().finally(() => process.exit(1));
  };
  // First: the instruments and the tracer the other parts record with.
  const telemetry = await startTelemetry(config, log, 'api');
  closers.push(() => telemetry.close());
  // Temporal (server start, worker bundling) and the database are independent: start both at once.
  const temporalStarting = startTemporal(config, log);
  // Awaited once the database is up; a failure before then must wait for it, not end the process.
  temporalStarting.catch(() => undefined);
  let temporal: TemporalHandle | undefined;
  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const embedded = await startEmbeddedDatabase(config.dataDir, {
        maxConnections: config.DATABASE_POOL_SIZE + 5,
        log,
        onFailure: (err) => stopOnFailure('embedded database', err),
      });
      closers.push(() => embedded.close());
      databaseUrl = embedded.url;
      registerOwnListener(new URL(embedded.url).port);
      log.info({ dataDir: config.dataDir }, 'embedded database started');
    }
    await applyMigrations(databaseUrl, log);
    // The embedded database's connections share one backend session, so named statements would collide.
    const database = openDatabase(databaseUrl, { poolSize: config.DATABASE_POOL_SIZE });
    closers.push(() => database.close());
    observeDatabase(database.pool, config.DATABASE_POOL_SIZE, log, { backlog: true });
    const db = database.prisma;
    await sealAtStart(db, config, log);

    const credentials = await bootstrapIfEmpty(db);
    if (credentials) {
      const file = writeCredentials(config, credentials);
      log.warn({ file }, 'first start: created an organisation, an admin user and API keys');
      printCredentials(credentials, file);
    }

    const running = (temporal = await temporalStarting);
    void running.failed.then((err) => stopOnFailure('embedded Temporal server', err));
    // Outbound requests must not reach the ports of the Temporal server started here (src/outbound).
    running.ownAddresses.forEach((a) => registerOwnListener(a.split(':').pop()));
    closers.push(() => running.close());
    // OUTBOX_DISPATCHER=false holds every start and signal this process's writes ask for (tests
    // use it to stop between a commit and its start); another replica's dispatcher performs them.
    const dispatcher = config.OUTBOX_DISPATCHER
      ? new OutboxDispatcher(database.pool, running.client, config, log, { pollMs: config.OUTBOX_POLL_MS, leaseSeconds: 30 })
      : undefined;
    // The in-process worker's writes (an automation's webhook request) kick it too.
    await running.startWorker(database, dispatcher ? () => dispatcher.kick() : undefined);
    await ensureRecurringSchedules(running.client, config.TEMPORAL_TASK_QUEUE, log);
    const reconciler = config.WORKFLOW_RECONCILE_MS ? new WorkflowReconciler({ client: running.client, db, config, log }) : undefined;
    // Before the first dispatch: a plan whose workflow an operator ended is no longer POSTED when its intents are performed.
    await reconciler?.pass();
    if (reconciler) {
      reconciler.start(config.WORKFLOW_RECONCILE_MS);
      closers.push(() => reconciler.close());
    }
    if (dispatcher) {
      dispatcher.start();
      closers.push(() => dispatcher.close());
    }

    const { app } = createApp({
      config,
      database,
      log,
      jwtSecret: loadJwtSecret(config),
      workflows: running.client,
      afterWrite: dispatcher ? () => dispatcher.kick() : undefined,
      dispatched: dispatcher ? () => dispatcher.flush() : undefined,
      health: async () => ({ database: await pingDatabase(db), temporal: await running.ping() }),
    });
    const tls = await loadTls(config);
    const server = createServer(app, tls, config.TRUST_PROXY);
    await new Promise<void>((resolve, reject) => {
      server.listener.once('error', reject);
      server.listener.listen(config.PORT, config.HOST, () => resolve());
    });
    closers.push(() => server.close());
    const port = (server.listener.address() as AddressInfo).port;
    registerOwnListener(port);
    const url = `https://localhost:${port}/backoffice/v1`;
    log.info({ url, certificate: tls.source, temporal: running.address }, 'listening');
    return { url, databaseUrl, temporalAddress: running.address, temporalHttpAddress: running.httpAddress, temporalApiKey: running.apiKey, temporalUiUrl: running.uiUrl, metricsUrl: telemetry.metricsUrl, credentials, close };
  } catch (err) {
    if (!temporal) await (await temporalStarting.catch(() => undefined))?.close();
    await close();
    throw err;
  }
}

async function pingDatabase(db: Db) {
  try {
    await db.$queryRaw`SELECT 1`;
    return { ok: true };
  } catch (err) {
    return { ok: false, detail: (err as Error).message.slice(0, 200) };
  }
}

function printCredentials(c: BootstrapCredentials, file: string) {
  process.stdout.write(
    [
      '',
      'First start: these credentials are shown once (also saved, mode 0600, in ' + file + ')',
      `  organisation id : ${c.organisation_id}`,
      `  secret api key  : ${c.secret_api_key}`,
      `  public api key  : ${c.public_api_key}`,
      `  admin user      : ${c.admin.username} / ${c.admin.password}`,
      '',
    ].join('\n') + '\n',
  );
}
