// The benchmarks' tenant: an organisation of their own and a secret key with every scope,
// written straight through the domain code (not the API) so a bench starts from a known state.
import { createPrismaClient } from '../src/db/client';
import { createApiKey } from '../src/domain/identity/api-keys';
import { createOrganisation } from '../src/domain/identity/organisations';

export async function tenant(databaseUrl: string): Promise<{ organisationId: string; key: string }> {
  const db = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    const org = await createOrganisation(db, `Benchmark ${new Date().toISOString()}`);
    const { secret } = await createApiKey(db, { organisationId: org.id, kind: 'SECRET', name: 'bench', createdBy: 'bench' });
    return { organisationId: org.id, key: secret };
  } finally {
    await db.$disconnect();
  }
}
