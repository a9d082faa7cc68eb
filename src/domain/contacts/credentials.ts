// A contact's self-service login: one username (unique in the organisation, case-insensitive)
// and an argon2id hash of the password. The password itself is never stored or returned.
import type { Db } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { alreadyExists } from '../errors';
import { newId } from '../ids';
import { hashPassword } from '../identity/passwords';
import { assertNotAnonymized, findContact, lockContact } from './payment-methods/contact';

export interface CredentialsInput {
  username: string;
  password: string;
}

/** Usernames compare case-insensitively ("Alice" and "alice" are one login), so they are kept lower-cased. */
export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}

/**
 * Sets the contact's credentials; a contact has at most one, so a second call replaces the
 * username and password and keeps the credential id. Takes the client, not a transaction:
 * hashing takes tens of milliseconds and must not hold the transaction (the embedded database
 * runs one at a time).
 */
export async function setContactCredentials(db: Db, actor: AuditActor, contactRef: string, input: CredentialsInput): Promise<{ id: string }> {
  const organisationId = actor.organisationId;
  assertNotAnonymized(await findContact(db, organisationId, contactRef));
  const passwordHash = await hashPassword(input.password);
  const username = normaliseUsername(input.username);
  return db.$transaction(async (tx) => {
    const contact = await lockContact(tx, organisationId, contactRef);
    assertNotAnonymized(contact);
    const taken = await tx.contactCredential.findFirst({ where: { organisationId, username, NOT: { contactId: contact.id } }, select: { id: true } });
    if (taken) throw usernameTaken();
    const current = await tx.contactCredential.findUnique({ where: { contactId: contact.id }, select: { id: true } });
    const id = current?.id ?? newId();
    try {
      if (current) await tx.contactCredential.update({ where: { id }, data: { username, passwordHash } });
      else await tx.contactCredential.create({ data: { id, organisationId, contactId: contact.id, username, passwordHash } });
    } catch (err) {
      // The unique index settles a race with another contact taking the same username.
      if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'P2002') throw usernameTaken();
      throw err;
    }
    await audit(tx, actor, { action: current ? 'UPDATE' : 'CREATE', entityType: 'contact_credential', entityId: id, changes: { contact_id: contact.id, username } });
    return { id };
  });
}

function usernameTaken() {
  return alreadyExists('username', 'This username is already used by another contact');
}
