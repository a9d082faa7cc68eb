// Prisma CLI configuration. The service itself never reads this file: it gets its database URL
// from src/config.ts and applies migrations with src/db/migrate.ts at start.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // Only migrate/introspect commands need a URL; `generate` (postinstall) must work without one,
  // so read the variable directly instead of env(), which throws when it is unset.
  datasource: { url: process.env.DATABASE_URL },
});
