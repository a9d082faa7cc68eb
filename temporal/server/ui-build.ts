/**
 * Builds the Temporal Web UI (the app in ui/) on first use and keeps it. Its npm packages are
 * installed by `npm install` (this package's postinstall, install-ui.mjs, into ui/node_modules),
 * so a start needs no registry. The static output lives in `<cacheDir>/<hash>/`, the hash being of
 * ui/'s sources and lock file, so a later start with the same sources serves it at once and a
 * changed app is built again.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The app: ui/ of this package, whether this file runs from its source or compiled into dist/. */
const UI_SOURCES = path.join(__dirname, path.basename(__dirname) === 'dist' ? '..' : '.', 'ui');
/** What a build leaves in the sources when someone develops the app in place. */
const NOT_SOURCES = new Set(['node_modules', 'build', '.svelte-kit']);
/** A cold install and build take 1-2 min here; past this something is stuck. */
const STEP_TIMEOUT_MS = 15 * 60_000;

export interface UiBuildOptions {
  cacheDir: string;
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: object) => void;
  /** Stops the build (the process is shutting down): the steps are killed, the work directory removed. */
  signal?: AbortSignal;
  /** The build step's environment; the process's by default. */
  env?: NodeJS.ProcessEnv;
}

/** Where the build of the app's current sources is kept in `cacheDir`. */
export function uiBuildDir(cacheDir: string): string {
  return path.join(path.resolve(cacheDir), sourcesHash(UI_SOURCES));
}

/**
 * The cached build, or a new one: the sources are copied to a work directory beside the cache
 * with a link to ui/node_modules, `vite build` runs there at low priority (the service
 * keeps its CPU), the output is renamed into place (atomic: a concurrent builder of the same
 * sources wins harmlessly), and the work directory and builds of other sources are removed.
 */
export async function buildUi(opts: UiBuildOptions): Promise<string> {
  const target = uiBuildDir(opts.cacheDir);
  const [cacheDir, hash] = [path.dirname(target), path.basename(target)];
  if (fs.existsSync(path.join(target, 'index.html'))) return target;
  const work = path.join(cacheDir, `.work-${hash}-${process.pid}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    const started = Date.now();
    opts.log('info', 'building the Temporal UI (first use of these sources)', { dir: target });
    fs.cpSync(UI_SOURCES, work, { recursive: true, filter: (src) => !NOT_SOURCES.has(path.basename(src)) });
    const modules = path.join(UI_SOURCES, 'node_modules');
    if (!fs.existsSync(path.join(modules, 'vite/package.json'))) {
      throw new Error(`the Temporal UI's packages are not installed (${modules}): run npm install`);
    }
    // Packages resolve from their real path (ui/node_modules), the app's files through the link.
    fs.symlinkSync(modules, path.join(work, 'node_modules'), 'dir');
    const step = { cwd: work, signal: opts.signal, env: opts.env ?? process.env };
    await run('vite build', process.execPath, [path.join(modules, 'vite/bin/vite.js'), 'build', '--logLevel', 'warn'], step);
    try {
      fs.renameSync(path.join(work, 'build'), target);
    } catch (e) {
      if (!fs.existsSync(path.join(target, 'index.html'))) throw e;
    }
    removeOtherBuilds(cacheDir, hash);
    opts.log('info', 'Temporal UI built', { buildMs: Date.now() - started, dir: target });
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Short hash of every source file's path and content (sorted, so the order of reading does not matter). */
function sourcesHash(sources: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (NOT_SOURCES.has(e.name)) return [];
      const p = path.join(dir, e.name);
      return e.isDirectory() ? walk(p) : [p];
    });
  for (const file of walk(sources).sort()) {
    hash.update(path.relative(sources, file).split(path.sep).join('/')).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Builds of other sources, and work directories a killed process left (its pid is gone). */
function removeOtherBuilds(cacheDir: string, keep: string): void {
  for (const name of fs.readdirSync(cacheDir)) {
    const pid = /^\.work-[0-9a-f]{16}-(\d+)$/.exec(name)?.[1];
    if ((name !== keep && /^[0-9a-f]{16}$/.test(name)) || (pid && !alive(Number(pid)))) {
      fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true });
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs a build step at low priority; rejects with the end of its output when it fails. */
function run(step: string, command: string, args: string[], opts: { cwd: string; signal?: AbortSignal; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...opts, killSignal: 'SIGKILL', stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (child.pid) os.setPriority(child.pid, 10);
    } catch {
      /* not allowed here: it runs at normal priority */
    }
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${step} could not start: ${e.message}`));
    });
    child.once('close', (code, killedBy) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${step} failed (${killedBy ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}
