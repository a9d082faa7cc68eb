// The embedded database runs in a worker thread (docs/platform.md "Embedded database"). When
// that thread ends without being asked to, the caller hears of it once, close() still resolves
// and frees the data directory, and the service stops with exit code 1 instead of running on
// half-alive. Nothing in production code lets a test end the thread: the fixtures
// watch `new Worker` from outside (fixtures/lose-embedded-thread.ts, database-thread-on-sigusr2.cjs).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceEnv, startServiceProcess } from '../support/service-process';
import { query, runTsToEnd, startEmbeddedChild, tempDir } from './helpers';

jest.setTimeout(180_000);

const lockFile = (dir: string) => path.join(dir, 'embedded-db.lock');
const infoFile = (dir: string) => path.join(dir, 'database.json');

test('a lost database thread is reported once, close() resolves and frees the data directory', async () => {
  const tmp = tempDir('embedded-thread-lost');
  try {
    const out = await runTsToEnd(path.join(__dirname, 'fixtures/lose-embedded-thread.ts'), [tmp.dir]);
    expect(out.split('\n').filter((l) => l.startsWith('FAILURE '))).toEqual([expect.stringContaining('the database thread ended')]);
    expect(out).toContain('\nCLOSED');
    expect(existsSync(lockFile(tmp.dir))).toBe(false);
    expect(existsSync(infoFile(tmp.dir))).toBe(false);

    const again = await startEmbeddedChild(tmp.dir);
    try {
      expect(await query(again.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await again.stop();
    }
  } finally {
    tmp.remove();
  }
});

const embeddedOnly = process.env.DATABASE_URL ? test.skip : test;

embeddedOnly('the service stops with exit code 1 when its database thread ends', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-db-thread-'));
  const preload = path.join(__dirname, 'fixtures/database-thread-on-sigusr2.cjs');
  const service = await startServiceProcess(serviceEnv(dataDir, { NODE_OPTIONS: `--require ${preload}` }));
  try {
    const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
    service.child.kill('SIGUSR2');
    expect(await exited).toBe(1);
    expect(service.output()).toContain('embedded database stopped unexpectedly');
    expect(existsSync(lockFile(dataDir))).toBe(false);
  } finally {
    await service.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
