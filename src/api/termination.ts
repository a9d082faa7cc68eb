// POST /accounts/{id}/life_cycle_state with TERMINATED: the refusals are answered at once; the
// move itself is the account-termination workflow (docs/money.md), which this request starts,
// or joins when it already runs, and waits for a bounded time.
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TerminatedFailure } from '@temporalio/common';
import type { TerminationInput } from '../activities/termination';
import { AppError } from '../domain/errors';
import { ERROR_CODES, type ErrorCode } from '../domain/error-codes';
import { planTermination } from '../domain/money/termination';
import { searchAttributes } from '../search-attributes';
import { z } from 'zod';
import { actorOf } from '../domain/audit';
import { moveAccount } from '../domain/accounts/life-cycle';
import type { AppDeps } from './app';
import { route, type RequestContext, type RouteDef } from './route';
import { idParams, idResponse, zId } from './validation';

/** How long the request waits for the workflow before answering 503 (it completes later). */
export const TERMINATION_WAIT_MS = 20_000;

export const terminationWorkflowId = (accountId: string) => `account-termination:${accountId}`;

export async function terminateAccount(client: Client, ctx: RequestContext, accountId: string, targetAccountId: string | undefined): Promise<{ id: string }> {
  const plan = await planTermination(ctx.db, accountId, targetAccountId);
  if (plan.done) return { id: accountId };
  const input: TerminationInput = {
    organisationId: ctx.organisationId, accountId, targetAccountId: targetAccountId!,
    actor: { type: ctx.actor.type, id: ctx.actor.id, requestId: ctx.requestId },
  };
  const workflowId = terminationWorkflowId(accountId);
  let handle;
  try {
    handle = await client.workflow.start('accountTerminationWorkflow', {
      workflowId, taskQueue: ctx.config.TEMPORAL_TASK_QUEUE, args: [input],
      typedSearchAttributes: searchAttributes({ organisationId: ctx.organisationId, entityType: 'ACCOUNTS', entityId: accountId }),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    handle = client.workflow.getHandle(workflowId);
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'waiting'>((resolve) => (timer = setTimeout(() => resolve('waiting'), TERMINATION_WAIT_MS)));
  try {
    const outcome = await Promise.race([handle.result().then(() => 'done' as const), waited]);
    if (outcome === 'waiting') throw new AppError('UNAVAILABLE', `The termination is still running (workflow ${workflowId}); it completes on its own`);
  } catch (err) {
    // Ended from outside (the Temporal UI): the reconciler starts it again (docs/temporal-ui.md).
    if (err instanceof WorkflowFailedError && (err.cause instanceof TerminatedFailure || err.cause instanceof CancelledFailure)) {
      throw new AppError('UNAVAILABLE', `The termination was interrupted (workflow ${workflowId}); it is resumed and completes on its own`);
    }
    throw refusalOf(err) ?? err;
  } finally {
    clearTimeout(timer);
  }
  return { id: accountId };
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
 * ACTIVE ⇄ SUSPENDED in the request's transaction; TERMINATED (final) through the workflow,
 * started from `prepare` so no transaction is held while it runs.
 */
export function accountLifeCycleRoute(deps: AppDeps): RouteDef {
  return route({
    method: 'post', path: '/accounts/{id}/life_cycle_state', operationId: 'setAccountLifeCycleState', tag: 'Accounts', auth: { scope: 'accounts:write' },
    summary: 'Move an account in its life cycle',
    description:
      'ACTIVE ⇄ SUSPENDED; either → TERMINATED (final) with transfer_to_account_id: the account-termination workflow moves the receivable balance and every wallet ' +
      `to that account, cancels the wallets, then marks the account TERMINATED. The answer waits up to ${TERMINATION_WAIT_MS / 1000} s for it, else 503 while it completes on its own; ` +
      'asking again joins the same workflow, and after it finished answers 200 without moving anything.',
    params: idParams, body: lifeCycleBody, response: idResponse, errors: [404, 409, 503],
    example: { life_cycle_state: 'TERMINATED', transfer_to_account_id: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10' },
    prepare: async ({ ctx, params, body }) =>
      body.life_cycle_state === 'TERMINATED' ? terminateAccount(deps.workflows, ctx, params.id, body.transfer_to_account_id) : undefined,
    handler: async ({ ctx, params, body, prepared }) => prepared ?? moveAccount(ctx.db, actorOf(ctx), params.id, body.life_cycle_state as 'ACTIVE' | 'SUSPENDED'),
  });
}
