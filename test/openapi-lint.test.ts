// Outside referees of the document integrators fetch: Redocly's recommended rules and
// Spectral's OpenAPI rules (pinned devDependencies), with 0 errors and 0 warnings. Their
// configurations (test/openapi-lint/) say why the one replaced rule is replaced.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api } from './support/api';

const ROOT = path.join(__dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const config = (name: string) => path.join(__dirname, 'openapi-lint', name);

let dir: string;
let document: string;

beforeAll(async () => {
  const res = await api('GET', '/openapi.json');
  expect(res.status).toBe(200);
  dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  document = path.join(dir, 'openapi.json');
  writeFileSync(document, JSON.stringify(res.body));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a linter that exits non-zero on findings; answers its standard output either way. */
function lint(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

test('Redocly (recommended rules): no error and no warning', () => {
  const out = lint(bin('redocly'), ['lint', document, '--config', config('redocly.yaml'), '--format', 'json']);
  const problems = (JSON.parse(out) as { problems: { ruleId: string; severity: string; message: string }[] }).problems;
  expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
});

test('Spectral (spectral:oas): no error and no warning', () => {
  const out = lint(bin('spectral'), ['lint', document, '--ruleset', config('spectral.yaml'), '--format', 'json', '--quiet']);
  const problems = JSON.parse(out.trim() || '[]') as { code: string; message: string; path: string[] }[];
  expect(problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`)).toEqual([]);
});
