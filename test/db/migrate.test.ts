// applyMigrations against the embedded database (in a child process, see helpers) and, when
// DATABASE_URL names a PostgreSQL server, against a throw-away database created on it.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { applyMigrations, MigrationError } from '../../src/db/migrate';
import { query, repoRoot, silentLog, startEmbeddedChild, tempDir } from './helpers';

jest.setTimeout(180_000);

interface Target {
  url: string;
  dispose(): Promise<void>;
}

async function embeddedTarget(): Promise<Target> {
  const tmp = tempDir('migrate-embedded');
  const db = await startEmbeddedChild(tmp.dir);
  return {
    url: db.url,
    dispose: async () => {
      await db.stop();
      tmp.remove();
    },
  };
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  const name = `dbtest_migrate_${randomBytes(4).toString('hex')}`;
  const admin = new Client(adminUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dispose: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const targets: Array<[string, () => Promise<Target>]> = [['embedded PGlite', embeddedTarget]];
if (process.env.DATABASE_URL) targets.push(['PostgreSQL (DATABASE_URL)', () => postgresTarget(process.env.DATABASE_URL as string)]);

describe.each(targets)('applyMigrations on %s', (_name, createTarget) => {
  let target: Target;
  let folder: { dir: string; remove(): void };
  let migrationsDir: string;
  let names: string[];

  beforeAll(async () => {
    target = await createTarget();
    folder = tempDir('migrations');
    migrationsDir = path.join(folder.dir, 'migrations');
    cpSync(path.join(repoRoot, 'prisma/migrations'), migrationsDir, { recursive: true });
    names = readdirSync(migrationsDir).filter((n) => /^\d{14}_/.test(n)).sort();
  });

  afterAll(async () => {
    await target?.dispose();
    folder?.remove();
  });

  test('concurrent starters apply every migration exactly once and record it as Prisma Migrate does', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => applyMigrations(target.url, silentLog, { migrationsDir })));
    expect(results.flat().sort()).toEqual(names);

    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; logs: string | null }>(
      target.url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count, logs FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const row of rows) {
      const sql = readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
    }

    expect(await applyMigrations(target.url, silentLog, { migrationsDir })).toEqual([]);
  });

  test('a failing migration leaves the database unchanged and stops with an error naming it', async () => {
    const broken = '99990101000000_broken';
    mkdirSync(path.join(migrationsDir, broken));
    writeFileSync(path.join(migrationsDir, broken, 'migration.sql'), 'CREATE TABLE half_done (id int);\nSELECT 1/0;\n');

    const attempt = applyMigrations(target.url, silentLog, { migrationsDir });
    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(attempt).rejects.toThrow(`Migration ${broken} failed and was rolled back`);
    expect(await query(target.url, "SELECT to_regclass('half_done') AS t")).toEqual([{ t: null }]);
    expect(await query(target.url, `SELECT 1 FROM _prisma_migrations WHERE migration_name = '${broken}'`)).toEqual([]);

    writeFileSync(path.join(migrationsDir, broken, 'migration.sql'), 'CREATE TABLE half_done (id int);\n');
    expect(await applyMigrations(target.url, silentLog, { migrationsDir })).toEqual([broken]);
    expect(await query(target.url, "SELECT to_regclass('half_done')::text AS t")).toEqual([{ t: 'half_done' }]);
  });
});
