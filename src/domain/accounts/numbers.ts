// Account numbers: shared by accounts made with a contact and accounts added later.
import { randomInt } from 'node:crypto';
import type { Tx } from '../../db/client';
import { CONTACT_DEFAULTS } from '../contacts/defaults';

/**
 * A random number not yet used in the organisation. Random rather than a sequence so numbers
 * reveal nothing about volumes; ten digits make a clash rare, and the unique index still
 * decides a race.
 */
export async function freeAccountNumber(tx: Tx, organisationId: string): Promise<string> {
  const digits = CONTACT_DEFAULTS.accountNumberDigits;
  for (let attempt = 0; attempt < 10; attempt++) {
    const number = String(randomInt(1, 10)) + Array.from({ length: digits - 1 }, () => randomInt(0, 10)).join('');
    const taken = await tx.account.findFirst({ where: { organisationId, number }, select: { id: true } });
    if (!taken) return number;
  }
  throw new Error('No free account number found after 10 attempts');
}
