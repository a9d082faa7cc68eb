// Each embedded database runs in a child process (fixtures/serve-embedded.ts): that is how the
// service uses it, and the only way to test locking across processes and crashes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exited, query, startEmbeddedChild, tempDir } from './helpers';

jest.setTimeout(180_000);

const lockFile = (dir: string) => path.join(dir, 'embedded-db.lock');
const infoFile = (dir: string) => path.join(dir, 'database.json');

describe('embedded database', () => {
  test('refuses a data directory locked by a live process, naming the directory and the pid', async () => {
    const tmp = tempDir('embedded-lock');
    const holder = spawn('sleep', ['60']);
    try {
      writeFileSync(lockFile(tmp.dir), `${holder.pid}\n`);
      await expect(startEmbeddedChild(tmp.dir)).rejects.toThrow(`The data directory ${tmp.dir} is in use by process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
      await exited(holder);
      tmp.remove();
    }
  });

  test('keeps data across a clean close, publishes database.json while running, refuses a second process', async () => {
    const tmp = tempDir('embedded-persist');
    try {
      const first = await startEmbeddedChild(tmp.dir);
      try {
        expect(JSON.parse(readFileSync(infoFile(tmp.dir), 'utf8'))).toEqual({ url: first.url, pid: first.pid });
        await expect(startEmbeddedChild(tmp.dir)).rejects.toThrow(`is in use by process ${first.pid}`);
        await query(first.url, "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('kept')");
      } finally {
        await first.stop();
      }
      expect(existsSync(infoFile(tmp.dir))).toBe(false);
      expect(existsSync(lockFile(tmp.dir))).toBe(false);

      const second = await startEmbeddedChild(tmp.dir);
      try {
        expect(await query(second.url, 'SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
      } finally {
        await second.stop();
      }
    } finally {
      tmp.remove();
    }
  });

  test('after SIGKILL the stale lock is taken over and committed rows survive', async () => {
    const tmp = tempDir('embedded-kill');
    try {
      const crashed = await startEmbeddedChild(tmp.dir);
      await query(crashed.url, "CREATE TABLE survivors (name text); INSERT INTO survivors VALUES ('committed')");
      await crashed.kill();
      expect(readFileSync(lockFile(tmp.dir), 'utf8').trim()).toBe(String(crashed.pid));

      const restarted = await startEmbeddedChild(tmp.dir);
      try {
        expect(await query(restarted.url, 'SELECT name FROM survivors')).toEqual([{ name: 'committed' }]);
        expect(JSON.parse(readFileSync(infoFile(tmp.dir), 'utf8')).pid).toBe(restarted.pid);
      } finally {
        await restarted.stop();
      }
    } finally {
      tmp.remove();
    }
  });
});
