import path from 'node:path';
import { startTemporalUi, type TemporalUi } from '@backoffice/temporal-server';
import { loadConfigOrExit, type Config } from './config';
import { createLogger, type Logger } from './log';
import { registerOwnListener } from './outbound';
import { EMBEDDED_KEY_FILE } from './temporal/connection';
import { startService } from './service';

/** `npm start`: the service on the embedded default, or on whatever the environment names. */
async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL);
  const service = await startService(config, log);
  process.stdout.write(`Back-office API listening on ${service.url}\nTemporal frontend at ${service.temporalAddress}\n`);
  if (service.temporalApiKey) {
    const where = config.TEMPORAL_API_KEY ? 'TEMPORAL_API_KEY' : path.join(config.dataDir, EMBEDDED_KEY_FILE);
    process.stdout.write(`Temporal frontend and UI take the API key in ${where}\n`);
  }
  const ui = service.temporalHttpAddress && service.temporalApiKey ? await startUi(config, log, service.temporalHttpAddress, service.temporalApiKey) : undefined;
  if (ui) {
    registerOwnListener(new URL(ui.url).port);
    process.stdout.write(`Temporal UI: ${ui.url}\n`);
  }
  if (service.temporalUiUrl) process.stdout.write(`Temporal UI: ${service.temporalUiUrl} (temporal server start-dev)\n`);
  if (service.metricsUrl) process.stdout.write(`Metrics: ${service.metricsUrl}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    Promise.all([ui?.close(), service.close()]).then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * The Temporal UI of the embedded server, once the service is ready: its first build (about two
 * minutes, in the background) must not delay the API. An operator's convenience: when its port is
 * taken the service runs without it.
 */
async function startUi(config: Config, log: Logger, apiAddress: string, apiKey: string): Promise<TemporalUi | undefined> {
  try {
    return await startTemporalUi({
      host: config.TEMPORAL_UI_HOST,
      port: config.TEMPORAL_UI_PORT!,
      apiAddress,
      apiKey,
      cacheDir: path.join(config.dataDir, 'temporal-ui'),
      log: (level, msg, fields) => log[level]({ ...fields }, msg),
    });
  } catch (err) {
    log.warn({ err }, 'the Temporal UI could not start; the service runs without it');
    return undefined;
  }
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
