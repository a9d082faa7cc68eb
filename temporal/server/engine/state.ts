/**
 * The state of one workflow run. `RunState` is the persisted part (plain JSON, written whole
 * with every change); `Run` adds what only lives in memory: the decoded history and the tasks
 * a worker currently holds. In-flight tasks are deliberately not persisted: after a restart
 * they are simply dispatched again, which costs one disk write less per task.
 */
import { decodeEvent, encodeEvent, type IHistoryEvent } from '../proto';
import type { TimerHandle } from '../tasks/timers';
import type { ClosedRun } from './closed';

export type RunStatus = 'Running' | 'Completed' | 'Failed' | 'Canceled' | 'Terminated' | 'ContinuedAsNew' | 'TimedOut';

export interface RetrySpec {
  initialMs: number;
  coeff: number;
  maxIntervalMs: number;
  /** 0 = unlimited */
  maxAttempts: number;
  nonRetryable: string[];
}

export interface ActivityState {
  sid: number;
  activityId: string;
  type: string;
  taskQueue: string;
  attempt: number;
  scheduledAt: number;
  attemptScheduledAt: number;
  /** Timeouts in ms; 0 = none. */
  s2c: number;
  s2s: number;
  stc: number;
  hb: number;
  retry: RetrySpec;
  /** Waiting for a retry backoff until this time. */
  retryAt?: number;
  cancelRequestedId?: number;
  /** Base64 Failure of the last failed attempt. */
  lastFailure?: string;
  /** Base64 Payloads of the last heartbeat. */
  details?: string;
}

export interface TimerState {
  id: string;
  sid: number;
  fireAt: number;
}

export interface ChildState {
  iid: number;
  ns: string;
  workflowId: string;
  runId?: string;
  type: string;
  /** ParentClosePolicy enum value. */
  policy: number;
  startedId?: number;
}

export interface RunState {
  workflowId: string;
  runId: string;
  type: string;
  taskQueue: string;
  status: RunStatus;
  startTime: number;
  closeTime?: number;
  executionTime?: number;
  firstRunId: string;
  newRunId?: string;
  /** `policy`: the parent close policy, so it can still be applied after a crash. */
  parent?: { ns: string; workflowId: string; runId: string; iid: number; policy?: number };
  /**
   * The top of the parent chain (Temporal's root execution): a run without a parent is its own
   * root, a child gets its parent's. Absent in runs persisted before it was kept: recovery makes
   * such a run its own root.
   */
  root: { workflowId: string; runId: string };
  requestId: string;
  attempt: number;
  next: number;
  wftTimeoutMs: number;
  runTimeoutMs?: number;
  execTimeoutMs?: number;
  runDeadline?: number;
  execDeadline?: number;
  /** Delayed first workflow task (start delay / cron / retry backoff). */
  firstWftAt?: number;
  /** A failed workflow task is retried after a short backoff (persisted so a restart keeps it). */
  wftRetry?: { at: number; attempt: number };
  retry?: RetrySpec;
  /** Cron schedule: each run, when it closes, starts the next one at the next tick. */
  cron?: string;
  /** The scheduled (not yet completed) workflow task. */
  wft?: { sid: number; attempt: number; at: number };
  lastStartedId: number;
  acts: Record<string, ActivityState>;
  timers: Record<string, TimerState>;
  children: Record<string, ChildState>;
  cancelRequested: boolean;
  /** Base64 events that arrived while a workflow task was in flight. */
  buffered: string[];
  /** Search attributes and memo: name → base64 Payload. */
  sa: Record<string, string>;
  memo: Record<string, string>;
  historyBytes: number;
  /** Request ids of recent signals: a retried signal call is delivered once. */
  signalIds?: string[];
  /** Initiated events of child starts / external signals / cancels not carried out yet. */
  transfers?: number[];
}

export interface InflightWft {
  sid: number;
  startedId: number;
  attempt: number;
  at: number;
  identity: string;
  requestId: string;
}

export interface StartedActivity {
  attempt: number;
  at: number;
  identity: string;
  requestId: string;
  lastHb: number;
}

export interface PendingQuery {
  id: string;
  queryType: string;
  args?: import('../proto').IPayloads | null;
  header?: import('../proto').IHeader | null;
  resolve: (r: { result?: import('../proto').IPayloads | null; error?: string }) => void;
  /** Set once handed to a worker (as a legacy query task or attached to a workflow task). */
  dispatched: boolean;
  /** The workflow task it rode on, so it can go out again if that task fails. */
  attachedTo?: number;
}

export class Run {
  private list: IHistoryEvent[] = [];
  /**
   * Closed runs keep their history encoded (a few hundred bytes per event instead of a tree of
   * objects): they are read rarely, and there can be very many of them.
   */
  private packed?: string[];
  /** Number of events already handed to the store. */
  flushed = 0;
  /** Set when this object is (a copy of) a closed run on disk: a change brings it back into memory. */
  onDisk?: ClosedRun;
  /** Copies of this closed run being written to disk. */
  retiring = 0;
  inflight?: InflightWft;
  started = new Map<number, StartedActivity>();
  deadlines = new Map<string, { at: number; handle: TimerHandle }>();
  historyWaiters: (() => void)[] = [];
  queries: PendingQuery[] = [];
  updates = new Map<string, import('./updates').PendingUpdate>();
  /**
   * The worker's sticky queue (in memory only): tasks go there with only the new events, so a
   * worker that caches the workflow does not receive (and skip) the whole history each time.
   */
  sticky?: { queue: string; timeoutMs: number };
  constructor(
    readonly ns: string,
    public s: RunState,
  ) {}

  get running(): boolean {
    return this.s.status === 'Running';
  }

  /** The history (decoded on each call for a closed run). */
  get events(): IHistoryEvent[] {
    return this.packed ? this.packed.map(decodeEvent) : this.list;
  }

  get length(): number {
    return this.packed ? this.packed.length : this.list.length;
  }

  /** The started event (decoding only that one for a closed run). */
  firstEvent(): IHistoryEvent | undefined {
    if (this.packed) return this.packed.length ? decodeEvent(this.packed[0]) : undefined;
    return this.list[0];
  }

  lastEvent(): IHistoryEvent | undefined {
    if (this.packed) return this.packed.length ? decodeEvent(this.packed[this.packed.length - 1]) : undefined;
    return this.list[this.list.length - 1];
  }

  push(e: IHistoryEvent): void {
    if (this.packed) {
      this.list = this.events;
      this.packed = undefined;
    }
    this.list.push(e);
  }

  encodedEvents(): string[] {
    return this.packed ?? this.list.map(encodeEvent);
  }

  load(encoded: string[]): void {
    if (this.running) this.list = encoded.map(decodeEvent);
    else this.packed = encoded;
  }

  pack(): void {
    if (this.packed || this.running) return;
    this.packed = this.list.map(encodeEvent);
    this.list = [];
  }
}
