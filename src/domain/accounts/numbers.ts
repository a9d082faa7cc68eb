// Account numbers: shared by accounts made with a contact and accounts added later.
import type { OrgSql } from '../../db/sql';
import { CONTACT_DEFAULTS } from '../contacts/defaults';
import { randomDigits } from '../ids';

const TAKEN = 'SELECT 1 AS taken FROM accounts WHERE organisation_id = $1 AND number = $2';

/**
 * A random number not yet used in the organisation. Random rather than a sequence so numbers
 * reveal nothing about volumes; ten digits make a clash rare, and the unique index still
 * decides a race. A Prisma caller passes `txSql(tx, organisationId)`.
 */
export async function freeAccountNumber(sql: OrgSql): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const number = randomDigits(CONTACT_DEFAULTS.accountNumberDigits);
    if (!(await sql.rows(TAKEN, [number])).length) return number;
  }
  throw new Error('No free account number found after 10 attempts');
}
