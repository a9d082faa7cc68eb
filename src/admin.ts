import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { protectDataDir } from './data-dir';
import { createPrismaClient, type Db } from './db/client';
import { startEmbeddedDatabase } from './db/embedded';
import { applyMigrations } from './db/migrate';
import { backupDatabase } from './db/backup';
import { restoreDataDir } from './db/restore';
import { createApiKey, revokeApiKey, type ApiKeyKind } from './domain/identity/api-keys';
import { createOrganisation } from './domain/identity/organisations';
import { isKnownScope } from './domain/identity/scopes';
import { createUser, disableUser, enableUser, resetPassword, revokeSessions, type UserRef } from './domain/users/users';
import { hashPassword, passwordProblem } from './domain/identity/passwords';
import { isId, normaliseId } from './domain/ids';
import { randomBytes } from 'node:crypto';
import { createLogger } from './log';
import { checkLedger } from './domain/money/ledger/check';
import { sealStoredSecrets } from './seal-secrets';

const USAGE = `npm run admin -- <command> [options]

  create-organisation --name NAME [--admin-username U] [--admin-password P]
        a new organisation with an admin user, a secret and a public API key
  create-user --organisation ID --username U [--password P] [--email E] [--admin] [--scopes a,b]
  create-api-key --organisation ID [--type SECRET|PUBLIC] [--name N] [--scopes a,b]
  revoke-api-key --organisation ID --id KEY_ID
  revoke-sessions --organisation ID (--username U | --id USER_ID)
        the user's access tokens stop working within AUTH_CACHE_SECONDS, refresh tokens at once
  disable-user --organisation ID (--username U | --id USER_ID)
        no more sign-in, and revoke-sessions
  enable-user --organisation ID (--username U | --id USER_ID)
  reset-password --organisation ID (--username U | --id USER_ID)
        prints a new generated password once; revokes sessions, lifts the sign-in lock
  list-organisations
  check-ledger [--organisation ID]
        the ledger's invariants (docs/money.md "Proof"); exit code 1 when one is broken
  reencrypt-secrets
        seals every stored secret under SECRETS_KEY (after a key rotation: docs/security.md);
        exit code 1 when some did not open with SECRETS_KEY or SECRETS_KEY_PREVIOUS
  backup --to FILE [--force]
        a consistent copy of the database (gzip'd, mode 0600), also while the service runs;
        --force overwrites FILE. Keys are not in it (docs/operations.md "Backups")
  restore --from FILE [--force]
        into the embedded database of DATA_DIR, which must be empty (or --force: its database
        is moved aside and replaced, its other files stay); checks the ledger of what it restored

Prints JSON. Works on DATABASE_URL, or on the embedded database in DATA_DIR (through the
running service when it holds the directory).`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values: o } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' }, organisation: { type: 'string' }, username: { type: 'string' },
      password: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' }, scopes: { type: 'string' },
      type: { type: 'string' }, id: { type: 'string' }, 'admin-username': { type: 'string' }, 'admin-password': { type: 'string' },
      to: { type: 'string' }, from: { type: 'string' }, force: { type: 'boolean' },
    },
  });
  if (!command || command === 'help' || command === '--help') return void console.log(USAGE);
  if (command === 'backup' || command === 'restore') return void console.log(JSON.stringify(await backupOrRestore(command, o), null, 2));
  const scopes = o.scopes?.split(',').map((s) => s.trim());
  const bad = scopes?.find((s) => !isKnownScope(s));
  if (bad) throw new Error(`unknown scope ${bad}`);
  // The API's rule for a chosen password (POST /users), so the two ways in cannot differ.
  for (const option of ['password', 'admin-password'] as const) {
    const problem = o[option] === undefined ? undefined : passwordProblem(o[option]);
    if (problem) throw new Error(`--${option} ${problem}`);
  }

  const { db, close } = await connect();
  try {
    const out = await run(db, command, o, scopes);
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await close();
  }
}

type Options = Record<string, string | boolean | undefined>;

async function run(db: Db, command: string, o: Options, scopes?: string[]) {
  const need = (k: string) => {
    const v = o[k];
    if (typeof v !== 'string' || !v) throw new Error(`--${k} is required for ${command}`);
    return v;
  };
  switch (command) {
    case 'create-organisation': {
      const org = await createOrganisation(db, need('name'));
      const password = (o['admin-password'] as string | undefined) ?? randomBytes(18).toString('base64url');
      const username = (o['admin-username'] as string | undefined) ?? `admin-${org.id.slice(-12)}`;
      await createUser(db, { organisationId: org.id, username, password, isAdmin: true });
      const secret = await createApiKey(db, { organisationId: org.id, kind: 'SECRET', name: 'Admin CLI secret key', createdBy: 'admin-cli' });
      const pub = await createApiKey(db, { organisationId: org.id, kind: 'PUBLIC', name: 'Admin CLI public key', createdBy: 'admin-cli' });
      return { organisation_id: org.id, secret_api_key: secret.secret, public_api_key: pub.secret, admin: { username, password } };
    }
    case 'create-user': {
      const password = (o.password as string | undefined) ?? randomBytes(18).toString('base64url');
      const email = o.email as string | undefined;
      if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error('--email must be an e-mail address');
      const user = await createUser(db, { organisationId: need('organisation'), username: need('username'), password, isAdmin: o.admin === true, scopes, email });
      return { id: user.id, username: user.username, email: user.email, password };
    }
    case 'create-api-key': {
      const kind = ((o.type as string | undefined) ?? 'SECRET').toUpperCase();
      if (kind !== 'SECRET' && kind !== 'PUBLIC') throw new Error('--type must be SECRET or PUBLIC');
      const { row, secret } = await createApiKey(db, { organisationId: need('organisation'), kind: kind as ApiKeyKind, name: (o.name as string | undefined) ?? 'Admin CLI key', scopes, createdBy: 'admin-cli' });
      return { id: row.id, type: row.kind, scopes: row.scopes, key: secret };
    }
    case 'revoke-api-key':
      // The operator: revokes any key.
      await revokeApiKey(db, need('organisation'), { isAdmin: true, scopes: ['*'] }, need('id'));
      return { id: o.id, revoked: true };
    case 'revoke-sessions':
    case 'disable-user':
    case 'enable-user':
    case 'reset-password':
      return changeUser(db, command, o, need);
    case 'list-organisations':
      return (await db.organisation.findMany({ orderBy: { createdAt: 'asc' } })).map((x) => ({ id: x.id, name: x.name }));
    case 'check-ledger': {
      const violations = await checkLedger(db, (o.organisation as string | undefined) ?? null);
      if (violations.length) process.exitCode = 1;
      return { ok: violations.length === 0, violations };
    }
    case 'reencrypt-secrets': {
      const sealed = await sealStoredSecrets(db, 'all');
      // Values no key here opens still need SECRETS_KEY_PREVIOUS: the rotation is not over.
      if (sealed.unopened) process.exitCode = 1;
      return sealed;
    }
    default:
      throw new Error(`unknown command ${command}\n\n${USAGE}`);
  }
}

/**
 * A new password is generated and printed rather than taken from argv, where every user of the
 * machine could read it (ps, /proc).
 */
async function changeUser(db: Db, command: string, o: Options, need: (k: string) => string) {
  const organisationId = need('organisation');
  if (!isId(organisationId)) throw new Error('--organisation must be an organisation id');
  const id = o.id as string | undefined;
  const username = o.username as string | undefined;
  if ((id === undefined) === (username === undefined)) throw new Error(`${command} takes --username or --id`);
  if (id !== undefined && !isId(id)) throw new Error('--id must be a user id');
  const ref: UserRef = id !== undefined ? { id: normaliseId(id) } : { username: username! };
  const actor = { organisationId: normaliseId(organisationId), actorType: 'system' as const, actorId: 'admin-cli' };
  const password = command === 'reset-password' ? randomBytes(18).toString('base64url') : undefined;
  const passwordHash = password && (await hashPassword(password));
  const user = await db.$transaction((tx) => {
    if (command === 'disable-user') return disableUser(tx, actor, ref);
    if (command === 'enable-user') return enableUser(tx, actor, ref);
    if (passwordHash) return resetPassword(tx, actor, ref, passwordHash);
    return revokeSessions(tx, actor, ref);
  });
  const out = { id: user.id, username: user.username, disabled: user.disabledAt !== null };
  if (command === 'enable-user') return out;
  return { ...out, sessions_revoked: true, ...(password ? { password } : {}) };
}

/**
 * The backup reads the database as it is (no migrations first: a running service already applied
 * them). The restore writes only into the embedded shape; at scale PostgreSQL's own tools restore
 * (docs/operations.md "Backups").
 */
async function backupOrRestore(command: 'backup' | 'restore', o: Options) {
  const option = command === 'backup' ? 'to' : 'from';
  const file = o[option];
  if (typeof file !== 'string' || !file) throw new Error(`--${option} FILE is required for ${command}`);
  const started = Date.now();
  if (command === 'backup') {
    if (existsSync(file) && !o.force) throw new Error(`${file} exists: choose a new file, or pass --force to overwrite it`);
    const { url, close } = await databaseUrl();
    try {
      return { ...(await backupDatabase(url, path.resolve(file))), ms: Date.now() - started };
    } finally {
      await close();
    }
  }
  const config = loadConfig();
  if (config.DATABASE_URL) throw new Error('restore writes the embedded database of DATA_DIR: unset DATABASE_URL (at scale, restore with pg_restore: docs/operations.md "Backups")');
  protectDataDir(config.dataDir);
  const log = createLogger('warn');
  const restored = await restoreDataDir(path.resolve(file), config.dataDir, {
    force: o.force === true,
    log,
    inspect: async (url) => {
      const db = createPrismaClient(url, { poolSize: 2 });
      try {
        return await checkLedger(db, null);
      } finally {
        await db.$disconnect();
      }
    },
  });
  const { inspected: violations, ...summary } = restored;
  if (violations.length) process.exitCode = 1;
  const keys = KEPT_APART.filter(([name, variable]) => !existsSync(path.join(config.dataDir, name)) && !process.env[variable]);
  return {
    ...summary,
    ledger: { ok: violations.length === 0, violations },
    ...(keys.length
      ? { before_start: `copy ${keys.map(([f]) => f).join(' and ')} from the source's data directory into ${config.dataDir} (or set ${keys.map(([, v]) => v).join(' and ')} as there): without them its stored webhook and integration secrets do not open and its open vouchers cannot be redeemed` }
      : {}),
  };
}

/** Keys a backup does not hold (docs/operations.md "Backups"): their file in DATA_DIR, their variable. */
const KEPT_APART = [['secrets-key', 'SECRETS_KEY'], ['voucher-secret', 'VOUCHER_SECRET']] as const;

/** DATABASE_URL; else the running service's embedded database; else open the data directory. */
async function connect(): Promise<{ db: Db; close: () => Promise<void> }> {
  const { url, close } = await databaseUrl();
  await applyMigrations(url, createLogger('warn'));
  const db = createPrismaClient(url, { poolSize: 2 });
  return {
    db,
    close: async () => {
      await db.$disconnect();
      await close();
    },
  };
}

async function databaseUrl(): Promise<{ url: string; close: () => Promise<void> }> {
  const config = loadConfig();
  const log = createLogger('warn');
  let url = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  const runningFile = path.join(config.dataDir, 'database.json');
  if (!url && existsSync(runningFile)) {
    const running = JSON.parse(readFileSync(runningFile, 'utf8')) as { url: string; pid: number };
    if (isAlive(running.pid)) url = running.url;
  }
  if (!url) {
    protectDataDir(config.dataDir);
    const embedded = await startEmbeddedDatabase(config.dataDir, { log });
    url = embedded.url;
    stopEmbedded = () => embedded.close();
  }
  return { url, close: async () => stopEmbedded?.() };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

main().catch((err) => {
  process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
