// The embedded database's door and the data directory (docs/security.md "The embedded
// database"): a service of its own on the embedded shape whatever DATABASE_URL says, started on
// a data directory an older version left readable by everyone.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { SecretBox } from '../../src/secret-box';
import { api, serviceCa } from '../support/api';
import { ROOT, serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';

jest.setTimeout(240_000);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-embedded-door-'));
const oldFile = path.join(dataDir, 'notes.txt');
let service: ServiceProcess | undefined;
let key: string;

function embeddedEnv(): NodeJS.ProcessEnv {
  const env = serviceEnv(dataDir);
  // Everything embedded, the secrets key generated into the data directory.
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'SECRETS_KEY', 'OUTBOX_DISPATCHER']) delete env[name];
  return env;
}

beforeAll(async () => {
  chmodSync(dataDir, 0o755);
  writeFileSync(oldFile, 'left by an older version');
  chmodSync(oldFile, 0o644);
  service = await startServiceProcess(embeddedEnv());
  key = JSON.parse(readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')).secret_api_key;
});

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: string, route: string, body?: object) => api(method, route, { baseUrl: service!.url, ca: serviceCa(dataDir), key, body });
const databaseUrl = () => JSON.parse(readFileSync(path.join(dataDir, 'database.json'), 'utf8')).url as string;

async function connected(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined); // a failed test leaves it open when the service stops
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  return client;
}

/** Every file and folder under the data directory whose mode is not private (0600 files, 0700 folders). */
function notPrivate(dir: string): string[] {
  const out: string[] = [];
  const mode = lstatSync(dir).mode & 0o777;
  if (mode !== 0o700) out.push(`${dir} ${mode.toString(8)}`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...notPrivate(full));
    else if (entry.isFile() && (lstatSync(full).mode & 0o777) !== 0o600) out.push(`${full} ${(lstatSync(full).mode & 0o777).toString(8)}`);
  }
  return out;
}

test('the wire server asks for the generated password in database.json (0600); a wrong password, none, or another user is refused', async () => {
  const info = path.join(dataDir, 'database.json');
  expect(lstatSync(info).mode & 0o777).toBe(0o600);
  const url = new URL(databaseUrl());
  expect(decodeURIComponent(url.password)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  const client = await connected(url.href);
  expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  await client.end();

  const wrong = new URL(url.href);
  wrong.password = 'postgres';
  await expect(connected(wrong.href)).rejects.toMatchObject({ code: '28P01' });
  const none = new URL(url.href);
  none.password = '';
  await expect(connected(none.href)).rejects.toThrow();
  const intruder = new URL(url.href);
  intruder.username = 'intruder';
  await expect(connected(intruder.href)).rejects.toMatchObject({ code: '28P01' });
  // The service still works after the refusals.
  expect((await call('GET', '/contacts')).status).toBe(200);
});

test("a client emptying search_path (as pg_dump does) changes only its own session, during and after it", async () => {
  const client = await connected(databaseUrl());
  await client.query("SET search_path TO ''");
  await client.query("SELECT set_config('search_path', '', false)");
  await client.query('SET extra_float_digits = 3');
  expect((await call('GET', '/contacts')).status).toBe(200);
  expect((await client.query('SHOW search_path')).rows).toEqual([{ search_path: '' }]);
  await client.end();
  expect((await call('GET', '/contacts')).status).toBe(200);
  const other = await connected(databaseUrl());
  expect((await other.query('SHOW search_path')).rows).toEqual([{ search_path: 'public' }]);
  expect((await other.query('SHOW extra_float_digits')).rows).toEqual([{ extra_float_digits: '1' }]);
  await other.end();
});

test('a client that leaves inside its transaction has it rolled back, and the others go on', async () => {
  const client = await connected(databaseUrl());
  await client.query('BEGIN');
  await client.query("UPDATE organisations SET name = 'never committed'");
  await client.end();
  const answer = await Promise.race([call('GET', '/contacts'), new Promise((resolve) => setTimeout(() => resolve('no answer within 10 s'), 10_000))]);
  expect((answer as { status?: number }).status ?? answer).toBe(200);
  const other = await connected(databaseUrl());
  expect((await other.query("SELECT count(*)::int AS n FROM organisations WHERE name = 'never committed'")).rows).toEqual([{ n: 0 }]);
  await other.end();
});

test('the data directory is 0700 and every file in it 0600: PGlite\'s, the secrets\', and one left from before', () => {
  expect(lstatSync(oldFile).mode & 0o777).toBe(0o600);
  expect(readdirSync(path.join(dataDir, 'pgdata')).length).toBeGreaterThan(5);
  expect(notPrivate(dataDir)).toEqual([]);
});

test('at start a secret stored in plain text is sealed, under the key kept in the data directory', async () => {
  const created = await call('POST', '/webhooks', { name: 'Legacy', method: 'POST', url_endpoint: 'https://hooks.example.com/legacy', url_auth: 'API_KEY', api_key: 'key-sealed-1' });
  expect(created.status).toBe(200);
  const client = await connected(databaseUrl());
  await client.query("UPDATE webhooks SET api_key = 'legacy-plain-key-1' WHERE id = $1", [created.body.id]);
  await client.end();

  await service!.stop();
  service = await startServiceProcess(embeddedEnv());
  const again = await connected(databaseUrl());
  const { rows } = await again.query('SELECT api_key, secret FROM webhooks WHERE id = $1', [created.body.id]);
  await again.end();
  expect(rows[0].api_key).toMatch(/^enc:v1:[0-9a-f]{8}:/);
  expect(JSON.stringify(rows)).not.toContain('legacy-plain-key-1');
  expect(JSON.stringify(rows)).not.toContain(created.body.secret_key);
  // The key survived the restart: the secret sealed before it opens.
  expect((await call('GET', `/webhooks/${created.body.id}`)).body.content[0].secret_key).toBe(created.body.secret_key);
  expect(notPrivate(dataDir)).toEqual([]);
});

test('key rotation: reencrypt-secrets moves every secret to the new key, and the service runs on the new key alone', async () => {
  const created = await call('POST', '/webhooks', { name: 'Rotated', method: 'POST', url_endpoint: 'https://hooks.example.com/rotated', url_auth: 'API_KEY', api_key: 'key-rotated-1' });
  expect(created.status).toBe(200);
  await service!.stop();
  const oldKey = readFileSync(path.join(dataDir, 'secrets-key'), 'utf8').trim();
  const newKey = randomBytes(32).toString('base64');
  // The service is stopped: the command opens the data directory itself.
  const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'src/admin.ts'), 'reencrypt-secrets'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey },
  });
  expect(JSON.parse(stdout)).toEqual({ webhooks: 2, integrations: 0, unopened: 0 });

  service = await startServiceProcess({ ...embeddedEnv(), SECRETS_KEY: newKey });
  expect((await call('GET', `/webhooks/${created.body.id}`)).body.content[0].secret_key).toBe(created.body.secret_key);
  const client = await connected(databaseUrl());
  const { rows } = await client.query('SELECT api_key, secret FROM webhooks');
  await client.end();
  const newId = new SecretBox({ current: Buffer.from(newKey, 'base64') }).currentId;
  expect(rows.flatMap((r) => [r.api_key, r.secret]).every((v: string) => v.startsWith(`enc:v1:${newId}:`))).toBe(true);
});
