import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Config } from '../config';
import type { Logger } from '../log';

let installed = false;

/**
 * The SDK's runtime, once per process that runs a worker: its logs go through our JSON logger,
 * its own worker metrics (polls, task latencies, slots: temporal_*) to a Prometheus endpoint of
 * its core on METRICS_HOST:TEMPORAL_METRICS_PORT (docs/operations.md "Temporal's worker
 * metrics"), and it does not react to signals itself: the entry point decides the shutdown order.
 */
export function installSdkRuntime(config: Pick<Config, 'METRICS_HOST' | 'TEMPORAL_METRICS_PORT'>, log: Logger): void {
  if (installed) return;
  installed = true;
  const level: LogLevel = log.isLevelEnabled('debug') ? 'DEBUG' : log.isLevelEnabled('info') ? 'INFO' : 'WARN';
  const methods = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  const host = config.METRICS_HOST.includes(':') ? `[${config.METRICS_HOST}]` : config.METRICS_HOST;
  try {
    Runtime.install({
      shutdownSignals: [],
      logger: new DefaultLogger(level, (entry) => log[methods[entry.level]]({ temporal: true, ...entry.meta }, entry.message)),
      ...(config.TEMPORAL_METRICS_PORT !== undefined
        ? { telemetryOptions: { metrics: { prometheus: { bindAddress: `${host}:${config.TEMPORAL_METRICS_PORT}` } } } }
        : {}),
    });
  } catch (err) {
    // The core binds its endpoint here: a port in use is the operator's to change.
    throw new Error(`TEMPORAL_METRICS_PORT ${config.TEMPORAL_METRICS_PORT} on ${config.METRICS_HOST}: ${(err as Error).message} (TEMPORAL_METRICS_PORT=off turns the endpoint off)`);
  }
  if (config.TEMPORAL_METRICS_PORT !== undefined) log.info({ url: `http://${host}:${config.TEMPORAL_METRICS_PORT}/metrics` }, 'Temporal worker metrics endpoint listening');
}
