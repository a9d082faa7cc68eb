/**
 * The history engine: owns every run, applies changes in transactions, persists them before
 * acknowledging, and queues workflow tasks. All mutations are synchronous (no await between
 * reading and writing state), so Node's single thread is the only lock needed. The other
 * modules in engine/ are functions over this class (starts.ts, children.ts, deadlines.ts, ...).
 */
import { Store, LogRecord, RunRecord } from '../store/log';
import { Namespaces } from '../namespaces';
import { Matching } from '../tasks/matching';
import { TimerHeap } from '../tasks/timers';
import { Pollers } from '../tasks/pollers';
import { api, decodeEvent, encodeEvent, IHistoryEvent, IPayloads, enums, msDur, num, ts, L } from '../proto';
import { attrsOf, makeEvent } from '../history/events';
import { Run, RunState, RunStatus } from './state';
import { dispatchQueries, answerQuery } from './queries';
import { closeUpdates } from './updates';
import { Deadlines } from './deadlines';
import { applyParentClosePolicy, notifyParent } from './children';
import { invalidArgument, notFound } from './errors';

export { encodeToken, decodeToken, type TaskToken } from './tokens';
export { encodeFields, decodeFields } from './fields';
export { retrySpec, retryPolicyOf, backoff } from './retry';

export type Logger = (level: string, msg: string, fields?: object) => void;
type PollWftResponse = api.workflowservice.v1.IPollWorkflowTaskQueueResponse;
type PollActResponse = api.workflowservice.v1.IPollActivityTaskQueueResponse;
type WorkerCapabilities = api.common.v1.IWorkerVersionCapabilities;

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

export const HISTORY_LONG_POLL_MS = 20_000;

export class Engine {
  readonly runs = new Map<string, Run>();
  /** Latest run per workflow id: `${ns}/${workflowId}`. */
  readonly current = new Map<string, Run>();
  readonly wfMatching = new Matching<WfTask, PollWftResponse>(60_000);
  readonly actMatching = new Matching<ActTask, PollActResponse>(60_000);
  readonly wfPollers = new Pollers<WorkerCapabilities>();
  readonly actPollers = new Pollers<WorkerCapabilities>();
  readonly timers = new TimerHeap();
  private closed = false;
  readonly deadlines = new Deadlines(this.timers, () => this.closed);

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
      this.deadlines.arm(run);
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

  // ---------------------------------------------------------------- workflow-task queueing

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

  // ---------------------------------------------------------------- lookup

  getRun(ns: string, workflowId: string | null | undefined, runId?: string | null): Run {
    if (!workflowId) throw invalidArgument('WorkflowId is not set on request.');
    const run = runId ? this.runs.get(this.key(ns, runId)) : this.current.get(`${ns}/${workflowId}`);
    if (!run || run.s.workflowId !== workflowId) {
      throw notFound(`workflow execution not found for workflow ID "${workflowId}" and run ID "${runId ?? ''}"`);
    }
    return run;
  }

  currentRun(ns: string, workflowId: string): Run | undefined {
    return this.current.get(`${ns}/${workflowId}`);
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
      applyParentClosePolicy(this, run, children);
      notifyParent(this, run, status, attrs);
      dispatchQueries(this, run);
      closeUpdates(run);
    });
    return id;
  }

  terminate(tx: Tx, run: Run, reason: string, identity: string, details?: IPayloads | null): void {
    this.close(tx, run, 'Terminated', 'WorkflowExecutionTerminated', { reason, details, identity });
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

  // ---------------------------------------------------------------- activities, retention & shutdown

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

