// Compiles the service, the worker and the admin CLI (src/) into dist/ and the embedded Temporal
// server's package (temporal/server, without its tests and its UI app) into temporal/server/dist/
// (its exports' default: what compiled code requires) with swc, one .js per .ts, and builds the
// workflow bundle once into dist/workflow-bundle.js (issue 23 part 1; docs/DEVELOPING.md "Build").
// `npm install` runs it (postinstall) and `npm start`, `npm run worker|admin|temporal` run it before
// `node dist/...`: it does nothing when the stamps say the sources are unchanged (a hash of their
// paths and contents), so an edited file is compiled at the next start. swc does not check types:
// `npm run check` does. `--force` builds anyway; `temporal-server` builds only the package (its
// `npm run build`).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const force = process.argv.includes('--force');
const only = process.argv.slice(2).find((a) => !a.startsWith('--'));

/** What is compiled: every .ts below `sources` but declaration files, tests and what `skip` names, into `out`. */
const TREES = {
  service: { sources: 'src', out: 'dist/src', stamp: 'dist/.stamp-code', skip: [] },
  'temporal-server': {
    sources: 'temporal/server',
    out: 'temporal/server/dist',
    stamp: 'temporal/server/dist/.stamp',
    skip: ['test', 'ui', 'dist', 'node_modules'],
  },
};
if (only && !TREES[only]) throw new Error(`build: no tree ${only} (${Object.keys(TREES).join(', ')})`);

function walk(tree, rel = '') {
  return fs.readdirSync(path.join(ROOT, tree.sources, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return tree.skip.includes(p) ? [] : walk(tree, p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Hash of the files' paths and contents, the build script itself and the tool's version. */
function stamp(dir, files, tool) {
  const hash = createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).update(tool);
  for (const f of files) hash.update(f).update('\0').update(fs.readFileSync(path.join(ROOT, dir, f))).update('\0');
  return hash.digest('hex');
}

const version = (pkg) => JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
const readStamp = (file) => (fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), 'utf8') : '');
/** Write then rename: a process starting meanwhile reads the old file or the new one, never half of one. */
function writeAtomic(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.${process.pid}.tmp`, content);
  fs.renameSync(`${file}.${process.pid}.tmp`, file);
}

async function compile(tree, files) {
  const swc = require('@swc/core');
  const options = {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
    sourceMaps: false,
    swcrc: false,
    configFile: false,
  };
  const out = path.join(ROOT, tree.out);
  const outputs = new Set();
  await Promise.all(
    files.map(async (f) => {
      const { code } = await swc.transformFile(path.join(ROOT, tree.sources, f), { ...options, filename: f });
      const file = path.join(out, f.replace(/\.ts$/, '.js'));
      outputs.add(file);
      writeAtomic(file, code);
    }),
  );
  // Outputs of sources that are gone (a deleted or renamed file must not stay loadable).
  for (const e of fs.readdirSync(out, { recursive: true, withFileTypes: true })) {
    const p = path.join(e.parentPath ?? e.path, e.name);
    if (e.isFile() && p.endsWith('.js') && !outputs.has(p)) fs.rmSync(p);
  }
}

/** The SDK's bundler (webpack + swc) on src/workflows, as Worker.create would do at every start. */
async function bundle() {
  const { bundleWorkflowCode } = require('@temporalio/worker');
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(ROOT, 'src/workflows/index.ts'), logger: quiet });
  writeAtomic(path.join(ROOT, 'dist/workflow-bundle.js'), code);
}

/** Runs `step` unless `file` holds `value`, then writes it there. */
async function unlessStamped(file, value, step) {
  if (!force && readStamp(file) === value) return;
  const t = Date.now();
  const what = await step();
  writeAtomic(path.join(ROOT, file), value);
  console.error(`build: ${what} in ${Date.now() - t} ms`);
}

async function main() {
  // Docker's dependency layer runs npm ci (this postinstall) before the sources are copied.
  if (!fs.existsSync(path.join(ROOT, 'src'))) return;
  const swcVersion = `swc ${version('@swc/core')}`;
  const jobs = Object.entries(TREES)
    .filter(([name]) => !only || name === only)
    .map(([, tree]) => {
      const files = walk(tree).sort();
      return unlessStamped(tree.stamp, stamp(tree.sources, files, swcVersion), async () => {
        await compile(tree, files);
        return `compiled ${files.length} files into ${tree.out}/`;
      });
    });
  if (!only) {
    // Workflow code imports only @temporalio/workflow and other workflow files (.dependency-cruiser.cjs).
    const workflows = { sources: 'src/workflows', skip: [] };
    const workflowStamp = stamp(workflows.sources, walk(workflows).sort(), `@temporalio/worker ${version('@temporalio/worker')}`);
    jobs.push(unlessStamped('dist/.stamp-workflows', workflowStamp, async () => {
      await bundle();
      return 'workflow bundle dist/workflow-bundle.js';
    }));
  }
  await Promise.all(jobs);
}

main().catch((err) => {
  console.error(`build failed: ${err?.stack ?? err}`);
  process.exit(1);
});
