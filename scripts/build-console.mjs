// Builds the console (console/, docs/console.md): the service's OpenAPI document, written from its
// own route table without starting a server, becomes console/src/generated/openapi.json and, through
// openapi-typescript, schema.d.ts (the typed client's paths); then `vite build` writes console/dist,
// which src/api/console.ts serves at /console. Runs after scripts/build.mjs (it reads the compiled
// route table in dist/) at `npm install` (postinstall) and at `npm start`, and does nothing when the
// stamp says nothing changed. Needs no network. `--force` builds anyway; `--print-openapi` only
// prints the document; `--soft` (npm start) reports a failed build and exits 0: the API starts
// anyway, and /console answers a page saying the console is not built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONSOLE = path.join(ROOT, 'console');
const DIST = path.join(CONSOLE, 'dist');
const GENERATED = path.join(CONSOLE, 'src', 'generated');
const STAMP = path.join(CONSOLE, '.build-stamp.json');
const require = createRequire(import.meta.url);
const force = process.argv.includes('--force');

/**
 * The OpenAPI document of the compiled service (dist/, fresh after scripts/build.mjs). The route
 * factories only close over their dependencies, so inert ones do (as test/openapi.test.ts does).
 */
export function openApiDocument(root = ROOT) {
  const { allRoutes } = require(path.join(root, 'dist/src/api/routes.js'));
  const { buildOpenApi } = require(path.join(root, 'dist/src/api/openapi.js'));
  const { loadConfig } = require(path.join(root, 'dist/src/config.js'));
  const deps = { config: loadConfig({}), database: {}, log: {}, jwtSecret: 'x'.repeat(32), health: async () => ({}), onKeyRevoked: () => undefined };
  return buildOpenApi(allRoutes(deps));
}

/** The console's own inputs: sources (generated ones left out), configuration, lock file. */
function consoleFiles() {
  const walk = (rel) =>
    fs.readdirSync(path.join(CONSOLE, rel), { withFileTypes: true }).flatMap((e) => {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) return p === 'src/generated' ? [] : walk(p);
      return [p];
    });
  const top = ['index.html', 'package.json', 'package-lock.json', 'tsconfig.json', 'vite.config.ts'].filter((f) => fs.existsSync(path.join(CONSOLE, f)));
  return [...top, ...walk('src'), ...(fs.existsSync(path.join(CONSOLE, 'public')) ? walk('public') : [])].sort();
}

function hashOf(files, extra) {
  const hash = createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).update(extra);
  for (const f of files) hash.update(f).update('\0').update(fs.readFileSync(path.join(CONSOLE, f))).update('\0');
  return hash.digest('hex');
}

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});
const built = () => fs.existsSync(path.join(GENERATED, 'schema.d.ts')) && fs.existsSync(path.join(DIST, 'index.html'));

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: CONSOLE, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** openapi.json and schema.d.ts into `into` (the drift test writes them to a temporary folder). */
export function generateClientTypes(doc, into) {
  const dir = path.resolve(into);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc, null, 1));
  const bin = path.join(CONSOLE, 'node_modules/.bin/openapi-typescript');
  const result = spawnSync(bin, [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'schema.d.ts')], { cwd: CONSOLE, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openapi-typescript failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * One build at a time (two browser test files, or npm start beside a test, may call this at once):
 * a lock folder with its holder's pid; the lock of a holder that is gone is taken over.
 */
function withLock(fn) {
  const lock = path.join(CONSOLE, '.build-lock');
  const deadline = Date.now() + 5 * 60_000;
  while (!tryLock(lock)) {
    if (Date.now() > deadline) throw new Error(`another console build holds ${lock}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function tryLock(lock) {
  try {
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return true;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  }
  let holder = 0;
  let age = 0;
  try {
    age = Date.now() - fs.statSync(lock).mtimeMs;
    holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    // Released meanwhile, or taken and its pid not written yet (stale after 10 s).
  }
  const alive = holder > 0 && isAlive(holder);
  if (!alive && (holder > 0 || age > 10_000)) fs.rmSync(lock, { recursive: true, force: true });
  return false;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function main() {
  // Docker's dependency layer installs before the sources are copied.
  if (!fs.existsSync(path.join(CONSOLE, 'package.json')) || !fs.existsSync(path.join(ROOT, 'dist/src/api/routes.js'))) return;
  if (!fs.existsSync(path.join(CONSOLE, 'node_modules/.bin/vite'))) {
    console.error('build-console: console/node_modules is missing (run npm install); the console is not built');
    return;
  }
  const files = consoleFiles();
  // Fast path, every `npm start`: the service's code stamp decides the document, so when it and
  // the console's files are unchanged nothing is loaded at all (~0.1 s instead of ~1 s).
  const codeStamp = fs.existsSync(path.join(ROOT, 'dist/.stamp-code')) ? fs.readFileSync(path.join(ROOT, 'dist/.stamp-code'), 'utf8') : '';
  const quick = hashOf(files, `code ${codeStamp}`);
  const previous = readJson(STAMP);
  if (!force && previous.quick === quick && built()) return;

  const t = Date.now();
  const doc = openApiDocument();
  const full = hashOf(files, `openapi ${createHash('sha256').update(JSON.stringify(doc)).digest('hex')}`);
  if (!force && previous.full === full && built()) {
    fs.writeFileSync(STAMP, JSON.stringify({ quick, full }));
    return;
  }
  generateClientTypes(doc, GENERATED);
  // Built beside the served folder and swapped in, so a running service never serves half a build.
  const out = path.join(CONSOLE, `.dist-${process.pid}`);
  run(path.join(CONSOLE, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn', '--outDir', out, '--emptyOutDir']);
  const old = path.join(CONSOLE, `.dist-old-${process.pid}`);
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  fs.renameSync(out, DIST);
  fs.rmSync(old, { recursive: true, force: true });
  fs.writeFileSync(STAMP, JSON.stringify({ quick, full }));
  console.error(`build-console: console/dist built in ${Date.now() - t} ms`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--print-openapi')) process.stdout.write(`${JSON.stringify(openApiDocument(), null, 1)}\n`);
    else withLock(main);
  } catch (err) {
    console.error(`build-console failed: ${err?.stack ?? err}`);
    process.exit(process.argv.includes('--soft') ? 0 : 1);
  }
}
