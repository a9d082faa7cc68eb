// `npm start` runs compiled JavaScript (issue 23 part 1, docs/DEVELOPING.md "Build"): after its
// build step (a no-op when dist/ is current) npm's shell execs `node dist/src/main.js`, which
// answers /health with no TypeScript loader in or under it, takes the workflow bundle built with
// the code, and stops on a SIGTERM sent to npm.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { ROOT, serviceEnv } from '../support/service-process';

/** Every process under `pid`, with its command line. */
function tree(pid: number): Array<{ pid: number; cmd: string }> {
  const out: Array<{ pid: number; cmd: string }> = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      out.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() }, ...tree(Number(name)));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

describe('npm start', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-compiled-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs node dist/src/main.js, without tsx or esbuild, on the prebuilt workflow bundle', async () => {
    const env = { ...serviceEnv(dataDir), LOG_LEVEL: 'info' };
    const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    let processes: Array<{ pid: number; cmd: string }> = [];
    try {
      const deadline = Date.now() + 120_000;
      let url: string | undefined;
      while (!(url = /Back-office API listening on (\S+)/.exec(out)?.[1])) {
        if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not listen:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await api('GET', '/health', { baseUrl: url, ca: serviceCa(dataDir) })).status).toBe(200);

      processes = tree(npm.pid!);
      const service = processes.filter((p) => p.cmd === 'node dist/src/main.js');
      expect(service).toHaveLength(1);
      // No loader in the service (tsx would come through the command line or NODE_OPTIONS) and
      // no esbuild service process beside it.
      const environ = readFileSync(`/proc/${service[0].pid}/environ`, 'utf8');
      expect(environ).not.toMatch(/tsx|esbuild/);
      expect(processes.filter((p) => /tsx|esbuild/.test(p.cmd))).toEqual([]);
      // The worker took dist/workflow-bundle.js rather than bundling src/workflows (the SDK logs a bundle it makes).
      expect(existsSync(path.join(ROOT, 'dist/workflow-bundle.js'))).toBe(true);
      expect(out).not.toMatch(/Workflow bundle created/);

      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      // The signal reached the service: it is gone, not orphaned.
      expect(existsSync(`/proc/${service[0].pid}`)).toBe(false);
    } finally {
      for (const pid of [npm.pid!, ...processes.map((p) => p.pid)]) {
        if (!existsSync(`/proc/${pid}`)) continue;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
  });
});
