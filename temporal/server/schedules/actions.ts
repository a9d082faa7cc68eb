/**
 * What a schedule does to workflows: starts one for an action (id `<workflowId>-<nominal time>`,
 * with the TemporalScheduledById and TemporalScheduledStartTime search attributes, as Temporal's
 * scheduler does), finds out whether one it started is still running (following retries and
 * continue-as-new by the chain's first run id), and stops one for the CANCEL_OTHER and
 * TERMINATE_OTHER policies.
 */
import { randomUUID } from 'crypto';
import { api, durMs, enums, IPayload } from '../proto';
import type { Engine, Tx } from '../engine/engine';
import type { Run } from '../engine/state';
import { checkStart, startRun } from '../engine/starts';
import { EngineError } from '../engine/errors';
import type { ActionResult, BufferedStart, Sched, Started } from './state';

/** A run's status as WorkflowExecutionStatus ('TimedOut' → WORKFLOW_EXECUTION_STATUS_TIMED_OUT). */
export const statusOf = (run: Run): number =>
  (enums.WorkflowExecutionStatus as unknown as Record<string, number>)[`WORKFLOW_EXECUTION_STATUS_${run.s.status.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`];

export const identity = (sc: Sched): string => `temporal-scheduler-${sc.ns}-${sc.s.id}`;

/** Go's RFC 3339 of a whole UTC second: `2026-01-01T02:00:00Z`. */
export const isoSecond = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function systemAttribute(type: 'Keyword' | 'Datetime', value: string): IPayload {
  return { metadata: { encoding: Buffer.from('json/plain'), type: Buffer.from(type) }, data: Buffer.from(JSON.stringify(value)) };
}

/** Starts the action's workflow; undefined when it could not (the start is dropped, as in Temporal). */
export function startAction(engine: Engine, tx: Tx, sc: Sched, start: BufferedStart, allowAll: boolean): ActionResult | undefined {
  const req = sc.schedule.action!.startWorkflow!;
  const nominal = isoSecond(start.nominal);
  const workflowId = `${req.workflowId}-${nominal}`;
  const R = enums.WorkflowIdReusePolicy;
  // A scheduled time is started at most once; a trigger or backfill may repeat a closed one.
  const reuse = start.manual ? R.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE : R.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE;
  const requestId = randomUUID();
  try {
    checkStart(engine, tx, sc.ns, workflowId, requestId, reuse, 0);
    const run = startRun(engine, tx, sc.ns, {
      workflowId,
      type: req.workflowType!.name!,
      taskQueue: req.taskQueue!.name!,
      input: req.input,
      header: req.header,
      memo: req.memo,
      sa: {
        indexedFields: {
          ...req.searchAttributes?.indexedFields,
          TemporalScheduledStartTime: systemAttribute('Datetime', nominal),
          TemporalScheduledById: systemAttribute('Keyword', sc.s.id),
        },
      },
      identity: identity(sc),
      requestId,
      execTimeoutMs: durMs(req.workflowExecutionTimeout),
      runTimeoutMs: durMs(req.workflowRunTimeout),
      wftTimeoutMs: durMs(req.workflowTaskTimeout),
      retry: req.retryPolicy,
      // ALLOW_ALL runs take no part in the chain of results.
      lastCompletionResult: !allowAll && sc.s.lastCompletionResult ? decode(api.common.v1.Payloads, sc.s.lastCompletionResult) : undefined,
      continuedFailure: !allowAll && sc.s.continuedFailure ? decode(api.failure.v1.Failure, sc.s.continuedFailure) : undefined,
    });
    return { scheduleTime: start.actual, actualTime: run.s.startTime, workflowId, runId: run.s.runId, status: statusOf(run) };
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    engine.log('warn', 'schedule could not start its workflow', { scheduleId: sc.s.id, workflowId, error: e.message });
    return undefined;
  }
}

/** The latest run of a started chain, or undefined when it is gone (retention) or replaced by another chain. */
export function latestRun(engine: Engine, ns: string, w: Started): Run | undefined {
  const cur = engine.currentRun(ns, w.workflowId);
  if (cur && cur.s.firstRunId === w.runId) return cur;
  return engine.find(ns, w.workflowId, w.runId);
}

/** Cancels or terminates a running workflow of the schedule (overlap policy). */
export function stopRunning(engine: Engine, tx: Tx, sc: Sched, w: Started, terminate: boolean): void {
  const run = latestRun(engine, sc.ns, w);
  if (!run?.running) return;
  if (terminate) engine.terminate(tx, run, 'terminated by schedule overlap policy', identity(sc));
  else engine.requestCancel(tx, run, 'cancelled by schedule overlap policy', identity(sc));
}

/** The close of a run: its status, and its result or failure for the next start. */
export function closeOutcome(run: Run): { status: number; result?: string; failure?: string; message?: string } {
  const e = run.lastEvent();
  const done = e?.workflowExecutionCompletedEventAttributes;
  const failed = e?.workflowExecutionFailedEventAttributes?.failure;
  return {
    status: statusOf(run),
    result: done?.result ? encode(api.common.v1.Payloads, done.result) : undefined,
    failure: failed ? encode(api.failure.v1.Failure, failed) : undefined,
    message: failed?.message ?? undefined,
  };
}

interface Codec<T> {
  encode(m: T): { finish(): Uint8Array };
  decode(b: Uint8Array): T;
}
const encode = <T>(type: Codec<T>, m: T): string => Buffer.from(type.encode(m).finish()).toString('base64');
const decode = <T>(type: Codec<T>, b64: string): T => type.decode(Buffer.from(b64, 'base64'));
