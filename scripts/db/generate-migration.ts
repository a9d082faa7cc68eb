// Creates the next migration offline: the WebAssembly schema engine replays the existing
// migrations on a throw-away in-memory PGlite (the shadow database) and diffs the result against
// the Prisma schema, exactly what `prisma migrate dev --create-only` does with a real engine.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { LOCK_FILE, LOCK_FILE_CONTENT, MIGRATION_FILE, readMigrations } from '../../src/db/migration-files';
import { createInMemoryShadowAdapter } from './pglite-adapter';
import { createSchemaEngine } from './schema-engine';

export interface GenerateMigrationOptions {
  name: string;
  schemaPath: string;
  migrationsDir: string;
}

/** The folder of the new migration, or null when the schema matches the migrations. */
export async function generateMigration({ name, schemaPath, migrationsDir }: GenerateMigrationOptions): Promise<string | null> {
  const slug = slugify(name);
  const adapter = await createInMemoryShadowAdapter();
  try {
    const engine = await createSchemaEngine(adapter);
    // diff, not createMigration: the wasm engine's createMigration refuses to use an adapter's
    // shadow database ("must be provided through an external factory"); diff from "migrations"
    // replays them on connectToShadowDb().
    const result = await engine.diff({
      from: { tag: 'migrations', ...migrationList(migrationsDir) },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: readFileSync(schemaPath, 'utf8') }] },
      script: true,
      exitCode: true,
      filters: { externalTables: [], externalEnums: [] },
    });
    engine.free();
    if (result.exitCode === 0) return null; // 2 means "the diff is not empty"
    const folder = path.join(migrationsDir, `${nextTimestamp(migrationsDir)}_${slug}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, MIGRATION_FILE), result.stdout ?? '');
    const lockFile = path.join(migrationsDir, LOCK_FILE);
    if (!existsSync(lockFile)) writeFileSync(lockFile, LOCK_FILE_CONTENT);
    return folder;
  } finally {
    await adapter.close();
  }
}

function migrationList(migrationsDir: string): MigrationList {
  const lockPath = path.join(migrationsDir, LOCK_FILE);
  return {
    baseDir: migrationsDir,
    // Before the first migration there is no lock file yet; the engine needs it to pick its connector.
    lockfile: { path: LOCK_FILE, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : LOCK_FILE_CONTENT },
    shadowDbInitScript: '',
    migrationDirectories: readMigrations(migrationsDir).map((m) => ({
      path: m.name,
      migrationFile: { path: MIGRATION_FILE, content: { tag: 'ok', value: m.sql } },
    })),
  };
}

/** yyyyMMddHHmmss in UTC like Prisma, later than every existing migration so the order holds. */
function nextTimestamp(migrationsDir: string): string {
  const last = readMigrations(migrationsDir).at(-1)?.name.slice(0, 14) ?? '';
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(last.slice(at, at + (i === 0 ? 4 : 2))));
  const afterLast = Date.UTC(y, mo - 1, d, h, mi, s) + 1000;
  const at = new Date(Number.isNaN(afterLast) ? Date.now() : Math.max(Date.now(), afterLast));
  return at.toISOString().replace(/\D/g, '').slice(0, 14);
}

/** Folder-name safe, like the Prisma CLI: "Add wallets" -> "add_wallets". */
function slugify(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 200);
  if (!slug) throw new Error(`"${name}" is not a usable migration name: use letters, digits and underscores`);
  return slug;
}
