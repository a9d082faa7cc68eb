import { rmSync } from 'node:fs';
import type { TemporalCliServer } from '../cli-server';

/** What global-setup.ts started with TEMPORAL_CLI. */
export type RealServer = { __conformanceServer?: { server: TemporalCliServer; dir: string } };

export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as RealServer).__conformanceServer;
  if (!started) return;
  await started.server.stop();
  rmSync(started.dir, { recursive: true, force: true });
}
