// Start-up and idle memory of `npm start` (issue 23): time from spawn to the first 200 of
// GET /backoffice/v1/health on a fresh data directory (first run: initdb, credentials, TLS) and
// again on the same directory (warm), then the RSS of every process the command runs, after
// IDLE_MS of idling, npm's own wrapper (npm, sh) listed but not counted.
//   npx tsx bench/start.ts                 # npm start, 1 first run + WARM_RUNS warm runs
//   START_CMD='npx tsx src/main.ts' npx tsx bench/start.ts
// The Temporal UI is off (TEMPORAL_UI_PORT=off): its first build is a one-off minute of npm+vite.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { mb, procStatusBytes } from './rss';

const ROOT = path.resolve(__dirname, '..');
const CMD = process.env.START_CMD ?? 'npm start';
const WARM_RUNS = Number(process.env.WARM_RUNS ?? 2);
const IDLE_MS = Number(process.env.IDLE_MS ?? 10_000);
const WRAPPERS = /^(npm|sh|npm exec|npx)\b|\/npm-cli\.js|\/npx-cli\.js|^\/bin\/sh /;

interface Run { label: string; msToFirst200: number; processes: Array<{ pid: number; cmd: string; rss: number; wrapper: boolean }> }

function children(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name), ...children(Number(name)));
    } catch {
      /* gone */
    }
  }
  return out;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
}

function health(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = https.get({ host: '127.0.0.1', port, path: '/backoffice/v1/health', rejectUnauthorized: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
  });
}

async function once(label: string, dataDir: string, port: number): Promise<Run> {
  const started = Date.now();
  const child: ChildProcess = spawn('sh', ['-c', `exec ${CMD}`], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', TEMPORAL_EMBEDDED_PORT: String(port + 1), TEMPORAL_UI_PORT: 'off', LOG_LEVEL: 'warn' },
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  while ((await health(port)) !== 200) {
    if (exited) throw new Error(`${CMD} exited before answering:\n${err}`);
    if (Date.now() - started > 180_000) throw new Error('no 200 within 180 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const msToFirst200 = Date.now() - started;
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const processes = [child.pid!, ...children(child.pid!)].map((pid) => {
    const cmd = cmdline(pid);
    return { pid, cmd, rss: procStatusBytes(pid, 'VmRSS') ?? 0, wrapper: WRAPPERS.test(cmd) };
  });
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise<void>((r) => (exited ? r() : child.once('exit', () => r())));
  return { label, msToFirst200, processes };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const runs: Run[] = [];
  try {
    runs.push(await once('first run (fresh data dir)', dataDir, port));
    for (let i = 1; i <= WARM_RUNS; i++) runs.push(await once(`warm ${i}`, dataDir, port));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`command: ${CMD}   load: ${readFileSync('/proc/loadavg', 'utf8').trim()}   idle ${IDLE_MS} ms before RSS`);
  for (const run of runs) {
    const counted = run.processes.filter((p) => !p.wrapper).reduce((s, p) => s + p.rss, 0);
    console.log(`${run.label.padEnd(28)} first 200 after ${(run.msToFirst200 / 1000).toFixed(2)} s   RSS idle ${mb(counted)} MB (npm's wrapper not counted)`);
    for (const p of run.processes) console.log(`    ${p.wrapper ? '(wrapper) ' : ''}${mb(p.rss).padStart(5)} MB  ${p.cmd.slice(0, 110)}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
