// POST /accounts/{id}/life_cycle_state with TERMINATED: the refusals are answered at once; the
// move itself is the account-termination workflow (docs/money.md). The request records its intent
// in its transaction (requestTermination), and once that committed waits a bounded time for
// the run the outbox dispatcher starts (or the one already running: the same workflow id).
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, CancelledFailure, TerminatedFailure } from '@temporalio/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../domain/errors';
import { ERROR_CODES, type ErrorCode } from '../../domain/error-codes';
import { planTermination, requestTermination } from '../../domain/money/termination';
import { terminationWorkflowId } from '../../workflows/contracts';
import { z } from 'zod';
import { actorOf } from '../../domain/audit';
import { moveAccount } from '../../domain/accounts/life-cycle';
import type { AppDeps } from '../deps';
import { route, type RouteDef } from '../route';
import { idParams, idResponse, zId } from '../validation';

/** How long the request waits for the workflow before answering 503 (it completes later). */
export const TERMINATION_WAIT_MS = 20_000;

/** How often the wait looks again for a run the dispatcher has not started yet. */
const NOT_STARTED_POLL_MS = 100;

/** After the commit: the run's result, or 503 when it takes longer than TERMINATION_WAIT_MS. */
export async function awaitTermination(client: Client, accountId: string): Promise<void> {
  const workflowId = terminationWorkflowId(accountId);
  const deadline = Date.now() + TERMINATION_WAIT_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new AppError('UNAVAILABLE', `The termination is still running (workflow ${workflowId}); it completes on its own`);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waiting'>((resolve) => (timer = setTimeout(() => resolve('waiting'), left)));
    try {
      const outcome = await Promise.race([client.workflow.getHandle(workflowId).result().then(() => 'done' as const), waited]);
      if (outcome === 'done') return;
    } catch (err) {
      // Not started yet: the dispatcher performs the intent right after the commit.
      if (err instanceof WorkflowNotFoundError) {
        await sleep(NOT_STARTED_POLL_MS);
        continue;
      }
      // Ended from outside (the Temporal UI): the reconciler starts it again (docs/temporal-ui.md).
      if (err instanceof WorkflowFailedError && (err.cause instanceof TerminatedFailure || err.cause instanceof CancelledFailure)) {
        throw new AppError('UNAVAILABLE', `The termination was interrupted (workflow ${workflowId}); it is resumed and completes on its own`);
      }
      // A forged run on this id, refused before the intent's run started: that one follows.
      if (err instanceof WorkflowFailedError && refusalType(err) === 'NOT_REQUESTED') {
        await sleep(NOT_STARTED_POLL_MS);
        continue;
      }
      throw refusalOf(err) ?? err;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The type of the ApplicationFailure that ended the run, raised by the workflow or by an activity. */
function refusalType(err: WorkflowFailedError): string | undefined {
  const cause = err.cause instanceof ActivityFailure ? err.cause.cause : err.cause;
  return cause instanceof ApplicationFailure ? cause.type ?? undefined : undefined;
}

/** A refusal raised inside the workflow comes back as the same API error. */
function refusalOf(err: unknown): AppError | undefined {
  if (!(err instanceof WorkflowFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  const code = err.cause.type as ErrorCode | undefined;
  if (!code || !(code in ERROR_CODES)) return undefined;
  const [details] = (err.cause.details ?? []) as Array<{ attribute?: string } | undefined>;
  return new AppError(code, err.cause.message, details?.attribute);
}

const lifeCycleBody = z.strictObject({
  life_cycle_state: z.enum(['ACTIVE', 'SUSPENDED', 'TERMINATED']),
  transfer_to_account_id: zId.optional().meta({ description: 'Required with TERMINATED: where the balances move.' }),
});

/**
 * ACTIVE ⇄ SUSPENDED in the request's transaction; TERMINATED (final) through the workflow, whose
 * intent commits with the request and whose run is waited for after the commit (no transaction held).
 */
export function accountLifeCycleRoute(deps: AppDeps): RouteDef {
  return route({
    method: 'post', path: '/accounts/{id}/life_cycle_state', operationId: 'setAccountLifeCycleState', tag: 'Accounts', auth: { scope: 'accounts:write' },
    summary: 'Move an account in its life cycle',
    description:
      'ACTIVE ⇄ SUSPENDED; either → TERMINATED (final) with transfer_to_account_id: the account-termination workflow moves the receivable balance and every wallet ' +
      `to that account, cancels the wallets, then marks the account TERMINATED. The answer waits up to ${TERMINATION_WAIT_MS / 1000} s for it, else 503 while it completes on its own; ` +
      'asking again joins the same workflow, and after it finished answers 200 without moving anything. One termination per account: while one into another target ' +
      'can still complete, a request naming a different transfer_to_account_id is 409 TERMINATION_IN_PROGRESS (parallel requests included: one target wins).',
    params: idParams, body: lifeCycleBody, response: idResponse, errors: [404, 409, 503],
    example: { life_cycle_state: 'TERMINATED', transfer_to_account_id: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10' },
    // The refusals first, answered before anything is written; an account already TERMINATED needs no workflow.
    prepare: async ({ ctx, params, body }) =>
      body.life_cycle_state === 'TERMINATED' ? { terminate: !(await planTermination(ctx.db, params.id, body.transfer_to_account_id)).done } : undefined,
    handler: async ({ ctx, params, body, prepared }) => {
      if (body.life_cycle_state !== 'TERMINATED') return moveAccount(ctx.db, actorOf(ctx), params.id, body.life_cycle_state);
      if (prepared?.terminate) {
        const requester = { type: ctx.actor.type, id: ctx.actor.id, requestId: ctx.requestId };
        await requestTermination(ctx.sql, ctx.organisationId, params.id, body.transfer_to_account_id!, requester);
      }
      return { id: params.id };
    },
    afterCommit: async ({ params, prepared }) => (prepared?.terminate ? awaitTermination(deps.workflows, params.id) : undefined),
  });
}
