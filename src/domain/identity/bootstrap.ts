import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { createApiKey } from './api-keys';
import { createOrganisation } from './organisations';
import { createUser } from '../users/users';

export interface BootstrapCredentials {
  organisation_id: string;
  secret_api_key: string;
  public_api_key: string;
  admin: { username: string; password: string };
}

// Any fixed number: serialises bootstraps of replicas that start at the same moment.
const BOOTSTRAP_LOCK = 720_410_001;

/**
 * First start on an empty database: one organisation, an admin user and one secret and one
 * public key. Returns them once; on any later start (some organisation exists) returns null.
 */
export async function bootstrapIfEmpty(db: Db): Promise<BootstrapCredentials | null> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`;
    if ((await tx.organisation.count()) > 0) return null;
    const organisation = await createOrganisation(tx, 'Default organisation');
    const password = randomBytes(18).toString('base64url');
    await createUser(tx, { organisationId: organisation.id, username: 'admin', password, isAdmin: true });
    const secret = await createApiKey(tx, { organisationId: organisation.id, kind: 'SECRET', name: 'Bootstrap secret key', createdBy: 'bootstrap' });
    const publicKey = await createApiKey(tx, { organisationId: organisation.id, kind: 'PUBLIC', name: 'Bootstrap public key', createdBy: 'bootstrap' });
    return {
      organisation_id: organisation.id,
      secret_api_key: secret.secret,
      public_api_key: publicKey.secret,
      admin: { username: 'admin', password },
    };
  }, { timeout: 30_000 });
}
