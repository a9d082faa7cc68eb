// The account every /accounts/{id}/rewards|merchants|reward_schemes operation works on: only a
// contact's primary account holds reward information (spec 1 rule 3), and a terminated account
// takes no more changes (docs/rewards.md "The account").
import type { Account, Tx } from '../../../db/client';
import { assertNotTerminated, findAccount } from '../../accounts/rules';
import { conflict } from '../../errors';

export const REWARDS_ENTITY = 'account_rewards';

function assertPrimary(account: Account): Account {
  if (!account.isPrimary) {
    throw conflict('NOT_PRIMARY_ACCOUNT', `Account ${account.number} is not its contact's primary account: only the primary account holds reward information`);
  }
  return account;
}

/** For reads: the account (404 in another organisation), refused unless primary. */
export async function primaryAccount(tx: Tx, organisationId: string, id: string): Promise<Account> {
  return assertPrimary(await findAccount(tx, organisationId, id));
}

/**
 * For writes: the account row locked for the transaction, then checked. The lock serialises the
 * reward writes of one account (so read-then-write below is safe) and waits for a termination or
 * a change of the primary account in flight. FOR NO KEY UPDATE leaves the foreign-key checks of
 * concurrent purchases (FOR KEY SHARE) unblocked.
 */
export async function lockPrimaryAccount(tx: Tx, organisationId: string, id: string): Promise<Account> {
  await tx.$queryRaw`SELECT id FROM accounts WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR NO KEY UPDATE`;
  const account = assertPrimary(await findAccount(tx, organisationId, id));
  assertNotTerminated(account);
  return account;
}

/** The account_rewards row exists from the first reward write on; purchases may create it too, hence ON CONFLICT. */
export async function ensureRewardRow(tx: Tx, organisationId: string, accountId: string): Promise<void> {
  await tx.$executeRaw`INSERT INTO account_rewards (account_id, organisation_id, updated_at)
    VALUES (${accountId}::uuid, ${organisationId}::uuid, now()) ON CONFLICT (account_id) DO NOTHING`;
}
