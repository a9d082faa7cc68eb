// An account's life cycle (docs/accounts.md): ACTIVE ⇄ SUSPENDED here; TERMINATED is the
// termination saga's (src/domain/money/termination.ts).
import type { Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict } from '../errors';
import { findAccount } from './rules';

/** ACTIVE ⇄ SUSPENDED; the current state again changes nothing; TERMINATED is final. */
export async function moveAccount(tx: Tx, actor: AuditActor, accountId: string, to: 'ACTIVE' | 'SUSPENDED'): Promise<{ id: string }> {
  await tx.$queryRaw`SELECT id FROM accounts WHERE organisation_id = ${actor.organisationId}::uuid AND id = ${accountId}::uuid FOR UPDATE`;
  const account = await findAccount(tx, actor.organisationId, accountId);
  if (account.lifeCycleState === to) return { id: accountId };
  if (account.lifeCycleState === 'TERMINATED') throw conflict('INVALID_STATE_TRANSITION', `An account cannot move from TERMINATED to ${to}`, 'life_cycle_state');
  await tx.account.update({ where: { id: accountId }, data: { lifeCycleState: to } });
  await audit(tx, actor, { action: 'MOVE', entityType: 'account', entityId: accountId, changes: { from: account.lifeCycleState, to } });
  return { id: accountId };
}
