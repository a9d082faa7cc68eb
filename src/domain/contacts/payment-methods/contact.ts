import type { Contact, Tx } from '../../../db/client';
import { notFound } from '../../errors';
import { assertNotAnonymized, findContact } from '../lookup';

export { assertNotAnonymized, findContact };

/**
 * Finds the contact (GUID or code, as every contact operation does) and locks its row until the
 * transaction ends, so concurrent writes of one contact's secrets (two "default" payment
 * methods, two first credentials, an anonymisation) run one after the other. The anonymised
 * flag is re-read under the lock: an anonymisation that committed meanwhile is seen.
 */
export async function lockContact(tx: Tx, organisationId: string, ref: string): Promise<Contact> {
  const found = await findContact(tx, organisationId, ref);
  const [locked] = await tx.$queryRaw<Array<{ isAnonymized: boolean }>>`
    SELECT is_anonymized AS "isAnonymized" FROM contacts WHERE id = ${found.id}::uuid AND organisation_id = ${organisationId}::uuid FOR UPDATE`;
  if (!locked) throw notFound('Contact');
  return { ...found, isAnonymized: locked.isAnonymized };
}
