/**
 * The history engine: owns every run, applies changes in transactions, persists them before
 * acknowledging, and queues workflow tasks. All mutations are synchronous (no await between
 * reading and writing state), so Node's single thread is the only lock needed. The other
 * modules in engine/ are functions over this class (starts.ts, children.ts, deadlines.ts, ...).
 */
import { Store, LogRecord, RunRecord } from '../store/log';
import type { Location, Segments } from '../store/segments';
import { Namespaces } from '../namespaces';
import { Matching } from '../tasks/matching';
import { TimerHeap } from '../tasks/timers';
import { Pollers } from '../tasks/pollers';
import { api, decodeEvent, encodeEvent, HistoryEventType, IHistoryEvent, IPayloads, enums, msDur, num, ts, L } from '../proto';
import { attrsOf, makeEvent } from '../history/events';
import { Run, RunState, RunStatus } from './state';
import { ClosedRun, ClosedRuns, summarise } from './closed';
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

/** Closed runs read back from disk kept in memory for the calls that follow (a history's pages, a query's answer). */
const LOADED_RUNS = 64;

/** Fields of a history event beside its attributes that commands and starts carry. */
export type EventFields = Pick<IHistoryEvent, 'userMetadata' | 'eventGroupMarkers'>;

function definedOnly(f: EventFields): EventFields {
  const out: EventFields = {};
  if (f.userMetadata) out.userMetadata = f.userMetadata;
  if (f.eventGroupMarkers?.length) out.eventGroupMarkers = f.eventGroupMarkers;
  return out;
}

function encodedSize(e: IHistoryEvent): number {
  return HistoryEventType.encode(e).finish().length;
}

export class Engine {
  /** Open runs, and closed ones until their record is on disk (then only `closedRuns` has them). */
  readonly runs = new Map<string, Run>();
  /** Closed runs on disk (with a data directory): what stays in memory of each. */
  readonly closedRuns = new ClosedRuns();
  /** Latest run per namespace and workflow id when it is in memory (else: the newest closed run on disk). */
  private readonly latest = new Map<string, Map<string, Run>>();
  /** Closed runs read back from disk lately, least recently used first. */
  private readonly loaded = new Map<string, Run>();
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
    /** Where closed runs go (store/segments.ts); without it (in-memory mode) they stay in memory. */
    readonly segments?: Segments,
  ) {}

  // ---------------------------------------------------------------- transactions

  /** Persists a transaction, then runs its follow-ups (task dispatch, waiters). */
  async commit(tx: Tx): Promise<void> {
    const recs: LogRecord<RunState>[] = [...tx.ns];
    const durable = this.store.durable;
    const superseded: Location[] = [];
    for (const run of tx.runs) {
      if (run.onDisk) superseded.push(this.reopen(run));
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
    // The run's whole record is in the log now: its older copy on disk is not needed.
    for (const at of superseded) this.segments?.release(at);
    for (const run of tx.runs) if (!run.running) tx.after.push(() => this.retire(run));
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

  /**
   * Appends an event to the history. `fields` are the event's own fields beside its attributes
   * (`userMetadata`, `eventGroupMarkers`).
   */
  add(tx: Tx, run: Run, name: string, attrs: object, fields?: EventFields): number {
    const e = makeEvent(name, attrs);
    if (fields) Object.assign(e, definedOnly(fields));
    return this.append(tx, run, e);
  }

  /** Sets event-level fields on an event already in the history (a command's metadata). */
  annotate(run: Run, eventId: number, fields: EventFields): void {
    const e = run.events[eventId - 1];
    const set = definedOnly(fields);
    if (!e || Object.keys(set).length === 0) return;
    const before = encodedSize(e);
    Object.assign(e, set);
    run.s.historyBytes += encodedSize(e) - before;
  }

  private append(tx: Tx, run: Run, e: IHistoryEvent): number {
    e.eventId = L(run.s.next++);
    this.fixStartedRef(run, e);
    run.push(e);
    // Measured as Temporal does (the encoded events): the SDK's historySize and continue-as-new
    // suggestions depend on it.
    run.s.historyBytes += encodedSize(e);
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
    // Sticky schedule-to-start: if that worker does not take it in time, any worker may. Looked
    // up by key when due, so the timer does not keep a run that closed meanwhile in memory.
    this.timers.at(Date.now() + sticky.timeoutMs, () => this.unstick(task));
  }

  private unstick(task: WfTask): void {
    const run = this.runs.get(task.key);
    if (!run || run.s.wft?.sid !== task.sid || run.inflight || !run.running) return;
    run.sticky = undefined;
    this.wfMatching.add(this.queueKey(run.ns, run.s.taskQueue), task);
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
    const run = runId ? this.find(ns, workflowId, runId) : this.currentRun(ns, workflowId);
    if (!run || run.s.workflowId !== workflowId) {
      throw notFound(`workflow execution not found for workflow ID "${workflowId}" and run ID "${runId ?? ''}"`);
    }
    return run;
  }

  /** The latest run of a workflow id (read back from disk when it is a closed run there). */
  currentRun(ns: string, workflowId: string): Run | undefined {
    const r = this.latest.get(ns)?.get(workflowId);
    if (r) return r;
    const c = this.closedRuns.current(ns, workflowId);
    return c && this.readBack(c, true);
  }

  /** The run in memory that is the latest of its workflow id (a new run, or one recovered at startup). */
  setCurrent(run: Run): void {
    let m = this.latest.get(run.ns);
    if (!m) this.latest.set(run.ns, (m = new Map()));
    m.set(run.s.workflowId, run);
  }

  /** The latest run of a workflow id if it is in memory (a closed one on disk is not read back). */
  currentInMemory(ns: string, workflowId: string): Run | undefined {
    return this.latest.get(ns)?.get(workflowId);
  }

  private dropCurrent(run: Run): void {
    const m = this.latest.get(run.ns);
    if (m?.get(run.s.workflowId) === run) m.delete(run.s.workflowId);
  }

  /**
   * A run by id: open or closing runs are in memory; a closed run on disk is read back (and kept
   * among the recently loaded ones unless `keep` is false, as for a page of a list).
   */
  find(ns: string, workflowId: string, runId: string, keep = true): Run | undefined {
    const run = this.inMemory(this.key(ns, runId));
    if (run) return run.s.workflowId === workflowId ? run : undefined;
    const c = this.closedRuns.get(ns, workflowId, runId);
    return c && this.readBack(c, keep);
  }

  /** A closed run on disk as a Run: its record read from its segment (or the copy read lately). */
  private readBack(c: ClosedRun, keep: boolean): Run | undefined {
    const key = this.key(c.ns, c.runId);
    const loaded = this.loaded.get(key);
    if (loaded) {
      this.keepLoaded(key, loaded);
      return loaded;
    }
    if (!this.segments) return undefined;
    const rec = JSON.parse(this.segments.read(c.at)) as { s: RunState; ev: string[] };
    const copy = new Run(c.ns, rec.s);
    copy.load(rec.ev);
    copy.onDisk = c;
    if (keep) this.keepLoaded(key, copy);
    return copy;
  }

  /** A run in memory by key (open, closing, or a closed one loaded back): what task tokens name. */
  inMemory(key: string): Run | undefined {
    return this.runs.get(key) ?? this.loaded.get(key);
  }

  /** Keeps a closed run read back from disk; the least recently used go, unless a caller still waits on them. */
  private keepLoaded(key: string, run: Run): void {
    this.loaded.delete(key);
    this.loaded.set(key, run);
    if (this.loaded.size <= LOADED_RUNS) return;
    for (const [k, r] of this.loaded) {
      if (this.loaded.size <= LOADED_RUNS) break;
      if (!busy(r)) this.loaded.delete(k);
    }
  }

  // ---------------------------------------------------------------- closed runs to disk

  /**
   * A closed run (its close is in the log) goes to disk: its whole record is appended to a
   * segment, then only its index entry stays in memory and the log gets its location. A run that
   * changes after that comes back into memory (reopen) and goes again after the change.
   */
  retire(run: Run): void {
    if (!this.segments) return run.pack();
    if (this.closed) return; // shutting down: the log has the run whole, the next start moves it
    const key = this.key(run.ns, run.s.runId);
    const v = summarise(run);
    const text = JSON.stringify({ ns: run.ns, runId: run.s.runId, s: run.s, ev: run.encodedEvents() });
    run.retiring++;
    this.segments.append(text).then(
      (at) => {
        run.retiring--;
        // Deleted by retention meanwhile, or a newer copy is on its way: this one is not needed.
        if (this.runs.get(key) !== run || run.retiring > 0 || run.running) return this.segments!.release(at);
        const c = this.closedRuns.entry(run.ns, run.s.runId, v, at);
        this.closedRuns.set(c);
        this.store.append([c.record()]).catch((e) => this.log('warn', 'closed run location not logged (the log still has the run)', { error: String(e) }));
        this.runs.delete(key);
        // The newest closed run of its workflow id is found in the index from now on.
        this.dropCurrent(run);
        run.onDisk = c;
        // Whoever still holds the object (a query, a history poll) keeps it alive; findable by key too.
        if (busy(run)) this.keepLoaded(key, run);
      },
      (e) => {
        run.retiring--;
        this.log('error', 'closed run not written to disk; it stays in memory', { runId: run.s.runId, error: String(e) });
      },
    );
  }

  /**
   * A closed run on disk changes again (a copy read back, committed): it is in memory until it
   * goes back to disk, and is written whole to the log. Returns the location it replaces.
   */
  private reopen(run: Run): Location {
    const c = run.onDisk!;
    const key = this.key(run.ns, run.s.runId);
    run.onDisk = undefined;
    run.flushed = 0;
    this.closedRuns.delete(c);
    this.loaded.delete(key);
    this.runs.set(key, run);
    const newest = this.closedRuns.current(run.ns, run.s.workflowId);
    if (!this.currentInMemory(run.ns, run.s.workflowId) && (!newest || newest.startTime <= run.s.startTime)) this.setCurrent(run);
    return c.at;
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

  /** Drops closed runs older than their namespace's retention period, from memory and from disk. */
  purgeExpired(now = Date.now()): Promise<void> {
    const tx = new Tx();
    const retentionDays = (ns: string): number => {
      try {
        return this.namespaces.get(ns).retentionDays;
      } catch {
        return 1; // namespace gone: default retention
      }
    };
    const expired = (ns: string, closeTime: number): boolean => closeTime + retentionDays(ns) * 86400_000 <= now;
    for (const [key, run] of this.runs) {
      if (run.running || !run.s.closeTime || !expired(run.ns, run.s.closeTime)) continue;
      this.runs.delete(key);
      this.dropCurrent(run);
      tx.ns.push({ k: 'del', ns: run.ns, runId: run.s.runId });
    }
    const released: Location[] = [];
    for (const c of this.closedRuns.closedBefore((ns) => now - retentionDays(ns) * 86400_000)) {
      this.closedRuns.delete(c);
      this.loaded.delete(this.key(c.ns, c.runId));
      tx.ns.push({ k: 'del', ns: c.ns, runId: c.runId });
      released.push(c.at);
    }
    if (!tx.ns.length) return Promise.resolve();
    // Their records on disk go once the deletions are in the log (a crash before that keeps them).
    return this.commit(tx).then(() => released.forEach((at) => this.segments?.release(at)));
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    this.timers.stop();
    this.wfMatching.drain();
    this.actMatching.drain();
    for (const run of [...this.runs.values(), ...this.loaded.values()]) {
      this.wakeHistory(run);
      closeUpdates(run);
      for (const q of [...run.queries]) answerQuery(run, q.id, { error: 'server shutting down' });
    }
    // Records under way to disk first: their locations go into the log before it closes.
    await this.segments?.close();
    await this.store.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** Someone still waits on the run object: a query, an update or a history long poll. */
function busy(run: Run): boolean {
  return run.queries.length > 0 || run.updates.size > 0 || run.historyWaiters.length > 0;
}
