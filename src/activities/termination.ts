// Activities of the account-termination workflow: one database transaction each, scoped to the
// organisation (docs/money.md "Account termination"). A business refusal is final (not retried);
// anything else is retried by Temporal, which the steps make safe.
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../db/client';
import { txSql, type OrgSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import type { Tx } from '../db/client';
import type { AuditActor } from '../domain/audit';
import { AppError } from '../domain/errors';
import { checkIds } from './ownership';
import { markTerminated, moveReceivable, moveWallet, planTermination, type TerminationPlan } from '../domain/money/termination';

export interface TerminationInput {
  organisationId: string;
  accountId: string;
  targetAccountId: string;
  actor: { type: AuditActor['actorType']; id: string; requestId?: string };
}

export function terminationActivities(db: Db) {
  async function step<T>(input: TerminationInput, fn: (sql: OrgSql, tx: Tx, actor: AuditActor) => Promise<T>): Promise<T> {
    const { organisationId } = input;
    checkIds({ organisationId, accountId: input.accountId, targetAccountId: input.targetAccountId });
    const actor: AuditActor = { organisationId, actorType: input.actor.type, actorId: input.actor.id, requestId: input.actor.requestId };
    try {
      return await scopedClient(db, organisationId).$transaction((tx) => fn(txSql(tx, organisationId), tx, actor), { timeout: 60_000 });
    } catch (err) {
      if (err instanceof AppError && err.status < 500) throw ApplicationFailure.nonRetryable(err.message, err.code, { attribute: err.attribute });
      throw err;
    }
  }
  return {
    async planTermination(input: TerminationInput): Promise<TerminationPlan> {
      return step(input, (_sql, tx) => planTermination(tx, input.accountId, input.targetAccountId));
    },
    async moveReceivable(input: TerminationInput): Promise<string> {
      return step(input, (sql, _tx, actor) => moveReceivable(sql, actor, input.accountId, input.targetAccountId));
    },
    async moveTerminatedWallet(input: TerminationInput & { walletId: string }): Promise<string> {
      return step(input, (sql, _tx, actor) => moveWallet(sql, actor, input.walletId, input.targetAccountId));
    },
    async markTerminated(input: TerminationInput): Promise<void> {
      return step(input, (sql, _tx, actor) => markTerminated(sql, actor, input.accountId, input.targetAccountId));
    },
  };
}
