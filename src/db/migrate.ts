// Applies pending migrations at start, the way `prisma migrate deploy` would, without the Prisma
// CLI (it cannot run offline, FACTS.md). Progress is recorded in Prisma's own _prisma_migrations
// table with the same columns and checksums, so `prisma migrate status/deploy` with a real engine
// agree with what this runner did.
//
// Safe with several replicas starting at once: each migration runs in its own transaction that
// first takes a transaction-scoped advisory lock (the key Prisma Migrate itself locks) and then
// re-reads the table, so a migration is applied exactly once and a failed one changes nothing.
// A transaction-scoped lock rather than a session one because on the embedded PGlite every
// connection shares one backend session, where session locks do not exclude each other; its
// socket server instead runs one open transaction at a time, which gives the same guarantee.
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DEFAULT_MIGRATIONS_DIR, readMigrations, type LocalMigration } from './migration-files';

/** Prisma Migrate's advisory lock key, so this runner and `prisma migrate deploy` exclude each other. */
const MIGRATION_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies what is pending and returns the names applied by this call. */
export async function applyMigrations(
  databaseUrl: string,
  log: MigrationLog,
  opts: {
    migrationsDir?: string;
    /** Stop after this one (a restore builds the schema its backup was taken on first: src/db/restore.ts). */
    until?: string;
  } = {},
): Promise<string[]> {
  const all = readMigrations(opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const local = opts.until === undefined ? all : all.slice(0, all.findIndex((m) => m.name === opts.until) + 1);
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', () => {}); // a dropped connection surfaces as the failing query's error
  try {
    await client.connect();
  } catch (err) {
    throw new MigrationError(`Could not connect to the database at ${describeUrl(databaseUrl)} to apply migrations: ${(err as Error).message}`, { cause: err });
  }
  const applied: string[] = [];
  try {
    let first = true;
    for (;;) {
      await client.query('BEGIN');
      try {
        const rows = await lockAndRead(client);
        if (first) warnAboutHistory(local, rows, log);
        first = false;
        const next = nextPending(local, rows);
        if (!next) {
          await client.query('COMMIT');
          break;
        }
        const started = Date.now();
        await applyOne(client, next);
        await client.query('COMMIT');
        applied.push(next.name);
        log.info({ migration: next.name, ms: Date.now() - started }, 'applied database migration');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
  } finally {
    await client.end().catch(() => {});
  }
  return applied;
}

async function lockAndRead(client: Client): Promise<MigrationRow[]> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
  await client.query(CREATE_MIGRATIONS_TABLE);
  const { rows } = await client.query<MigrationRow>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
  );
  const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} is recorded as failed in _prisma_migrations (left by another tool). ` +
        'Fix the database by hand, then mark it with `prisma migrate resolve` or delete that row, and start again.',
    );
  }
  return rows;
}

function nextPending(local: LocalMigration[], rows: MigrationRow[]): LocalMigration | undefined {
  const done = new Set(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => r.migration_name));
  return local.find((m) => !done.has(m.name));
}

/** The whole migration.sql in one simple-protocol query, inside our transaction, like Prisma. */
async function applyOne(client: Client, migration: LocalMigration): Promise<void> {
  try {
    await client.query(migration.sql);
  } catch (err) {
    throw new MigrationError(
      `Migration ${migration.name} failed and was rolled back, the database is unchanged by it: ${(err as Error).message}`,
      { cause: err },
    );
  }
  await client.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
     VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
    [randomUUID(), migration.checksum, migration.name],
  );
}

/** Same diagnostics as `prisma migrate status`, as warnings: they do not stop the service. */
function warnAboutHistory(local: LocalMigration[], rows: MigrationRow[], log: MigrationLog): void {
  const byName = new Map(local.map((m) => [m.name, m]));
  for (const row of rows) {
    if (row.rolled_back_at !== null) continue;
    const file = byName.get(row.migration_name);
    if (!file) log.warn({ migration: row.migration_name }, 'applied migration is missing from the migrations folder');
    else if (file.checksum !== row.checksum) log.warn({ migration: row.migration_name }, 'applied migration was edited since (checksum differs)');
  }
}

/** host:port/database, never the password. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.host}${url.pathname}`;
  } catch {
    return 'the configured URL';
  }
}
