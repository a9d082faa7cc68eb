// Compiles the service, the worker, the admin CLI and the embedded Temporal server (src/, temporal/*.ts,
// temporal/server/ without its tests) with swc into dist/, one .js per .ts, and builds the workflow
// bundle once into dist/workflow-bundle.js (issue 23 part 1; docs/DEVELOPING.md "Build").
// `npm install` runs it (postinstall) and `npm start`, `npm run worker|admin|temporal` run it before
// `node dist/...`: it does nothing when the stamps say the sources are unchanged (a hash of their
// paths and contents), so an edited file is compiled at the next start. swc does not check types:
// `npm run check` does. `--force` builds anyway.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const require = createRequire(import.meta.url);
const force = process.argv.includes('--force');

/** What is compiled: every .ts below these, tests and declaration files left out. */
const TREES = ['src', 'temporal/server'];
const TOP_FILES = ['temporal/ui-build.ts', 'temporal/ui-server.ts'];
const skip = (rel) => rel.endsWith('.d.ts') || rel.endsWith('.test.ts') || rel.startsWith('temporal/server/test/');

function walk(rel) {
  return fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true }).flatMap((e) => {
    const p = `${rel}/${e.name}`;
    return e.isDirectory() ? walk(p) : e.name.endsWith('.ts') && !skip(p) ? [p] : [];
  });
}

/** Hash of the files' paths and contents, the build script itself and the tool's version. */
function stamp(files, tool) {
  const hash = createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).update(tool);
  for (const f of files) hash.update(f).update('\0').update(fs.readFileSync(path.join(ROOT, f))).update('\0');
  return hash.digest('hex');
}

const version = (pkg) => JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
const readStamp = (name) => (fs.existsSync(path.join(DIST, name)) ? fs.readFileSync(path.join(DIST, name), 'utf8') : '');
/** Write then rename: a process starting meanwhile reads the old file or the new one, never half of one. */
function writeAtomic(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.${process.pid}.tmp`, content);
  fs.renameSync(`${file}.${process.pid}.tmp`, file);
}

async function compile(files) {
  const swc = require('@swc/core');
  const options = {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
    sourceMaps: false,
    swcrc: false,
    configFile: false,
  };
  const outputs = new Set();
  await Promise.all(
    files.map(async (f) => {
      const { code } = await swc.transformFile(path.join(ROOT, f), { ...options, filename: f });
      const out = path.join(DIST, f.replace(/\.ts$/, '.js'));
      outputs.add(out);
      writeAtomic(out, code);
    }),
  );
  // Outputs of sources that are gone (a deleted or renamed file must not stay loadable).
  for (const tree of ['src', 'temporal']) {
    const dir = path.join(DIST, tree);
    if (!fs.existsSync(dir)) continue;
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const p = path.join(e.parentPath ?? e.path, e.name);
      if (e.isFile() && p.endsWith('.js') && !outputs.has(p)) fs.rmSync(p);
    }
  }
}

/** The SDK's bundler (webpack + swc) on src/workflows, as Worker.create would do at every start. */
async function bundle() {
  const { bundleWorkflowCode } = require('@temporalio/worker');
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(ROOT, 'src/workflows/index.ts'), logger: quiet });
  writeAtomic(path.join(DIST, 'workflow-bundle.js'), code);
}

async function main() {
  // Docker's dependency layer runs npm ci (this postinstall) before the sources are copied.
  if (!fs.existsSync(path.join(ROOT, 'src'))) return;
  const files = [...TREES.flatMap(walk), ...TOP_FILES].sort();
  const codeStamp = stamp(files, `swc ${version('@swc/core')}`);
  // Workflow code imports only @temporalio/workflow and other workflow files (.dependency-cruiser.cjs).
  const workflowStamp = stamp(walk('src/workflows').sort(), `@temporalio/worker ${version('@temporalio/worker')}`);
  const jobs = [];
  if (force || readStamp('.stamp-code') !== codeStamp) {
    jobs.push((async () => {
      const t = Date.now();
      await compile(files);
      writeAtomic(path.join(DIST, '.stamp-code'), codeStamp);
      console.error(`build: compiled ${files.length} files into dist/ in ${Date.now() - t} ms`);
    })());
  }
  if (force || readStamp('.stamp-workflows') !== workflowStamp) {
    jobs.push((async () => {
      const t = Date.now();
      await bundle();
      writeAtomic(path.join(DIST, '.stamp-workflows'), workflowStamp);
      console.error(`build: workflow bundle dist/workflow-bundle.js in ${Date.now() - t} ms`);
    })());
  }
  await Promise.all(jobs);
}

main().catch((err) => {
  console.error(`build failed: ${err?.stack ?? err}`);
  process.exit(1);
});
