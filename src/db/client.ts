// The one way the application reaches its database: one pg Pool per process, shared by Prisma
// (through @prisma/adapter-pg) and by the few hot statements that run on pg directly
// (docs/platform.md "Database access"), whether the URL points at PostgreSQL or at the
// embedded PGlite.
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

export * from '../generated/prisma/client';

/** The application-wide client, not scoped to an organisation (identity and start-up only). */
export type Db = PrismaClient;
/** A client scoped to one organisation, or a transaction of one (src/db/tenancy.ts). */
export type Tx = Prisma.TransactionClient;

export const DEFAULT_POOL_SIZE = 20;

export interface Database {
  prisma: PrismaClient;
  /** For statements where Prisma's per-call cost (~0.4 ms CPU) exceeds the query's (~0.1 ms). */
  pool: Pool;
  close(): Promise<void>;
}

export function openDatabase(url: string, opts: { poolSize?: number } = {}): Database {
  const pool = new Pool({ connectionString: url, max: opts.poolSize ?? DEFAULT_POOL_SIZE });
  // An idle connection that dies (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/** A Prisma client with its own pool (command-line tools and benchmarks). */
export function createPrismaClient(url: string, opts: { poolSize?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: url, max: opts.poolSize ?? DEFAULT_POOL_SIZE });
  return new PrismaClient({ adapter });
}
