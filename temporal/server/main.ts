/**
 * CLI: runs the embedded Temporal server on 127.0.0.1:7233 (TEMPORAL_PORT to change it) with its
 * HTTP API on 7243 (TEMPORAL_HTTP_PORT; `off` to disable; 7243 is a Temporal server's default
 * HTTP port) and its data in DATA_DIR/temporal (default ./.data/temporal). Stops cleanly on
 * SIGINT/SIGTERM.
 */
import * as path from 'path';
import { startTemporalServer } from './index';

async function main(): Promise<void> {
  const port = process.env.TEMPORAL_PORT ? Number(process.env.TEMPORAL_PORT) : 7233;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid TEMPORAL_PORT: ${process.env.TEMPORAL_PORT}`);
  const httpEnv = process.env.TEMPORAL_HTTP_PORT ?? '7243';
  const httpPort = httpEnv === 'off' ? undefined : Number(httpEnv);
  if (httpPort !== undefined && (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535)) {
    throw new Error(`Invalid TEMPORAL_HTTP_PORT: ${httpEnv} (a port, or off)`);
  }
  const dataDir = path.join(process.env.DATA_DIR ?? './.data', 'temporal');
  const server = await startTemporalServer({
    host: process.env.TEMPORAL_HOST ?? '127.0.0.1',
    port,
    httpPort,
    dataDir,
    logger: (level, msg, fields) => {
      const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
      if (level === 'error' || level === 'warn') console.error(line);
      else console.log(line);
    },
  });
  if (server.httpAddress) console.log(`Temporal HTTP API: http://${server.httpAddress}/api/v1/namespaces`);
  // Machine-readable line for parent processes (tests, the app) waiting for readiness.
  console.log(`TEMPORAL_READY ${server.address}`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
