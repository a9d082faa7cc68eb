/**
 * The history engine: owns every run, applies changes in transactions, persists them before
 * acknowledging, and drives deadlines and task dispatch. All mutations are synchronous (no
 * await between reading and writing state), so Node's single thread is the only lock needed.
 */
import { randomUUID } from 'crypto';
import { Store, LogRecord, RunRecord } from '../store/log';
import { Namespaces } from '../namespaces';
import { Matching } from '../tasks/matching';
import { TimerHeap } from '../tasks/timers';
import {
  api,
  decodeEvent,
  encodeEvent,
  IHeader,
  IHistoryEvent,
  IMemo,
  IPayloads,
  IRetryPolicy,
  ISearchAttributes,
  IFailure,
  enums,
  msDur,
  num,
  ts,
  L,
} from '../proto';
import { attrsOf, makeEvent } from '../history/events';
import { Run, RunState, RunStatus } from './state';
import { encodeToken } from './tokens';
import { dispatchLegacyQuery, dispatchQueries, answerQuery } from './queries';
import { attachUpdates, closeUpdates } from './updates';
import { encodeFields } from './fields';
import { retrySpec, retryPolicyOf, backoff } from './retry';
import { nextCronTick } from './cron';
import { runTransfer } from './transfers';

export { encodeToken, decodeToken, type TaskToken } from './tokens';
export { encodeFields, decodeFields } from './fields';
export { retrySpec, retryPolicyOf, backoff } from './retry';
import { alreadyExists, invalid, notFound, ServiceError } from '../grpc/errors';

export type Logger = (level: string, msg: string, fields?: object) => void;
type PollWftResponse = api.workflowservice.v1.IPollWorkflowTaskQueueResponse;
type PollActResponse = api.workflowservice.v1.IPollActivityTaskQueueResponse;

export interface WfTask {
  key: string;
  sid: number;
  attempt: number;
  queryId?: string;
  /** Queued on a sticky queue: carries only the events since the last completed task. */
  sticky?: boolean;
}
export interface ActTask {
  key: string;
  sid: number;
  attempt: number;
}

export class Tx {
  runs = new Set<Run>();
  ns: LogRecord<RunState>[] = [];
  after: (() => void)[] = [];
}

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
  continuedFrom?: string;
  firstRunId?: string;
  execDeadline?: number;
  initiator?: number;
  attempt?: number;
  lastCompletionResult?: IPayloads | null;
  continuedFailure?: IFailure | null;
  signal?: { name: string; input?: IPayloads | null; header?: IHeader | null };
  cron?: string;
}

const DEFAULT_WFT_TIMEOUT = 10_000;
export const HISTORY_LONG_POLL_MS = 20_000;

export class Engine {
  readonly runs = new Map<string, Run>();
  /** Latest run per workflow id: `${ns}/${workflowId}`. */
  readonly current = new Map<string, Run>();
  readonly wfMatching = new Matching<WfTask, PollWftResponse>(60_000);
  readonly actMatching = new Matching<ActTask, PollActResponse>(60_000);
  readonly timers = new TimerHeap();
  private closed = false;

  constructor(
    readonly store: Store<RunState>,
    readonly namespaces: Namespaces,
    readonly log: Logger,
  ) {}

  // ---------------------------------------------------------------- transactions

  /** Persists a transaction, then runs its follow-ups (task dispatch, waiters). */
  async commit(tx: Tx): Promise<void> {
    const recs: LogRecord<RunState>[] = [...tx.ns];
    const durable = this.store.durable;
    for (const run of tx.runs) {
      if (durable) {
        const rec: RunRecord<RunState> = {
          k: 'run',
          ns: run.ns,
          runId: run.s.runId,
          s: run.s,
          from: run.flushed + 1,
          ev: run.events.slice(run.flushed).map(encodeEvent),
        };
        recs.push(rec);
      }
      const changed = run.flushed !== run.length;
      run.flushed = run.length;
      this.arm(run);
      if (changed) tx.after.push(() => this.wakeHistory(run));
    }
    // The record is serialised synchronously inside append, so later mutations cannot leak in.
    await this.store.append(recs);
    for (const run of tx.runs) if (!run.running) tx.after.push(() => run.pack());
    for (const f of tx.after) {
      try {
        f();
      } catch (e) {
        this.log('error', 'post-commit step failed', { error: String(e) });
      }
    }
  }

  /** Runs a synchronous change and commits it; used by deadline callbacks and async steps. */
  run(fn: (tx: Tx) => void): Promise<void> {
    if (this.closed) return Promise.resolve();
    const tx = new Tx();
    try {
      fn(tx);
    } catch (e) {
      this.log('error', 'engine step failed', { error: String((e as Error).stack ?? e) });
    }
    return this.commit(tx).catch((e) => this.log('error', 'commit failed', { error: String(e) }));
  }

  key(ns: string, runId: string): string {
    return `${ns}/${runId}`;
  }

  // ---------------------------------------------------------------- history

  /** Appends an event to the history (or buffers it while a workflow task is in flight). */
  add(tx: Tx, run: Run, name: string, attrs: object): number {
    const e = makeEvent(name, attrs);
    return this.append(tx, run, e);
  }

  private append(tx: Tx, run: Run, e: IHistoryEvent): number {
    e.eventId = L(run.s.next++);
    this.fixStartedRef(run, e);
    run.push(e);
    run.s.historyBytes += 100;
    tx.runs.add(run);
    return num(e.eventId);
  }

  /**
   * A task completion recorded as "Started + Completed" refers to the started event, whose id is
   * only known when the pair enters the history (it may have been buffered): -1 means "find it".
   */
  private fixStartedRef(run: Run, e: IHistoryEvent): void {
    const a = attrsOf(e);
    if (num(a.startedEventId as number) !== -1) return;
    const sid = num((a.scheduledEventId ?? a.initiatedEventId) as number);
    for (let i = run.events.length - 1; i >= 0; i--) {
      const p = run.events[i];
      if (num(p.activityTaskStartedEventAttributes?.scheduledEventId) === sid && p.activityTaskStartedEventAttributes) {
        a.startedEventId = num(p.eventId);
        return;
      }
      if (p.childWorkflowExecutionStartedEventAttributes && num(p.childWorkflowExecutionStartedEventAttributes.initiatedEventId) === sid) {
        a.startedEventId = num(p.eventId);
        return;
      }
    }
    a.startedEventId = 0;
  }

  /** Delivers an event to a running workflow and makes sure a workflow task will see it. */
  notify(tx: Tx, run: Run, name: string, attrs: object): void {
    if (!run.running) return;
    if (run.inflight) {
      run.s.buffered.push(encodeEvent(makeEvent(name, attrs)));
      tx.runs.add(run);
      return;
    }
    this.add(tx, run, name, attrs);
    this.ensureWft(tx, run);
  }

  flushBuffered(tx: Tx, run: Run): boolean {
    if (run.s.buffered.length === 0) return false;
    const buf = run.s.buffered;
    run.s.buffered = [];
    for (const b of buf) {
      const e = decodeEvent(b);
      e.eventTime = ts(Date.now());
      this.append(tx, run, e);
    }
    return true;
  }

  ensureWft(tx: Tx, run: Run, delayed = false): void {
    if (!run.running || run.s.wft || run.inflight || run.s.wftRetry) return;
    if (run.s.firstWftAt && run.s.firstWftAt > Date.now() && !delayed) return;
    run.s.firstWftAt = undefined;
    this.scheduleWft(tx, run, 1);
  }

  scheduleWft(tx: Tx, run: Run, attempt: number): void {
    const sid = this.add(tx, run, 'WorkflowTaskScheduled', {
      taskQueue: { name: run.s.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      startToCloseTimeout: msDur(run.s.wftTimeoutMs),
      attempt,
    });
    run.s.wft = { sid, attempt, at: Date.now() };
    tx.after.push(() => this.enqueueWft(run));
  }

  enqueueWft(run: Run): void {
    const w = run.s.wft;
    if (!w || !run.running || run.inflight) return;
    const task = { key: this.key(run.ns, run.s.runId), sid: w.sid, attempt: w.attempt };
    const sticky = run.sticky;
    if (!sticky) {
      this.wfMatching.add(this.queueKey(run.ns, run.s.taskQueue), task);
      return;
    }
    this.wfMatching.add(this.queueKey(run.ns, sticky.queue), { ...task, sticky: true });
    // Sticky schedule-to-start: if that worker does not take it in time, any worker may.
    this.timers.at(Date.now() + sticky.timeoutMs, () => {
      if (run.s.wft?.sid !== w.sid || run.inflight || !run.running) return;
      run.sticky = undefined;
      this.wfMatching.add(this.queueKey(run.ns, run.s.taskQueue), task);
    });
  }

  /** A worker is gone: its sticky tasks go back to the normal queue. */
  dropSticky(ns: string, queue: string): void {
    for (const run of this.runs.values()) {
      if (run.ns !== ns || run.sticky?.queue !== queue) continue;
      run.sticky = undefined;
      if (run.running && run.s.wft && !run.inflight) this.enqueueWft(run);
    }
  }

  queueKey(ns: string, tq: string): string {
    return `${ns}/${tq}`;
  }

  wakeHistory(run: Run): void {
    const ws = run.historyWaiters;
    run.historyWaiters = [];
    for (const w of ws) w();
  }

  // ---------------------------------------------------------------- start

  getRun(ns: string, workflowId: string | null | undefined, runId?: string | null): Run {
    if (!workflowId) throw invalid('WorkflowId is not set on request.');
    const run = runId ? this.runs.get(this.key(ns, runId)) : this.current.get(`${ns}/${workflowId}`);
    if (!run || run.s.workflowId !== workflowId) {
      throw notFound(`workflow execution not found for workflow ID "${workflowId}" and run ID "${runId ?? ''}"`);
    }
    return run;
  }

  currentRun(ns: string, workflowId: string): Run | undefined {
    return this.current.get(`${ns}/${workflowId}`);
  }

  /** Applies id-reuse / id-conflict policies; returns the run to reuse, or undefined to start. */
  checkStart(
    tx: Tx,
    ns: string,
    workflowId: string,
    requestId: string,
    reusePolicy: number,
    conflictPolicy: number,
  ): { existing?: Run } {
    const cur = this.currentRun(ns, workflowId);
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
        this.terminate(tx, cur, 'terminated by a start with the same workflow id', 'server');
        return {};
      }
      throw this.alreadyStarted(cur, requestId);
    }
    if (reusePolicy === R.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE) throw this.alreadyStarted(cur, requestId);
    if (reusePolicy === R.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY && cur.s.status === 'Completed') {
      throw this.alreadyStarted(cur, requestId);
    }
    return {};
  }

  alreadyStarted(cur: Run, requestId: string): ServiceError {
    const detail = api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure.encode({
      startRequestId: requestId,
      runId: cur.s.runId,
    }).finish();
    return alreadyExists(`Workflow execution is already running. WorkflowId: ${cur.s.workflowId}, RunId: ${cur.s.runId}.`, {
      typeName: 'temporal.api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure',
      value: detail,
    });
  }

  startRun(tx: Tx, ns: string, p: StartParams): Run {
    const now = Date.now();
    if (p.cron && p.startDelayMs === undefined) p = { ...p, startDelayMs: nextCronTick(p.cron, now) - now };
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
      sa: encodeFields(p.sa?.indexedFields),
      memo: encodeFields(p.memo?.fields),
      historyBytes: 0,
    };
    const run = new Run(ns, s);
    this.runs.set(this.key(ns, runId), run);
    this.current.set(`${ns}/${p.workflowId}`, run);
    this.add(tx, run, 'WorkflowExecutionStarted', {
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
      searchAttributes: p.sa,
      retryPolicy: p.retry ? retryPolicyOf(s.retry!) : undefined,
      workflowExecutionExpirationTime: execDeadline ? ts(execDeadline) : undefined,
      firstWorkflowTaskBackoff: msDur(p.startDelayMs),
      lastCompletionResult: p.lastCompletionResult,
      continuedFailure: p.continuedFailure,
      parentWorkflowNamespace: p.parent?.ns,
      parentWorkflowNamespaceId: p.parent ? this.namespaces.get(p.parent.ns).id : undefined,
      parentWorkflowExecution: p.parent ? { workflowId: p.parent.workflowId, runId: p.parent.runId } : undefined,
      parentInitiatedEventId: p.parent?.iid,
      workflowId: p.workflowId,
      cronSchedule: p.cron,
    });
    if (p.signal) {
      this.add(tx, run, 'WorkflowExecutionSignaled', {
        signalName: p.signal.name,
        input: p.signal.input,
        header: p.signal.header,
        identity: p.identity,
      });
    }
    this.ensureWft(tx, run);
    return run;
  }

  // ---------------------------------------------------------------- closing

  /** Closes a run with its final event and settles everything that depended on it. */
  close(tx: Tx, run: Run, status: RunStatus, name: string, attrs: object): number {
    // Acknowledged signals etc. still waiting behind an in-flight task belong in the history.
    run.inflight = undefined;
    this.flushBuffered(tx, run);
    const id = this.add(tx, run, name, attrs);
    run.s.status = status;
    run.s.closeTime = Date.now();
    run.s.wft = undefined;
    run.s.buffered = [];
    run.inflight = undefined;
    run.started.clear();
    run.s.acts = {};
    run.s.timers = {};
    const children = Object.values(run.s.children);
    run.s.children = {};
    tx.after.push(() => {
      this.applyParentClosePolicy(run, children);
      this.notifyParent(run, status, attrs);
      dispatchQueries(this, run);
      closeUpdates(run);
    });
    return id;
  }

  terminate(tx: Tx, run: Run, reason: string, identity: string, details?: IPayloads | null): void {
    this.close(tx, run, 'Terminated', 'WorkflowExecutionTerminated', { reason, details, identity });
  }

  private applyParentClosePolicy(run: Run, children: RunState['children'][string][]): void {
    const P = enums.ParentClosePolicy;
    for (const c of children) {
      const child = this.currentRun(c.ns, c.workflowId);
      if (!child || !child.running || child.s.parent?.runId !== run.s.runId) continue;
      if (c.policy === P.PARENT_CLOSE_POLICY_ABANDON) continue;
      void this.run((tx) => {
        if (!child.running) return;
        if (c.policy === P.PARENT_CLOSE_POLICY_REQUEST_CANCEL) this.requestCancel(tx, child, 'by parent close policy', 'server');
        else this.terminate(tx, child, 'by parent close policy', 'server');
      });
    }
  }

  /**
   * Recovery of the steps that follow a close in a separate transaction: a child that closed
   * without its parent hearing of it, and a parent that closed without applying its close policy.
   */
  private resumeFamily(run: Run): void {
    for (const c of Object.values(run.s.children)) {
      const child = c.runId ? this.currentRun(c.ns, c.workflowId) : undefined;
      if (child && !child.running && child.s.parent?.runId === run.s.runId) {
        const last = child.lastEvent();
        if (last) this.notifyParent(child, child.s.status, attrsOf(last));
      }
    }
    const p = run.s.parent;
    const parent = p ? this.runs.get(this.key(p.ns, p.runId)) : undefined;
    if (p && parent && !parent.running && p.policy !== undefined) {
      this.applyParentClosePolicy(parent, [{ iid: p.iid, ns: run.ns, workflowId: run.s.workflowId, type: run.s.type, policy: p.policy }]);
    }
  }

  /** Reports a child's final state to its parent (unless it continued as new). */
  private notifyParent(run: Run, status: RunStatus, attrs: object): void {
    const p = run.s.parent;
    if (!p || status === 'ContinuedAsNew') return;
    const parent = this.runs.get(this.key(p.ns, p.runId));
    if (!parent || !parent.running) return;
    const child = parent.s.children[p.iid];
    if (!child) return;
    const a = attrs as Record<string, unknown>;
    const common = {
      namespace: run.ns,
      workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId },
      workflowType: { name: run.s.type },
      initiatedEventId: p.iid,
      startedEventId: child.startedId ?? -1,
    };
    void this.run((tx) => {
      if (!parent.running || !parent.s.children[p.iid]) return;
      delete parent.s.children[p.iid];
      switch (status) {
        case 'Completed':
          this.notify(tx, parent, 'ChildWorkflowExecutionCompleted', { ...common, result: a.result });
          break;
        case 'Failed':
          this.notify(tx, parent, 'ChildWorkflowExecutionFailed', {
            ...common,
            failure: a.failure,
            retryState: a.retryState,
          });
          break;
        case 'Canceled':
          this.notify(tx, parent, 'ChildWorkflowExecutionCanceled', { ...common, details: a.details });
          break;
        case 'TimedOut':
          this.notify(tx, parent, 'ChildWorkflowExecutionTimedOut', { ...common, retryState: a.retryState });
          break;
        case 'Terminated':
          this.notify(tx, parent, 'ChildWorkflowExecutionTerminated', common);
          break;
      }
    });
  }

  requestCancel(tx: Tx, run: Run, reason: string, identity: string, external?: object): void {
    if (!run.running) return;
    if (run.s.cancelRequested) return;
    run.s.cancelRequested = true;
    this.notify(tx, run, 'WorkflowExecutionCancelRequested', {
      cause: reason,
      identity,
      externalWorkflowExecution: external,
    });
  }

  /** Retries a failed or timed-out run under its retry policy; returns the new run id. */
  retryRun(tx: Tx, run: Run, failure: IFailure | null | undefined, timedOut: boolean): string | undefined {
    const r = run.s.retry;
    if (!r) return undefined;
    if (r.maxAttempts > 0 && run.s.attempt >= r.maxAttempts) return undefined;
    const type = failure?.applicationFailureInfo?.type ?? '';
    if (!timedOut && (failure?.applicationFailureInfo?.nonRetryable || r.nonRetryable.includes(type))) return undefined;
    const delay = backoff(r, run.s.attempt);
    if (run.s.execDeadline && Date.now() + delay >= run.s.execDeadline) return undefined;
    return this.restartRun(tx, run, {
      execDeadline: run.s.execDeadline,
      startDelayMs: delay,
      initiator: enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_RETRY,
      attempt: run.s.attempt + 1,
      continuedFailure: failure,
    });
  }

  /** A cron run closed (completed, failed or timed out): the next run waits for the next tick. */
  cronNext(tx: Tx, run: Run, outcome: { result?: IPayloads | null; failure?: IFailure | null }): string | undefined {
    if (!run.s.cron) return undefined;
    return this.restartRun(tx, run, {
      initiator: enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_CRON_SCHEDULE,
      lastCompletionResult: outcome.result,
      continuedFailure: outcome.failure,
    });
  }

  /** A new run of the same workflow with the first run's input (retry and cron both do this). */
  private restartRun(tx: Tx, run: Run, p: Pick<StartParams, 'initiator'> & Partial<StartParams>): string {
    const started = run.events[0].workflowExecutionStartedEventAttributes!;
    const next = this.startRun(tx, run.ns, {
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
      parent: run.s.parent,
      continuedFrom: run.s.runId,
      firstRunId: run.s.firstRunId,
      cron: run.s.cron,
      ...p,
    });
    return next.s.runId;
  }

  // ---------------------------------------------------------------- deadlines

  /** Arms (or disarms) every deadline implied by the run's current state. */
  arm(run: Run): void {
    const want = new Map<string, number>();
    const s = run.s;
    if (run.running) {
      if (s.runDeadline) want.set('run', s.runDeadline);
      if (s.execDeadline) want.set('exec', s.execDeadline);
      if (s.firstWftAt && !s.wft) want.set('firstwft', s.firstWftAt);
      if (s.wftRetry && !s.wft) want.set('wftretry', s.wftRetry.at);
      if (run.inflight) want.set('wft', run.inflight.at + s.wftTimeoutMs);
      for (const t of Object.values(s.timers)) want.set('t:' + t.id, t.fireAt);
      for (const a of Object.values(s.acts)) {
        const st = run.started.get(a.sid);
        if (a.retryAt) want.set('ar:' + a.sid, a.retryAt);
        else if (!st && a.s2s) want.set('as2s:' + a.sid, a.attemptScheduledAt + a.s2s);
        if (a.s2c) want.set('as2c:' + a.sid, a.scheduledAt + a.s2c);
        if (st && a.stc) want.set('astc:' + a.sid, st.at + a.stc);
        if (st && a.hb) want.set('ahb:' + a.sid, st.lastHb + a.hb);
      }
    }
    for (const [k, d] of run.deadlines) {
      if (want.get(k) !== d.at) {
        d.handle.cancel();
        run.deadlines.delete(k);
      }
    }
    for (const [k, at] of want) {
      if (run.deadlines.has(k)) continue;
      const handle = this.timers.at(at, () => {
        run.deadlines.delete(k);
        this.onDeadline(run, k);
      });
      run.deadlines.set(k, { at, handle });
    }
  }

  /** Set by the modules that own each kind of deadline. */
  deadlineHandlers = new Map<string, (run: Run, arg: string) => void>();

  private onDeadline(run: Run, key: string): void {
    if (this.closed || !run.running) return;
    const i = key.indexOf(':');
    const kind = i < 0 ? key : key.slice(0, i);
    const h = this.deadlineHandlers.get(kind);
    if (h) h(run, i < 0 ? '' : key.slice(i + 1));
  }

  // ---------------------------------------------------------------- workflow tasks

  /** Turns a queued workflow task into a poll response, or undefined if it is stale. */
  dispatchWft(t: WfTask, identity: string): PollWftResponse | undefined {
    const run = this.runs.get(t.key);
    if (!run) return undefined;
    if (t.queryId !== undefined) return dispatchLegacyQuery(run, t.queryId);
    const w = run.s.wft;
    if (!run.running || !w || w.sid !== t.sid || run.inflight) return undefined;
    const partial = t.sticky === true && run.sticky !== undefined && run.s.lastStartedId > 0;
    if (t.sticky && !partial) return undefined; // stickiness was dropped; the normal queue has it
    const now = Date.now();
    const startedId = run.s.next;
    const requestId = randomUUID();
    run.inflight = { sid: w.sid, startedId, attempt: w.attempt, at: now, identity, requestId };
    this.arm(run);
    const started = makeEvent(
      'WorkflowTaskStarted',
      { scheduledEventId: w.sid, identity, requestId, historySizeBytes: run.s.historyBytes },
      now,
    );
    started.eventId = L(startedId);
    const queries: Record<string, object> = {};
    for (const q of run.queries) {
      if (q.dispatched) continue;
      q.dispatched = true;
      q.attachedTo = w.sid;
      queries[q.id] = { queryType: q.queryType, queryArgs: q.args, header: q.header };
    }
    return {
      taskToken: encodeToken({ ns: run.ns, w: run.s.workflowId, r: run.s.runId, k: 'w', s: w.sid, a: w.attempt }),
      workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId },
      workflowType: { name: run.s.type },
      previousStartedEventId: L(run.s.lastStartedId),
      startedEventId: L(startedId),
      attempt: w.attempt,
      history: { events: [...(partial ? run.events.slice(run.s.lastStartedId) : run.events), started] },
      workflowExecutionTaskQueue: { name: run.s.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      scheduledTime: ts(w.at),
      startedTime: ts(now),
      queries,
      messages: attachUpdates(run, w.sid, startedId),
    };
  }

  // ---------------------------------------------------------------- recovery & shutdown

  /** Rebuilds in-memory indexes from loaded runs and dispatches outstanding work again. */
  recover(loaded: { ns: string; state: RunState; events: string[] }[]): void {
    const sorted = [...loaded].sort((a, b) => a.state.startTime - b.state.startTime);
    for (const l of sorted) {
      const run = new Run(l.ns, l.state);
      run.load(l.events);
      run.flushed = run.length;
      this.runs.set(this.key(l.ns, l.state.runId), run);
      const curKey = `${l.ns}/${l.state.workflowId}`;
      // Runs come oldest first: the latest one is current, but a running one always wins.
      const cur = this.current.get(curKey);
      if (!cur || !cur.running || run.running) this.current.set(curKey, run);
    }
    for (const run of this.runs.values()) {
      if (!run.running) continue;
      this.arm(run);
      // A task that was in flight when the server stopped is simply handed out again; events
      // buffered behind it can enter the history now.
      if (run.s.buffered.length > 0) {
        void this.run((tx) => {
          this.flushBuffered(tx, run);
          if (!run.s.wftRetry) this.ensureWft(tx, run);
        });
      }
      this.enqueueWft(run);
      for (const iid of [...(run.s.transfers ?? [])]) runTransfer(this, run, iid);
      this.resumeFamily(run);
      for (const a of Object.values(run.s.acts)) {
        if (a.retryAt && a.retryAt > Date.now()) continue;
        this.enqueueActivity(run, a.sid, a.attempt);
      }
    }
  }

  enqueueActivity(run: Run, sid: number, attempt: number): void {
    const a = run.s.acts[sid];
    if (!a) return;
    this.actMatching.add(
      this.queueKey(run.ns, a.taskQueue),
      { key: this.key(run.ns, run.s.runId), sid, attempt },
    );
  }

  /** Drops closed runs older than their namespace's retention period. */
  purgeExpired(now = Date.now()): Promise<void> {
    const tx = new Tx();
    for (const [key, run] of this.runs) {
      if (run.running || !run.s.closeTime) continue;
      let days = 1;
      try {
        days = this.namespaces.get(run.ns).retentionDays;
      } catch {
        /* namespace gone: default retention */
      }
      if (run.s.closeTime + days * 86400_000 > now) continue;
      this.runs.delete(key);
      const curKey = `${run.ns}/${run.s.workflowId}`;
      if (this.current.get(curKey) === run) this.current.delete(curKey);
      tx.ns.push({ k: 'del', ns: run.ns, runId: run.s.runId });
    }
    return tx.ns.length ? this.commit(tx) : Promise.resolve();
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    this.timers.stop();
    this.wfMatching.drain();
    this.actMatching.drain();
    for (const run of this.runs.values()) {
      this.wakeHistory(run);
      closeUpdates(run);
      for (const q of [...run.queries]) answerQuery(run, q.id, { error: 'server shutting down' });
    }
    await this.store.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

