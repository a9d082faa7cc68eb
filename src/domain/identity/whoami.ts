// Who a credential is (GET /users/me, docs/security.md "Who is asking"): the user or API key
// behind the request, with its organisation's name. Identity code: the organisation is not
// organisation data (src/db/tenancy.ts), so this reads through the unscoped client, always
// naming the caller's organisation.
import type { Tx as Db } from '../../db/client';
import { invalidCredential } from '../errors';

export async function currentUser(db: Db, organisationId: string, userId: string) {
  const user = await db.user.findFirst({
    where: { id: userId, organisationId },
    select: { id: true, username: true, firstName: true, lastName: true, email: true, organisation: { select: { id: true, name: true } } },
  });
  // The token was valid a moment ago (the middleware checked it): gone now means revoked.
  if (!user) throw invalidCredential();
  return user;
}

export async function currentApiKey(db: Db, organisationId: string, keyId: string) {
  const key = await db.apiKey.findFirst({
    where: { id: keyId, organisationId },
    select: { id: true, name: true, kind: true, keyPrefix: true, expiresAt: true, organisation: { select: { id: true, name: true } } },
  });
  if (!key) throw invalidCredential();
  return key;
}
