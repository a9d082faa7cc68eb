import path from 'node:path';
import { startTemporalCliServer, type TemporalCliServer } from '@backoffice/temporal-server';

/** A real Temporal server: `temporal server start-dev` of the CLI named by TEMPORAL_CLI (docs/temporal.md). */
export type TemporalCli = Pick<TemporalCliServer, 'address' | 'child' | 'output' | 'stop'>;

/**
 * The dev server on free loopback ports, headless, with its SQLite file in `dir`; started the
 * way `TEMPORAL_SERVER=cli` starts it (the package's cli-server.ts), resolved once its default
 * namespace answers.
 */
export function startTemporalCli(bin: string, dir: string): Promise<TemporalCli> {
  return startTemporalCliServer({ bin, dbFile: path.join(dir, 'temporal-cli.db'), host: '127.0.0.1', port: 0 });
}
