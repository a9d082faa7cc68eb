import { rmSync } from 'node:fs';
import { mb, procStatusBytes } from '../../bench/rss';
import type { ServiceProcess } from './service-process';
import { testState } from './state';
import type { TemporalCli } from './temporal-cli';

export default async function globalTeardown() {
  const g = globalThis as { __service?: ServiceProcess; __temporal?: TemporalCli };
  if (g.__service) {
    const code = await g.__service.stop('SIGTERM');
    if (code !== 0) process.stderr.write(`service exited with ${code} on SIGTERM:\n${g.__service.output().slice(-4000)}\n`);
  }
  // After the service: its worker's shutdown still talks to the server.
  if (g.__temporal) {
    const peak = procStatusBytes(g.__temporal.child.pid, 'VmHWM');
    process.stdout.write(`\nthe real Temporal server's peak RSS during the pass: ${mb(peak)} MB\n`);
    await g.__temporal.stop();
  }
  rmSync(testState().dataDir, { recursive: true, force: true });
}
