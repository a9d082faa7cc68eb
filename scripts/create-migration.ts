// npm run db:migration -- <name> [--schema prisma/schema.prisma] [--migrations prisma/migrations]
//
// Writes prisma/migrations/<timestamp>_<name>/migration.sql for the changes made to the schema
// since the last migration, without a database server and without network access (the Prisma
// CLI cannot run here: it downloads its native engine first, FACTS.md). Prints "no changes"
// and writes nothing when the schema already matches the migrations.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateMigration } from './db/generate-migration';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      schema: { type: 'string', default: 'prisma/schema.prisma' },
      migrations: { type: 'string', default: 'prisma/migrations' },
    },
  });
  if (positionals.length !== 1) {
    console.error('usage: npm run db:migration -- <name> [--schema <file>] [--migrations <dir>]');
    process.exit(2);
  }
  const folder = await generateMigration({
    name: positionals[0],
    schemaPath: path.resolve(values.schema),
    migrationsDir: path.resolve(values.migrations),
  });
  console.log(folder ? `created ${path.relative(process.cwd(), path.join(folder, 'migration.sql'))}` : 'no changes');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
