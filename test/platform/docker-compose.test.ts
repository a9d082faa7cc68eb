/**
 * No Docker engine runs here, so this checks temporal/docker-compose.yml's wiring statically:
 * the service's env vars exist in its config schema and every address points at a real service.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configSchema } from '../../src/config';

type Yaml = string | Yaml[] | { [key: string]: Yaml };

/**
 * Reads the block-YAML subset the compose file is written in: nested mappings, "- item"
 * sequences of scalars, one-line flow sequences, quoted or plain scalars, comments.
 * Anything else throws, so the file cannot drift into YAML this check would misread.
 */
function parseYamlSubset(text: string): Yaml {
  const lines = text
    .split('\n')
    .map((raw, i) => ({ n: i + 1, indent: raw.search(/\S/), body: stripComment(raw).trimEnd() }))
    .filter((l) => l.indent >= 0 && l.body.trim() !== '');
  for (const l of lines) {
    if (/^\t| \t/.test(l.body.slice(0, l.indent + 1))) throw new Error(`line ${l.n}: tabs`);
    if (/^\s*[&*!|>]|:\s*[&*!|>]/.test(l.body)) throw new Error(`line ${l.n}: unsupported YAML feature`);
  }
  let i = 0;
  const block = (indent: number): Yaml => {
    const isSeq = lines[i].body.trim().startsWith('- ');
    const out: Yaml[] | Record<string, Yaml> = isSeq ? [] : {};
    while (i < lines.length && lines[i].indent === indent) {
      const { n, body } = lines[i];
      const content = body.trim();
      if (isSeq !== content.startsWith('- ')) throw new Error(`line ${n}: mixed sequence and mapping`);
      i++;
      if (Array.isArray(out)) {
        out.push(scalar(content.slice(2).trim(), n));
        continue;
      }
      const m = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(content);
      if (!m) throw new Error(`line ${n}: expected "key: value"`);
      if (Object.prototype.hasOwnProperty.call(out, m[1])) throw new Error(`line ${n}: duplicate key ${m[1]}`);
      if (m[2] !== undefined) out[m[1]] = scalar(m[2], n);
      else if (i < lines.length && lines[i].indent > indent) out[m[1]] = block(lines[i].indent);
      else out[m[1]] = '';
    }
    if (i < lines.length && lines[i].indent > indent) throw new Error(`line ${lines[i].n}: bad indentation`);
    return out;
  };
  const doc = block(0);
  if (i !== lines.length) throw new Error(`line ${lines[i].n}: bad indentation`);
  return doc;
}

function stripComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) quote = c === quote ? '' : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

function scalar(text: string, n: number): Yaml {
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new Error(`line ${n}: unterminated flow sequence`);
    const items = text.slice(1, -1).match(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,\s][^,]*/g) ?? [];
    return items.map((s) => scalar(s.trim(), n));
  }
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  if (/^[{[\]}]/.test(text)) throw new Error(`line ${n}: unsupported flow value`);
  return text;
}

const repo = path.resolve(__dirname, '../..');
const scripts = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The script an npm command line runs (npm start, npm run X, npm run-script X), or null for another npm command. */
function scriptOf(args: string[]): string | null {
  const [, verb, name] = args;
  if (verb === 'start' || verb === 'test') return verb;
  return verb === 'run' || verb === 'run-script' ? name : null;
}

/** The Dockerfile's instructions: comments dropped, continued lines joined. */
function dockerInstructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

const composeDir = path.join(repo, 'temporal');
const compose = parseYamlSubset(readFileSync(path.join(composeDir, 'docker-compose.yml'), 'utf8'));

function map(v: Yaml | undefined, what: string): Record<string, Yaml> {
  if (!v || typeof v === 'string' || Array.isArray(v)) throw new Error(`${what} must be a mapping`);
  return v;
}
function list(v: Yaml | undefined): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Error('expected a sequence');
  return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
}
/**
 * What compose substitutes when the variable is unset: ${NAME:-default} → default. ${NAME:?error}
 * → '': compose refuses to start without it, so its value is the operator's, not the file's.
 */
function resolved(v: string): string {
  return v.replace(/\$\{[A-Z0-9_]+(?::?-([^}]*)|:?\?[^}]*)?\}/g, (_m, def: string | undefined) => def ?? '');
}

const services = map(map(compose, 'document').services, 'services');
const service = (name: string) => map(services[name], `service ${name}`);
const env = (name: string): Record<string, string> => {
  const e = service(name).environment;
  if (e === undefined) return {};
  if (Array.isArray(e)) return Object.fromEntries(list(e).map((kv) => [kv.split('=')[0], resolved(kv.slice(kv.indexOf('=') + 1))]));
  return Object.fromEntries(Object.entries(map(e, 'environment')).map(([k, v]) => [k, resolved(String(v))]));
};
const byImage = (prefix: string): string => {
  const names = Object.keys(services).filter((s) => String(service(s).image ?? '').startsWith(prefix));
  expect(names).toHaveLength(1);
  return names[0];
};
const dependsOn = (name: string): string[] => {
  const d = service(name).depends_on;
  return Array.isArray(d) ? list(d) : d === undefined ? [] : Object.keys(map(d, 'depends_on'));
};
const containerPorts = (name: string): string[] => list(service(name).ports).map((p) => p.split(':').pop() as string);
const appServices = ['api', 'worker'];

describe('temporal/docker-compose.yml', () => {
  const postgres = byImage('postgres:');
  const temporal = byImage('temporalio/auto-setup:');
  const ui = byImage('temporalio/ui:');
  const pg = env(postgres);

  test('runs PostgreSQL, Temporal, the Temporal UI and the service as api + worker', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining([postgres, temporal, ui, ...appServices]));
    expect(list(service('api').command).join(' ')).toBe('npm start');
    expect(list(service('worker').command).join(' ')).toBe('npm run worker');
    for (const s of appServices) {
      const build = map(service(s).build, `${s}.build`);
      const dockerfile = path.resolve(composeDir, String(build.context), String(build.dockerfile ?? 'Dockerfile'));
      expect(dockerfile).toBe(path.join(repo, 'Dockerfile'));
    }
  });

  test('the service processes set only variables its config schema knows', () => {
    const known = new Set(Object.keys(configSchema.shape));
    for (const s of appServices) {
      const unknown = Object.keys(env(s)).filter((k) => !known.has(k));
      expect({ service: s, unknown }).toEqual({ service: s, unknown: [] });
      // Values must also pass the schema (empty means unset, as loadConfig treats it).
      const set = Object.fromEntries(Object.entries(env(s)).filter(([, v]) => v !== ''));
      expect(configSchema.safeParse(set).success).toBe(true);
    }
    expect(env('api').RUN_WORKER).toBe('false');
    expect(env('worker').RUN_WORKER).toBeUndefined();
  });

  test('the api and the worker must be given the same JWT_SECRET, VOUCHER_SECRET and SECRETS_KEY: their volumes differ', () => {
    const raw = (s: string, name: string) => String(map(service(s).environment, 'environment')[name]);
    for (const name of ['JWT_SECRET', 'VOUCHER_SECRET', 'SECRETS_KEY']) {
      // ${NAME:?...}: compose refuses to start without it, so no process generates one of its own.
      expect(raw('api', name)).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
      expect(raw('worker', name)).toBe(raw('api', name));
    }
    expect(list(service('api').volumes)).not.toEqual(list(service('worker').volumes));
  });

  test('the worker gets the api\'s variables, as test/platform/at-scale.test.ts runs them, but for the HTTPS listener and RUN_WORKER', () => {
    const apiOnly = ['RUN_WORKER', 'PORT', 'TLS_CERT_FILE', 'TLS_KEY_FILE', 'TRUST_PROXY'];
    const raw = (s: string) => map(service(s).environment, 'environment');
    const { api, worker } = { api: raw('api'), worker: raw('worker') };
    expect(Object.keys(worker).sort()).toEqual(Object.keys(api).filter((k) => !apiOnly.includes(k)).sort());
    for (const k of Object.keys(worker)) expect([k, worker[k]]).toEqual([k, api[k]]);
    // Documented where operators set it; empty by default (public addresses only).
    expect(api.OUTBOUND_ALLOW_CIDRS).toBe('${OUTBOUND_ALLOW_CIDRS:-}');
  });

  test('Temporal clients point at the temporal service', () => {
    expect(containerPorts(temporal)).toContain('7233');
    for (const s of [...appServices, ui]) expect(env(s).TEMPORAL_ADDRESS).toBe(`${temporal}:7233`);
    expect(env('api').TEMPORAL_NAMESPACE).toBe(env(temporal).DEFAULT_NAMESPACE);
    expect(env('api').TEMPORAL_TASK_QUEUE).toBe(env('worker').TEMPORAL_TASK_QUEUE);
  });

  test('the database URLs and Temporal persistence point at the postgres service', () => {
    for (const s of appServices) {
      const url = new URL(env(s).DATABASE_URL);
      expect(url.protocol).toBe('postgres:');
      expect(url.hostname).toBe(postgres);
      expect(url.port || '5432').toBe('5432');
      expect(url.pathname).toBe(`/${pg.POSTGRES_DB}`);
      expect(decodeURIComponent(url.username)).toBe(pg.POSTGRES_USER);
      expect(decodeURIComponent(url.password)).toBe(pg.POSTGRES_PASSWORD);
    }
    const t = env(temporal);
    expect(t.DB).toBe('postgres12');
    expect(t.POSTGRES_SEEDS).toBe(postgres);
    expect(t.DB_PORT).toBe('5432');
    expect([t.POSTGRES_USER, t.POSTGRES_PWD]).toEqual([pg.POSTGRES_USER, pg.POSTGRES_PASSWORD]);
  });

  test('mail goes to an SMTP service that exists', () => {
    for (const s of appServices) {
      const url = new URL(env(s).SMTP_URL);
      expect(Object.keys(services)).toContain(url.hostname);
    }
  });

  test('depends_on names existing services, has no cycles, and covers every address used', () => {
    const names = Object.keys(services);
    for (const s of names) for (const d of dependsOn(s)) expect(names).toContain(d);
    const visiting = new Set<string>();
    const visit = (s: string, trail: string[]): void => {
      if (trail.includes(s)) throw new Error(`depends_on cycle: ${[...trail, s].join(' -> ')}`);
      if (visiting.has(s)) return;
      visiting.add(s);
      for (const d of dependsOn(s)) visit(d, [...trail, s]);
    };
    names.forEach((s) => visit(s, []));
    for (const s of appServices) expect(dependsOn(s)).toEqual(expect.arrayContaining([postgres, temporal]));
    expect(dependsOn(temporal)).toContain(postgres);
    expect(dependsOn(ui)).toContain(temporal);
  });

  test('ports: API on 8443 (its PORT); every published port on loopback only', () => {
    expect(list(service('api').ports)).toEqual(['127.0.0.1:8443:8443']);
    expect(env('api').PORT).toBe('8443');
    expect(list(service(ui).ports)).toEqual(['127.0.0.1:8080:8080']);
    expect(list(service(temporal).ports)).toEqual(['127.0.0.1:7233:7233']);
    expect(list(service('mailpit').ports)).toEqual(['127.0.0.1:8025:8025']);
    expect(service('worker').ports).toBeUndefined();
  });

  test('every npm command of a service is a script of package.json', () => {
    for (const s of Object.keys(services)) {
      const command = list(service(s).command);
      if (command[0] === 'npm') expect({ service: s, known: Object.keys(scripts).includes(scriptOf(command) ?? '') }).toEqual({ service: s, known: true });
    }
  });

  test('the subset reader rejects YAML it would misread', () => {
    expect(() => parseYamlSubset('a: &x 1\nb: *x\n')).toThrow(/unsupported/);
    expect(() => parseYamlSubset('a: |\n  text\n')).toThrow(/unsupported/);
    expect(() => parseYamlSubset('a:\n  - 1\n  b: 2\n')).toThrow(/mixed/);
    expect(parseYamlSubset("a:\n  b: 'x # y' # note\n  c: [\"1\", two]\n")).toEqual({ a: { b: 'x # y', c: ['1', 'two'] } });
  });
});

/** Docker is on the machine but images are not built in tests: the Dockerfile is checked as text. */
describe('Dockerfile', () => {
  const instructions = dockerInstructions(readFileSync(path.join(repo, 'Dockerfile'), 'utf8'));
  const of = (op: string) => instructions.filter((i) => i.op === op).map((i) => i.args);
  const runs = of('RUN').flatMap((r) => r.split(/&&|;/).map((c) => c.trim().split(/\s+/)));

  test('builds on node:20 and installs as README does: npm install, never npm ci', () => {
    expect(of('FROM')).toEqual([expect.stringMatching(/^node:20\b/)]);
    const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
    expect(readme).toContain('npm install && npm start');
    const npm = runs.filter((c) => c[0] === 'npm');
    expect(npm.map((c) => c[1])).not.toContain('ci');
    expect(npm.find((c) => c[1] === 'install')).toEqual(['npm', 'install', '--no-audit', '--no-fund']);
    expect(readFileSync(path.join(repo, '.dockerignore'), 'utf8')).toMatch(/^node_modules$/m);
  });

  test('every npm run names a script, every node script run and COPY source exists', () => {
    for (const c of runs) {
      if (c[0] === 'npm' && scriptOf(c) !== null) expect(Object.keys(scripts)).toContain(scriptOf(c));
      if (c[0] === 'node') expect({ file: c[1], exists: existsSync(path.join(repo, c[1])) }).toEqual({ file: c[1], exists: true });
    }
    const copies = of('COPY').filter((a) => !a.startsWith('--from'));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const sources = copy.split(/\s+/).filter((w) => !w.startsWith('--')).slice(0, -1);
      for (const source of sources) expect({ source, exists: existsSync(path.join(repo, source)) }).toEqual({ source, exists: true });
    }
  });

  test('starts with README\'s start command on the port it exposes', () => {
    expect(of('CMD')).toEqual(['["npm", "start"]']);
    expect(Object.keys(scripts)).toContain('start');
    expect(of('EXPOSE')).toEqual(['8443']);
    expect(of('ENV').join(' ')).toMatch(/\bPORT=8443\b/);
  });
});
