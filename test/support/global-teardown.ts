import { rmSync } from 'node:fs';
import type { ServiceProcess } from './service-process';
import { testState } from './state';

export default async function globalTeardown() {
  const service = (globalThis as { __service?: ServiceProcess }).__service;
  if (service) {
    const code = await service.stop('SIGTERM');
    if (code !== 0) process.stderr.write(`service exited with ${code} on SIGTERM:\n${service.output().slice(-4000)}\n`);
  }
  rmSync(testState().dataDir, { recursive: true, force: true });
}
