import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { protectDataDir } from './data-dir';
import { createPrismaClient, type Db } from './db/client';
import { startEmbeddedDatabase } from './db/embedded';
import { applyMigrations } from './db/migrate';
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
    },
  });
  if (!command || command === 'help' || command === '--help') return void console.log(USAGE);
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

/** DATABASE_URL; else the running service's embedded database; else open the data directory. */
async function connect(): Promise<{ db: Db; close: () => Promise<void> }> {
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
  await applyMigrations(url, log);
  const db = createPrismaClient(url, { poolSize: 2 });
  return {
    db,
    close: async () => {
      await db.$disconnect();
      await stopEmbedded?.();
    },
  };
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
