import type { Tx } from '../../../db/client';
import { conflict, notFound } from '../../errors';
import { isId, normaliseId } from '../../ids';

export interface ContactRef {
  id: string;
  isAnonymized: boolean;
}

/**
 * The contact a path names (spec 1 rule 2): a GUID matches the id or the code, anything else
 * is a code. When a GUID is both one contact's id and another's code, the id wins.
 */
export async function findContact(tx: Tx, organisationId: string, ref: string): Promise<ContactRef> {
  const id = isId(ref) ? normaliseId(ref) : undefined;
  const rows = await tx.contact.findMany({
    where: id ? { organisationId, OR: [{ id }, { code: ref }] } : { organisationId, code: ref },
    select: { id: true, isAnonymized: true },
    take: 2,
  });
  const found = rows.find((r) => r.id === id) ?? rows[0];
  if (!found) throw notFound('Contact');
  return found;
}

/**
 * Finds the contact and locks its row until the transaction ends, so concurrent writes of one
 * contact's secrets (two "default" payment methods, two first credentials) run one after the other.
 */
export async function lockContact(tx: Tx, organisationId: string, ref: string): Promise<ContactRef> {
  const contact = await findContact(tx, organisationId, ref);
  const [locked] = await tx.$queryRaw<ContactRef[]>`
    SELECT id, is_anonymized AS "isAnonymized" FROM contacts WHERE id = ${contact.id}::uuid FOR UPDATE`;
  if (!locked) throw notFound('Contact');
  return locked;
}

/** An anonymised contact keeps no secrets: nothing new may be attached to it. */
export function assertNotAnonymized(contact: ContactRef): void {
  if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', 'The contact has been anonymised');
}
