// A contact's self-service login: one username (unique in the organisation, case-insensitive)
// and an argon2id hash of the password. The password itself is never stored or returned.
import type { z } from 'zod';
import type { credentialsBody } from '../../api/contacts/payment-methods/schemas';
import type { Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { alreadyExists } from '../errors';
import { newId } from '../ids';
import { hashPassword } from '../identity/passwords';
import { assertNotAnonymized, lockContact } from './payment-methods/contact';

export type CredentialsInput = z.output<typeof credentialsBody>;

/** Usernames compare case-insensitively ("Alice" and "alice" are one login), so they are kept lower-cased. */
export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}

export interface PreparedCredentials {
  username: string;
  passwordHash: string;
}

/**
 * Hashing takes tens of milliseconds and must not hold a transaction (the embedded database runs
 * one at a time): the route's `prepare` step runs it before the transaction opens.
 */
export async function prepareCredentials(input: CredentialsInput): Promise<PreparedCredentials> {
  return { username: normaliseUsername(input.username), passwordHash: await hashPassword(input.password) };
}

/**
 * Sets the contact's credentials; a contact has at most one, so a second call replaces the
 * username and password and keeps the credential id. A username taken by another contact is
 * refused by its unique index (409 naming `username`, also between concurrent requests).
 */
export async function setContactCredentials(tx: Tx, actor: AuditActor, contactRef: string, input: PreparedCredentials): Promise<{ id: string }> {
  const { organisationId } = actor;
  const { username, passwordHash } = input;
  const contact = await lockContact(tx, organisationId, contactRef);
  assertNotAnonymized(contact);
  const taken = await tx.contactCredential.findFirst({ where: { username, NOT: { contactId: contact.id } }, select: { id: true } });
  if (taken) throw usernameTaken();
  const current = await tx.contactCredential.findUnique({ where: { contactId: contact.id }, select: { id: true } });
  const id = current?.id ?? newId();
  if (current) await tx.contactCredential.update({ where: { id }, data: { username, passwordHash } });
  else await tx.contactCredential.create({ data: { id, organisationId, contactId: contact.id, username, passwordHash } });
  await audit(tx, actor, { action: current ? 'UPDATE' : 'CREATE', entityType: 'contact_credential', entityId: id, changes: { contact_id: contact.id, username } });
  return { id };
}

function usernameTaken() {
  return alreadyExists('username', 'This username is already used by another contact');
}
