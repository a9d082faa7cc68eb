/**
 * CLI: runs the embedded Temporal server on 127.0.0.1:7233 (TEMPORAL_PORT to change it) with its
 * HTTP API on 7243 (TEMPORAL_HTTP_PORT; `off` to disable; 7243 is a Temporal server's default
 * HTTP port) and its data in DATA_DIR/temporal (default ./.data/temporal), and the Temporal Web UI
 * on 127.0.0.1:8233 (TEMPORAL_UI_PORT, `off` to disable; TEMPORAL_UI_HOST), built on first use
 * into DATA_DIR/temporal-ui. Stops cleanly on SIGINT/SIGTERM. Callers send the API key
 * (TEMPORAL_API_KEY, else the one made in DATA_DIR/temporal-api-key, as the service does).
 */
import { mkdirSync } from 'fs';
import * as path from 'path';
import { startTemporalServer } from './index';
import { loadOrCreateApiKey } from './credential';
import { startTemporalUi } from './ui-server';

async function main(): Promise<void> {
  const port = process.env.TEMPORAL_PORT ? Number(process.env.TEMPORAL_PORT) : 7233;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid TEMPORAL_PORT: ${process.env.TEMPORAL_PORT}`);
  const httpPort = portOrOff('TEMPORAL_HTTP_PORT', '7243');
  const uiPort = portOrOff('TEMPORAL_UI_PORT', '8233');
  const dataDir = path.join(process.env.DATA_DIR ?? './.data', 'temporal');
  const keyFile = path.join(process.env.DATA_DIR ?? './.data', 'temporal-api-key');
  const apiKey = process.env.TEMPORAL_API_KEY ?? (mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 }), loadOrCreateApiKey(keyFile));
  const logger = (level: string, msg: string, fields?: object) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
    if (level === 'error' || level === 'warn') console.error(line);
    else console.log(line);
  };
  const server = await startTemporalServer({
    host: process.env.TEMPORAL_HOST ?? '127.0.0.1',
    port,
    httpPort,
    dataDir,
    logger,
    apiKey,
  });
  console.log(`Callers send the API key in ${process.env.TEMPORAL_API_KEY ? 'TEMPORAL_API_KEY' : keyFile}`);
  if (server.httpAddress) console.log(`Temporal HTTP API: http://${server.httpAddress}/api/v1/namespaces`);
  // The UI is a convenience: when its port is taken the server runs without it.
  const ui =
    server.httpAddress && uiPort !== undefined
      ? await startTemporalUi({
          host: process.env.TEMPORAL_UI_HOST ?? '127.0.0.1',
          port: uiPort,
          apiAddress: server.httpAddress,
          apiKey,
          cacheDir: path.join(process.env.DATA_DIR ?? './.data', 'temporal-ui'),
          log: logger,
        }).catch((e: Error) => logger('warn', 'the Temporal UI could not start', { error: e.message }))
      : undefined;
  if (ui) console.log(`Temporal UI: ${ui.url}`);
  // Machine-readable line for parent processes (tests, the app) waiting for readiness.
  console.log(`TEMPORAL_READY ${server.address}`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    Promise.all([ui?.close(), server.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A port from the environment (0 = any free one), or undefined for `off`. */
function portOrOff(name: string, fallback: string): number | undefined {
  const value = process.env[name] ?? fallback;
  if (value === 'off') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid ${name}: ${value} (a port, or off)`);
  return port;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
