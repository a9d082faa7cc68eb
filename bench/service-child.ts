// The service under load (child process of bench/contacts.ts). A child rather than in-process:
// autocannon in the same process would share the service's event loop and distort both.
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { startService } from '../src/service';

async function main() {
  const config = loadConfig();
  const service = await startService(config, createLogger(config.LOG_LEVEL));
  process.send?.({ url: service.url, databaseUrl: service.databaseUrl });
  // Profiles (BENCH_PROFILE) are written only on a normal exit, so SIGTERM must exit cleanly.
  process.on('SIGTERM', () => {
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err) => {
  process.stderr.write(`service failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
