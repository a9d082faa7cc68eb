// Activities of the account-termination workflow: one database transaction each, scoped to the
// organisation (docs/money.md "Account termination"). A business refusal is final (not
// retried: src/activities/errors.ts); anything else is retried by Temporal, which the steps make safe.
import type { Db } from '../db/client';
import type { OrgSql } from '../db/sql';
import type { Tx } from '../db/client';
import type { AuditActor } from '../domain/audit';
import { checkIds, notRequested } from './ownership';
import type { TerminationInput } from '../workflows/contracts';
import { markTerminated, moveReceivable, moveWallet, planTermination, terminationRequested, type TerminationPlan } from '../domain/money/termination';
import { inOrgTransaction } from './transaction';

export function terminationActivities(db: Db) {
  async function step<T>(input: TerminationInput, fn: (sql: OrgSql, tx: Tx, actor: AuditActor) => Promise<T>): Promise<T> {
    const { organisationId } = input;
    checkIds({ organisationId, accountId: input.accountId, targetAccountId: input.targetAccountId });
    const actor: AuditActor = { organisationId, actorType: input.actor.type, actorId: input.actor.id, requestId: input.actor.requestId };
    // A wallet with many lots moves in one step: longer than a request may take.
    return inOrgTransaction(db, organisationId, async (tx, sql) => {
      // Every step, not only the first: a forged start may skip straight to any of them.
      if (!(await terminationRequested(sql, input.accountId, input.targetAccountId))) {
        throw notRequested(`a termination of account ${input.accountId} into account ${input.targetAccountId}`);
      }
      return fn(sql, tx, actor);
    }, { timeout: 60_000 });
  }
  return {
    async planTermination(input: TerminationInput): Promise<TerminationPlan> {
      return step(input, (_sql, tx) => planTermination(tx, input.accountId, input.targetAccountId));
    },
    async moveReceivable(input: TerminationInput): Promise<string> {
      return step(input, (sql, _tx, actor) => moveReceivable(sql, actor, input.accountId, input.targetAccountId));
    },
    async moveTerminatedWallet(input: TerminationInput & { walletId: string }): Promise<string> {
      return step(input, (sql, _tx, actor) => moveWallet(sql, actor, input.accountId, input.walletId, input.targetAccountId));
    },
    async markTerminated(input: TerminationInput): Promise<void> {
      return step(input, (sql, _tx, actor) => markTerminated(sql, actor, input.accountId, input.targetAccountId));
    },
  };
}
