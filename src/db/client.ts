// The one way the application gets a database client: Prisma over the standard PostgreSQL wire
// protocol (@prisma/adapter-pg), whether the URL points at PostgreSQL or at the embedded PGlite.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

export * from '../generated/prisma/client';

/** The application-wide client. */
export type Db = PrismaClient;
/** The client handed to code running inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Prisma.TransactionClient;

export const DEFAULT_POOL_SIZE = 20;

/**
 * The adapter owns its pg Pool (`max` = poolSize) and ends it on `$disconnect()`. With the
 * embedded database the socket server's maxConnections must be at least poolSize.
 */
export function createPrismaClient(url: string, opts: { poolSize?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: url, max: opts.poolSize ?? DEFAULT_POOL_SIZE });
  return new PrismaClient({ adapter });
}
