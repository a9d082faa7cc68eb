/**
 * Starting runs: the workflow-id reuse and conflict policies, the new run itself, and the runs
 * the server starts on its own when a run closes (retry policy, cron schedule).
 */
import { randomUUID } from 'crypto';
import { api, enums, IFailure, IHeader, IMemo, IPayloads, IRetryPolicy, ISearchAttributes, msDur, ts } from '../proto';
import type { Engine, Tx } from './engine';
import { Run, RunState } from './state';
import { encodeFields } from './fields';
import { typedSearchAttributes } from './search-attributes';
import { retrySpec, retryPolicyOf, backoff } from './retry';
import { nextCronTick } from './cron';
import { alreadyExists, EngineError } from './errors';

export interface StartParams {
  workflowId: string;
  type: string;
  taskQueue: string;
  input?: IPayloads | null;
  header?: IHeader | null;
  memo?: IMemo | null;
  sa?: ISearchAttributes | null;
  identity: string;
  requestId: string;
  execTimeoutMs?: number;
  runTimeoutMs?: number;
  wftTimeoutMs?: number;
  retry?: IRetryPolicy | null;
  startDelayMs?: number;
  parent?: RunState['parent'];
  /** The parent's root (only with `parent`); unset, the new run is its own root. */
  root?: RunState['root'];
  continuedFrom?: string;
  firstRunId?: string;
  execDeadline?: number;
  initiator?: number;
  attempt?: number;
  lastCompletionResult?: IPayloads | null;
  continuedFailure?: IFailure | null;
  signal?: { name: string; input?: IPayloads | null; header?: IHeader | null };
  cron?: string;
  /** Summary and details (the SDK's staticSummary/staticDetails), kept on the started event. */
  userMetadata?: api.sdk.v1.IUserMetadata | null;
  priority?: api.common.v1.IPriority | null;
}

const DEFAULT_WFT_TIMEOUT = 10_000;

/** Applies id-reuse / id-conflict policies; returns the run to reuse, or undefined to start. */
export function checkStart(
  engine: Engine,
  tx: Tx,
  ns: string,
  workflowId: string,
  requestId: string,
  reusePolicy: number,
  conflictPolicy: number,
): { existing?: Run } {
  const cur = engine.currentRun(ns, workflowId);
  if (!cur) return {};
  if (requestId && cur.s.requestId === requestId) return { existing: cur };
  const R = enums.WorkflowIdReusePolicy;
  const C = enums.WorkflowIdConflictPolicy;
  if (cur.running) {
    if (conflictPolicy === C.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING) return { existing: cur };
    if (
      conflictPolicy === C.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING ||
      reusePolicy === R.WORKFLOW_ID_REUSE_POLICY_TERMINATE_IF_RUNNING
    ) {
      engine.terminate(tx, cur, 'terminated by a start with the same workflow id', 'server');
      return {};
    }
    throw alreadyStarted(cur, requestId);
  }
  if (reusePolicy === R.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE) throw alreadyStarted(cur, requestId);
  if (reusePolicy === R.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY && cur.s.status === 'Completed') {
    throw alreadyStarted(cur, requestId);
  }
  return {};
}

function alreadyStarted(cur: Run, requestId: string): EngineError {
  return alreadyExists(`Workflow execution is already running. WorkflowId: ${cur.s.workflowId}, RunId: ${cur.s.runId}.`, {
    startRequestId: requestId,
    runId: cur.s.runId,
  });
}

export function startRun(engine: Engine, tx: Tx, ns: string, p: StartParams): Run {
  const now = Date.now();
  if (p.cron && p.startDelayMs === undefined) p = { ...p, startDelayMs: nextCronTick(p.cron, now) - now };
  const sa = typedSearchAttributes(engine, ns, p.sa);
  const runId = randomUUID();
  const execDeadline = p.execDeadline ?? (p.execTimeoutMs ? now + p.execTimeoutMs : undefined);
  let runTimeoutMs = p.runTimeoutMs;
  if (p.execTimeoutMs && (!runTimeoutMs || runTimeoutMs > p.execTimeoutMs)) runTimeoutMs = p.execTimeoutMs;
  const s: RunState = {
    workflowId: p.workflowId,
    runId,
    type: p.type,
    taskQueue: p.taskQueue,
    status: 'Running',
    startTime: now,
    executionTime: now + (p.startDelayMs ?? 0),
    firstRunId: p.firstRunId ?? runId,
    parent: p.parent,
    root: p.root ?? { workflowId: p.workflowId, runId },
    requestId: p.requestId,
    attempt: p.attempt ?? 1,
    next: 1,
    wftTimeoutMs: Math.min(p.wftTimeoutMs || DEFAULT_WFT_TIMEOUT, 120_000),
    runTimeoutMs,
    execTimeoutMs: p.execTimeoutMs,
    runDeadline: runTimeoutMs ? now + runTimeoutMs : undefined,
    execDeadline,
    firstWftAt: p.startDelayMs ? now + p.startDelayMs : undefined,
    retry: p.retry ? retrySpec(p.retry) : undefined,
    cron: p.cron || undefined,
    lastStartedId: 0,
    acts: {},
    timers: {},
    children: {},
    cancelRequested: false,
    buffered: [],
    sa: encodeFields(sa?.indexedFields),
    memo: encodeFields(p.memo?.fields),
    historyBytes: 0,
  };
  const run = new Run(ns, s);
  engine.runs.set(engine.key(ns, runId), run);
  engine.setCurrent(run);
  engine.add(tx, run, 'WorkflowExecutionStarted', {
    workflowType: { name: p.type },
    taskQueue: { name: p.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    input: p.input,
    header: p.header,
    workflowExecutionTimeout: msDur(p.execTimeoutMs),
    workflowRunTimeout: msDur(runTimeoutMs),
    workflowTaskTimeout: msDur(s.wftTimeoutMs),
    identity: p.identity,
    originalExecutionRunId: runId,
    firstExecutionRunId: s.firstRunId,
    continuedExecutionRunId: p.continuedFrom,
    initiator: p.initiator,
    attempt: s.attempt,
    memo: p.memo,
    searchAttributes: sa,
    retryPolicy: p.retry ? retryPolicyOf(s.retry!) : undefined,
    workflowExecutionExpirationTime: execDeadline ? ts(execDeadline) : undefined,
    firstWorkflowTaskBackoff: msDur(p.startDelayMs),
    lastCompletionResult: p.lastCompletionResult,
    continuedFailure: p.continuedFailure,
    parentWorkflowNamespace: p.parent?.ns,
    parentWorkflowNamespaceId: p.parent ? engine.namespaces.get(p.parent.ns).id : undefined,
    parentWorkflowExecution: p.parent ? { workflowId: p.parent.workflowId, runId: p.parent.runId } : undefined,
    parentInitiatedEventId: p.parent?.iid,
    rootWorkflowExecution: p.root,
    workflowId: p.workflowId,
    cronSchedule: p.cron,
    priority: p.priority,
  }, { userMetadata: p.userMetadata });
  if (p.signal) {
    engine.add(tx, run, 'WorkflowExecutionSignaled', {
      signalName: p.signal.name,
      input: p.signal.input,
      header: p.signal.header,
      identity: p.identity,
    });
  }
  engine.ensureWft(tx, run);
  return run;
}

/** Retries a failed or timed-out run under its retry policy; returns the new run id. */
export function retryRun(engine: Engine, tx: Tx, run: Run, failure: IFailure | null | undefined, timedOut: boolean): string | undefined {
  const r = run.s.retry;
  if (!r) return undefined;
  if (r.maxAttempts > 0 && run.s.attempt >= r.maxAttempts) return undefined;
  const type = failure?.applicationFailureInfo?.type ?? '';
  if (!timedOut && (failure?.applicationFailureInfo?.nonRetryable || r.nonRetryable.includes(type))) return undefined;
  const delay = backoff(r, run.s.attempt);
  if (run.s.execDeadline && Date.now() + delay >= run.s.execDeadline) return undefined;
  return restartRun(engine, tx, run, {
    execDeadline: run.s.execDeadline,
    startDelayMs: delay,
    initiator: enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_RETRY,
    attempt: run.s.attempt + 1,
    continuedFailure: failure,
  });
}

/** A cron run closed (completed, failed or timed out): the next run waits for the next tick. */
export function cronNext(
  engine: Engine,
  tx: Tx,
  run: Run,
  outcome: { result?: IPayloads | null; failure?: IFailure | null },
): string | undefined {
  if (!run.s.cron) return undefined;
  return restartRun(engine, tx, run, {
    initiator: enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_CRON_SCHEDULE,
    lastCompletionResult: outcome.result,
    continuedFailure: outcome.failure,
  });
}

/** A new run of the same workflow with the first run's input and priority (retry and cron both do this). */
function restartRun(engine: Engine, tx: Tx, run: Run, p: Pick<StartParams, 'initiator'> & Partial<StartParams>): string {
  const started = run.events[0].workflowExecutionStartedEventAttributes!;
  const next = startRun(engine, tx, run.ns, {
    workflowId: run.s.workflowId,
    type: run.s.type,
    taskQueue: run.s.taskQueue,
    input: started.input,
    header: started.header,
    memo: started.memo,
    sa: started.searchAttributes,
    identity: 'server',
    requestId: randomUUID(),
    runTimeoutMs: run.s.runTimeoutMs,
    execTimeoutMs: run.s.execTimeoutMs,
    wftTimeoutMs: run.s.wftTimeoutMs,
    retry: started.retryPolicy,
    priority: started.priority,
    ...inheritedFamily(run),
    continuedFrom: run.s.runId,
    firstRunId: run.s.firstRunId,
    cron: run.s.cron,
    ...p,
  });
  return next.s.runId;
}

/**
 * What the next run of the same workflow (retry, cron, continue-as-new) keeps: a child stays its
 * parent's child under the same root; a run without a parent starts a new tree (as in Temporal).
 */
export function inheritedFamily(run: Run): Pick<StartParams, 'parent' | 'root'> {
  return run.s.parent ? { parent: run.s.parent, root: run.s.root } : {};
}
