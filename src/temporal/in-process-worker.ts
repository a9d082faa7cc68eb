import { bundleWorkflowCode, Runtime } from '@temporalio/worker';
import { createActivities } from '../activities';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import { createMailer } from '../mail';
import type { TemporalConnectionOptions } from './connection';
import { WORKFLOW_TRACING_MODULE } from '../telemetry/workflow-spans';
import { installSdkRuntime } from './sdk-runtime';
import { startWorker } from './worker';
import { prebuiltWorkflowBundle } from './workflow-bundle';

export interface InProcessWorkerTarget extends TemporalConnectionOptions {
  address: string;
}

/**
 * The worker that `npm start` runs beside the API (RUN_WORKER, the default). Its own module, which
 * runtime.ts loads only when the worker is on: an API process with RUN_WORKER=false then loads
 * neither the SDK's worker (its native core and webpack) nor the activities and the mailer.
 * Preparing starts the workflow bundle (under tsx, 1.5-2 s) while the caller starts the database;
 * the returned function starts the worker on that database and answers how to stop it.
 */
export function prepareInProcessWorker(config: Config, log: Logger) {
  installSdkRuntime(config, log);
  // Compiled (npm start), the bundle was built with the code; with tracing on it is made at start
  // with the tracing interceptors (docs/operations.md "Traces"), as under tsx.
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined;
  const prebuilt = tracing ? undefined : prebuiltWorkflowBundle();
  const workflowInterceptorModules = tracing ? [WORKFLOW_TRACING_MODULE] : [];
  const bundling = prebuilt
    ? undefined
    : bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), workflowInterceptorModules, logger: Runtime.instance().logger });
  bundling?.catch(() => undefined);

  return async function start(target: InProcessWorkerTarget, database: Database, afterWrite?: () => void): Promise<() => Promise<void>> {
    const mail = createMailer(config);
    try {
      const worker = await startWorker({
        ...target,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        activities: createActivities({ db: database.prisma, pool: database.pool, mail, config, log, afterWrite }),
        workflowBundle: prebuilt ?? { code: (await bundling!).code },
        tracing,
        // One thread: a second costs ~50 MB of RSS idle, and beside the API (and, embedded, the
        // database and the Temporal server) it bought nothing: 600 automation runs gave 23-31
        // runs/s with either (docs/platform.md "Memory"). `npm run worker` takes more.
        workflowThreadPoolSize: 1,
      });
      log.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'Temporal worker running');
      return async () => {
        await worker.shutdown();
        mail.close();
      };
    } catch (err) {
      mail.close();
      throw err;
    }
  };
}
