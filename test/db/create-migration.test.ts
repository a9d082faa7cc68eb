// `npm run db:migration` end to end, on a temporary copy of the prisma folder so the real one is
// never touched. The CLI runs as a child process (the wasm engine and PGlite need real ESM
// loading, which jest's VM does not offer).
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, runTsToEnd, tempDir } from './helpers';

jest.setTimeout(300_000);

describe('create-migration', () => {
  let tmp: { dir: string; remove(): void };
  let schema: string;
  let migrations: string;
  const folders = () => readdirSync(migrations).filter((n) => /^\d{14}_/.test(n)).sort();
  const createMigration = (name: string) =>
    runTsToEnd(path.join(repoRoot, 'scripts/create-migration.ts'), [name, '--schema', schema, '--migrations', migrations]);

  beforeAll(async () => {
    tmp = tempDir('create-migration');
    schema = path.join(tmp.dir, 'prisma/schema.prisma');
    migrations = path.join(tmp.dir, 'prisma/migrations');
    cpSync(path.join(repoRoot, 'prisma/schema.prisma'), schema);
    cpSync(path.join(repoRoot, 'prisma/migrations'), migrations, { recursive: true });
    // The working schema may be ahead of the committed migrations: catch up first.
    await createMigration('catch_up');
  });

  afterAll(() => tmp?.remove());

  test('prints "no changes" and writes nothing when the schema matches the migrations', async () => {
    const before = folders();
    expect(await createMigration('nothing')).toMatch(/^no changes$/m);
    expect(folders()).toEqual(before);
  });

  test('writes <timestamp>_<name>/migration.sql for a schema change', async () => {
    appendFileSync(
      schema,
      '\nenum WidgetColour {\n  RED\n  BLUE\n}\n\nmodel Widget {\n  id     String       @id @db.Uuid\n  size   Int\n  colour WidgetColour @default(RED)\n\n  @@map("widgets")\n}\n',
    );
    const before = folders();
    const out = await createMigration('Add widgets');
    const added = folders().filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^\d{14}_add_widgets$/);
    expect(added[0] > before[before.length - 1]).toBe(true);
    expect(out).toContain(`created ${path.relative(repoRoot, path.join(migrations, added[0], 'migration.sql'))}`);
    const sql = readFileSync(path.join(migrations, added[0], 'migration.sql'), 'utf8');
    expect(sql).toContain('CREATE TYPE "WidgetColour" AS ENUM');
    expect(sql).toContain('CREATE TABLE "widgets"');
    expect(readFileSync(path.join(migrations, 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');
  });

  test('hand-written CHECK constraints do not upset the engine, and Prisma\'s engine agrees with our migration records', async () => {
    const last = folders().at(-1) as string;
    const check = `${String(Number(last.slice(0, 14)) + 1)}_widget_size_check`;
    mkdirSync(path.join(migrations, check));
    writeFileSync(
      path.join(migrations, check, 'migration.sql'),
      'ALTER TABLE "widgets" ADD CONSTRAINT "widgets_size_positive" CHECK ("size" > 0);\n',
    );
    expect(await createMigration('after_check')).toMatch(/^no changes$/m);

    const report = JSON.parse((await runTsToEnd(path.join(__dirname, 'fixtures/engine-agrees.ts'), [migrations])).trim().split('\n').at(-1) as string);
    expect(report.ourApplied).toEqual(folders());
    expect(report.engineApplied).toEqual(folders());
    expect(report.ourTable).toEqual(report.engineTable);
    expect(report.ourRecords).toEqual(report.engineRecords);
    expect(report.diagnosis).toEqual({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });
    expect(report.engineAppliesOnOurs).toEqual([]);
  });
});
