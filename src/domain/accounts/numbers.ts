// Account numbers: shared by accounts made with a contact and accounts added later.
import type { Tx } from '../../db/client';
import { CONTACT_DEFAULTS } from '../contacts/defaults';
import { randomDigits } from '../ids';

/**
 * A random number not yet used in the organisation. Random rather than a sequence so numbers
 * reveal nothing about volumes; ten digits make a clash rare, and the unique index still
 * decides a race.
 */
export async function freeAccountNumber(tx: Tx, organisationId: string): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const number = randomDigits(CONTACT_DEFAULTS.accountNumberDigits);
    const taken = await tx.account.findFirst({ where: { organisationId, number }, select: { id: true } });
    if (!taken) return number;
  }
  throw new Error('No free account number found after 10 attempts');
}
