import type { Tx } from '../../../db/client';

/**
 * Erases a contact's self-service credentials and every payment method, deleted ones
 * included (hard delete: anonymisation must leave no masked card, IBAN or token behind).
 * Called by the contact anonymise operation inside its transaction; that operation writes the
 * audit row.
 */
export async function deleteContactSecrets(tx: Tx, organisationId: string, contactId: string): Promise<{ credentials: number; paymentMethods: number }> {
  const credentials = await tx.contactCredential.deleteMany({ where: { organisationId, contactId } });
  const paymentMethods = await tx.paymentMethod.deleteMany({ where: { organisationId, contactId } });
  return { credentials: credentials.count, paymentMethods: paymentMethods.count };
}
