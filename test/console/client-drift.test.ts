// The console cannot drift from the API (issue 24): its client's types are generated from the
// OpenAPI document of the current route table, and its sources must type-check against them. A
// field or path renamed in the API is a type error in the console, so this test fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { buildOpenApi } from '../../src/api/openapi';
import { allRoutes } from '../../src/api/routes';

const ROOT = path.resolve(__dirname, '../..');
const CONSOLE = path.join(ROOT, 'console');

type Json = Record<string, unknown>;

/** The document as scripts/build-console.mjs writes it, from the sources under test (not dist/). */
function currentDocument(): Json {
  const deps = { config: loadConfig({}), database: {}, log: {}, jwtSecret: 'x'.repeat(32), health: async () => ({}), onKeyRevoked: () => undefined };
  return JSON.parse(JSON.stringify(buildOpenApi(allRoutes(deps as unknown as Parameters<typeof allRoutes>[0]))));
}

/** Every property `from` of every schema renamed `to`: what renaming an API field does to the document. */
function renameProperty(node: unknown, from: string, to: string): void {
  if (Array.isArray(node)) return node.forEach((n) => renameProperty(n, from, to));
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.properties && typeof o.properties === 'object' && from in (o.properties as Json)) {
    const props = o.properties as Json;
    props[to] = props[from];
    delete props[from];
    if (Array.isArray(o.required)) o.required = o.required.map((r) => (r === from ? to : r));
  }
  Object.values(o).forEach((v) => renameProperty(v, from, to));
}

/**
 * openapi-typescript on `doc`, then tsc on the console's sources with `@api/schema` pointing at the
 * result. The folder is inside console/ so that `vite/client` and React's types resolve from its
 * node_modules.
 */
function typeCheckAgainst(doc: Json): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(CONSOLE, '.drift-'));
  try {
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    const gen = spawnSync(path.join(CONSOLE, 'node_modules/.bin/openapi-typescript'), [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'schema.d.ts')], { encoding: 'utf8' });
    if (gen.status !== 0) throw new Error(`openapi-typescript failed:\n${gen.stdout}\n${gen.stderr}`);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(CONSOLE, 'tsconfig.json'),
        compilerOptions: { baseUrl: CONSOLE, paths: { '@api/schema': [path.join(dir, 'schema.d.ts')] } },
        include: [path.join(CONSOLE, 'src')],
        exclude: [path.join(CONSOLE, 'src/generated')],
      }),
    );
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    return { status: tsc.status, output: tsc.stdout + tsc.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the console type-checks against a client generated from the current route table', () => {
  const result = typeCheckAgainst(currentDocument());
  expect(result.output).toBe('');
  expect(result.status).toBe(0);
}, 60_000);

test('an API field the console uses, renamed, fails the type check', () => {
  const doc = currentDocument();
  renameProperty(doc, 'life_cycle_state', 'lifecycle_state');
  const result = typeCheckAgainst(doc);
  expect(result.status).not.toBe(0);
  expect(result.output).toContain('life_cycle_state');
}, 60_000);
