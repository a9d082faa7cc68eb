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
import { OutboxDispatcher } from './outbox-dispatcher';
import { resumePlanWorkflows } from './plan-workflows';
import { sealAtStart } from './seal-secrets';
import { resumeWebhookDeliveries } from './webhook-workflows';
import { startTemporal, type TemporalHandle } from './temporal';
import { ensureRecurringSchedules } from './schedules';
import { WorkflowReconciler } from './workflow-reconciler';
import { settleClosedWorkflow } from './workflow-settlements';
import { loadTls } from './tls';

export interface RunningService {
  url: string;
  databaseUrl: string;
  temporalAddress: string;
  /** The embedded Temporal server's HTTP API, for the Temporal UI (src/main.ts). */
  temporalHttpAddress?: string;
  /** The Temporal CLI dev server's own Web UI (TEMPORAL_SERVER=cli). */
  temporalUiUrl?: string;
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
  // Temporal (server start, worker bundling) and the database are independent: start both at once.
  const temporalStarting = startTemporal(config, log);
  // Awaited once the database is up; a failure before then must wait for it, not end the process.
  temporalStarting.catch(() => undefined);
  let temporal: TemporalHandle | undefined;
  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const embedded = await startEmbeddedDatabase(config.dataDir, { maxConnections: config.DATABASE_POOL_SIZE + 5, log });
      closers.push(() => embedded.close());
      databaseUrl = embedded.url;
      registerOwnListener(new URL(embedded.url).port);
      log.info({ dataDir: config.dataDir }, 'embedded database started');
    }
    await applyMigrations(databaseUrl, log);
    // The embedded database's connections share one backend session, so named statements would collide.
    const database = openDatabase(databaseUrl, { poolSize: config.DATABASE_POOL_SIZE, namedStatements: Boolean(config.DATABASE_URL) });
    closers.push(() => database.close());
    const db = database.prisma;
    await sealAtStart(db, config, log);

    const credentials = await bootstrapIfEmpty(db);
    if (credentials) {
      const file = writeCredentials(config, credentials);
      log.warn({ file }, 'first start: created an organisation, an admin user and API keys');
      printCredentials(credentials, file);
    }

    const running = (temporal = await temporalStarting);
    // Outbound requests must not reach the ports of the Temporal server started here (src/outbound).
    running.ownAddresses.forEach((a) => registerOwnListener(a.split(':').pop()));
    closers.push(() => running.close());
    await running.startWorker(db);
    await ensureRecurringSchedules(running.client, config.TEMPORAL_TASK_QUEUE, log);
    const settleDeps = { client: running.client, db, config, log };
    const reconciler = config.WORKFLOW_RECONCILE_MS ? new WorkflowReconciler(settleDeps) : undefined;
    // Before the resumes: a plan whose workflow an operator ended is no longer POSTED, so it is not restarted.
    await reconciler?.pass();
    await resumePlanWorkflows(running.client, db, config, log);
    await resumeWebhookDeliveries(running.client, db, config, log, (run) => settleClosedWorkflow(settleDeps, run));
    if (reconciler) {
      reconciler.start(config.WORKFLOW_RECONCILE_MS);
      closers.push(() => reconciler.close());
    }
    const dispatcher = config.OUTBOX_DISPATCHER
      ? new OutboxDispatcher(database.pool, running.client, config, log, { pollMs: config.OUTBOX_POLL_MS, leaseSeconds: 30 })
      : undefined;
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
    return { url, databaseUrl, temporalAddress: running.address, temporalHttpAddress: running.httpAddress, temporalUiUrl: running.uiUrl, credentials, close };
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
