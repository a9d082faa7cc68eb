/**
 * The Temporal worker: hosts src/workflows and the given activities on one task queue.
 * Used in-process by the API (RUN_WORKER=true) and standalone via `npm run worker`.
 */
import { availableParallelism } from 'node:os';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from './activities';

export interface StartWorkerOptions {
  /** host:port of the Temporal frontend. */
  address: string;
  namespace?: string;
  taskQueue: string;
  activities: object;
  /** Defaults to src/workflows; the SDK bundles it (about 1.5-2 s). */
  workflowsPath?: string;
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
      workflowsPath: opts.workflowsPath ?? require.resolve('./workflows'),
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

function isLoopback(address: string): boolean {
  const host = address.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

async function main(): Promise<void> {
  const env = process.env;
  const address = env.TEMPORAL_ADDRESS || '127.0.0.1:7233';
  const namespace = env.TEMPORAL_NAMESPACE || 'default';
  const taskQueue = env.TEMPORAL_TASK_QUEUE || 'backoffice';
  const running = await startWorker({
    address,
    namespace,
    taskQueue,
    activities: createActivities({}),
    // A dedicated worker process may use its cores for workflow code.
    workflowThreadPoolSize: Math.min(4, Math.max(1, availableParallelism())),
  });
  console.log(JSON.stringify({ msg: 'worker started', address, namespace, taskQueue }));
  const stop = (signal: NodeJS.Signals): void => {
    console.log(JSON.stringify({ msg: 'worker stopping', signal }));
    void running.shutdown();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.done;
  await running.shutdown();
  console.log(JSON.stringify({ msg: 'worker stopped' }));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
