/**
 * The Temporal worker: hosts src/workflows and the given activities on one task queue.
 * Used in-process by the API (RUN_WORKER=true) and standalone via `npm run worker`.
 */
import { availableParallelism } from 'node:os';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities } from '../activities';
import { domainErrors } from '../activities/errors';
import { keepAlive } from '../activities/keep-alive';
import { ConfigError, loadConfigOrExit } from '../config';
import { createLogger } from '../log';
import { observeDatabase } from '../telemetry/database';
import { startTelemetry } from '../telemetry/start';
import { activityTracing, workflowSpanSinks, WORKFLOW_TRACING_MODULE } from '../telemetry/workflow-spans';
import { installSdkRuntime } from './sdk-runtime';
import { openWorkerDeps } from './worker-deps';
import { embeddedConnectionOptions, isLoopback, temporalConnectionOptions, type TemporalConnectionOptions } from './connection';
import { prebuiltWorkflowBundle } from './workflow-bundle';

export interface StartWorkerOptions {
  /** host:port of the Temporal frontend. */
  address: string;
  /** TLS and API key (src/temporal/connection.ts); the embedded server: its key, no TLS. */
  tls?: TemporalConnectionOptions['tls'];
  apiKey?: string;
  namespace?: string;
  taskQueue: string;
  activities: object;
  /** Defaults to src/workflows; the SDK bundles it (about 1.5-2 s). */
  workflowsPath?: string;
  /** A bundle made beforehand (bundleWorkflowCode), e.g. while the database starts; wins over workflowsPath. */
  workflowBundle?: WorkflowBundleOption;
  /**
   * Spans of workflow and activity code (OTEL_EXPORTER_OTLP_ENDPOINT set): the tracing
   * interceptors and their sink. A workflowBundle given must have been made with
   * WORKFLOW_TRACING_MODULE; the prebuilt one has none.
   */
  tracing?: boolean;
  /**
   * Threads running workflow code. The SDK default (1) caps throughput on a busy worker; 2 gave
   * ~1.7x the workflows/s on 2 CPUs (bench/temporal.ts) at the cost of a second sandbox's memory.
   */
  workflowThreadPoolSize?: number;
}

export interface RunningWorker {
  worker: Worker;
  connection: NativeConnection;
  /** Settles when the worker stops; rejects if it failed (e.g. lost the server for good). */
  done: Promise<void>;
  /** Stops polling, waits for in-flight tasks, closes the connection. Safe to call twice. */
  shutdown(): Promise<void>;
}

export async function startWorker(opts: StartWorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({
    address: opts.address,
    ...(opts.tls !== undefined ? { tls: opts.tls } : {}),
    ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    // The SDK gzips every request by default; over loopback (the embedded server) that only costs CPU.
    ...(isLoopback(opts.address) ? { grpcCompression: { codec: 'none' as const } } : {}),
  });
  let worker: Worker;
  try {
    worker = await Worker.create({
      connection,
      namespace: opts.namespace ?? 'default',
      taskQueue: opts.taskQueue,
      activities: opts.activities,
      // Only with tracing on: the workflow interceptors make spans in every workflow's sandbox even
      // with nothing to export (+70-90% worker CPU per small workflow: docs/operations.md "Overhead").
      // Tracing first, so that its span holds the whole activity.
      interceptors: {
        activity: [...(opts.tracing ? [activityTracing] : []), keepAlive, domainErrors],
        // A bundle given was made with them (in-process-worker.ts).
        ...(opts.tracing && !opts.workflowBundle ? { workflowModules: [WORKFLOW_TRACING_MODULE] } : {}),
      },
      ...(opts.tracing ? { sinks: workflowSpanSinks() } : {}),
      ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: opts.workflowsPath ?? require.resolve('../workflows') }),
      ...(opts.workflowThreadPoolSize ? { workflowThreadPoolSize: opts.workflowThreadPoolSize } : {}),
    });
  } catch (err) {
    await connection.close();
    throw err;
  }
  const done = worker.run();
  // Callers who never await `done` must not get an unhandled rejection; the error stays on `done`.
  done.catch(() => undefined);
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (closing ??= (async () => {
      // The SDK's runtime may already be stopping it on SIGINT/SIGTERM; shutdown() would then throw.
      if (worker.getState() === 'RUNNING') worker.shutdown();
      try {
        await done;
      } finally {
        await connection.close();
      }
    })());
  return { worker, connection, done, shutdown };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit((c) => {
    if (!c.TEMPORAL_ADDRESS && c.TEMPORAL_EMBEDDED_PORT === 0) {
      throw new ConfigError('Invalid configuration: TEMPORAL_ADDRESS is required when TEMPORAL_EMBEDDED_PORT is 0 (the embedded server\'s port is not known)');
    }
  });
  const log = createLogger(config.LOG_LEVEL);
  // Unset: the embedded Temporal server of a service running on this machine.
  const address = config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_EMBEDDED_PORT}`;
  const { TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue } = config;
  const telemetry = await startTelemetry(config, log, 'worker');
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined;
  installSdkRuntime(config, log);
  const resources = openWorkerDeps(config, log);
  observeDatabase(resources.deps.pool, resources.poolSize, log, { backlog: false });
  try {
    const running = await startWorker({
      address,
      // The embedded server's key sits in the data directory the service shares with this worker.
      ...(config.TEMPORAL_ADDRESS ? temporalConnectionOptions(config) : embeddedConnectionOptions(config)),
      namespace,
      taskQueue,
      activities: createActivities(resources.deps),
      // Compiled (npm run worker): the bundle scripts/build.mjs made; under tsx, src/workflows.
      // Tracing: bundled at start with the interceptors.
      ...(tracing ? { tracing } : { workflowBundle: prebuiltWorkflowBundle() }),
      // A dedicated worker process may use its cores for workflow code.
      workflowThreadPoolSize: Math.min(4, Math.max(1, availableParallelism())),
    });
    log.info({ address, namespace, taskQueue }, 'worker started');
    const stop = (signal: NodeJS.Signals): void => {
      log.info({ signal }, 'worker stopping');
      void running.shutdown();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await running.done;
    await running.shutdown();
    log.info('worker stopped');
  } finally {
    await resources.close();
    await telemetry.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`Worker failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
