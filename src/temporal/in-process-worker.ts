import { bundleWorkflowCode, DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { createActivities } from '../activities';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import { createMailer } from '../mail';
import type { TemporalConnectionOptions } from './connection';
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
  installRuntime(log);
  // Compiled (npm start), the bundle was built with the code.
  const prebuilt = prebuiltWorkflowBundle();
  const bundling = prebuilt
    ? undefined
    : bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: Runtime.instance().logger });
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

let runtimeInstalled = false;

/**
 * The SDK's logs go through our JSON logger, and the SDK does not react to signals itself:
 * main.ts decides the shutdown order (HTTP first, then the worker).
 */
function installRuntime(log: Logger) {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level: LogLevel = log.isLevelEnabled('debug') ? 'DEBUG' : log.isLevelEnabled('info') ? 'INFO' : 'WARN';
  const methods = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger(level, (entry) => log[methods[entry.level]]({ temporal: true, ...entry.meta }, entry.message)),
  });
}
