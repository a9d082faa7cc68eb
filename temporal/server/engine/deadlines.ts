/**
 * Every deadline a run can have. They are derived from the run's state after each change (so a
 * restart re-arms them from the stored state) and armed on the shared timer heap; when one fires,
 * the handler for its kind runs. workflow-tasks.ts and activities.ts own the handlers.
 */
import type { TimerHeap } from '../tasks/timers';
import type { Run } from './state';

export type Deadline =
  | { kind: 'workflowRunTimeout' }
  | { kind: 'workflowExecutionTimeout' }
  /** The delayed first workflow task (start delay, cron tick, retry backoff). */
  | { kind: 'firstWorkflowTask' }
  /** The backoff after a failed workflow task. */
  | { kind: 'workflowTaskRetry' }
  | { kind: 'workflowTaskTimeout' }
  | { kind: 'userTimer'; timerId: string }
  | { kind: 'activityRetry'; sid: number }
  | { kind: 'activityScheduleToStart'; sid: number }
  | { kind: 'activityScheduleToClose'; sid: number }
  | { kind: 'activityStartToClose'; sid: number }
  | { kind: 'activityHeartbeat'; sid: number };

export type DeadlineKind = Deadline['kind'];

/** One handler per kind; the type makes registering all of them a compile-time check. */
export type DeadlineHandlers = { [K in DeadlineKind]: (run: Run, d: Extract<Deadline, { kind: K }>) => void };

/** Identifies a deadline among a run's armed ones (never parsed back). */
function keyOf(d: Deadline): string {
  if ('sid' in d) return `${d.kind}:${d.sid}`;
  if ('timerId' in d) return `${d.kind}:${d.timerId}`;
  return d.kind;
}

/** The deadlines the run's current state implies, with their due times. */
function wanted(run: Run): [Deadline, number][] {
  const want: [Deadline, number][] = [];
  const s = run.s;
  if (!run.running) return want;
  if (s.runDeadline) want.push([{ kind: 'workflowRunTimeout' }, s.runDeadline]);
  if (s.execDeadline) want.push([{ kind: 'workflowExecutionTimeout' }, s.execDeadline]);
  if (s.firstWftAt && !s.wft) want.push([{ kind: 'firstWorkflowTask' }, s.firstWftAt]);
  if (s.wftRetry && !s.wft) want.push([{ kind: 'workflowTaskRetry' }, s.wftRetry.at]);
  if (run.inflight) want.push([{ kind: 'workflowTaskTimeout' }, run.inflight.at + s.wftTimeoutMs]);
  for (const t of Object.values(s.timers)) want.push([{ kind: 'userTimer', timerId: t.id }, t.fireAt]);
  for (const a of Object.values(s.acts)) {
    const st = run.started.get(a.sid);
    const sid = a.sid;
    if (a.retryAt) want.push([{ kind: 'activityRetry', sid }, a.retryAt]);
    else if (!st && a.s2s) want.push([{ kind: 'activityScheduleToStart', sid }, a.attemptScheduledAt + a.s2s]);
    if (a.s2c) want.push([{ kind: 'activityScheduleToClose', sid }, a.scheduledAt + a.s2c]);
    if (st && a.stc) want.push([{ kind: 'activityStartToClose', sid }, st.at + a.stc]);
    if (st && a.hb) want.push([{ kind: 'activityHeartbeat', sid }, st.lastHb + a.hb]);
  }
  return want;
}

export class Deadlines {
  private handlers?: DeadlineHandlers;

  constructor(
    private readonly timers: TimerHeap,
    private readonly stopped: () => boolean,
  ) {}

  handle(handlers: DeadlineHandlers): void {
    this.handlers = handlers;
  }

  /** Arms (or disarms) every deadline implied by the run's current state. */
  arm(run: Run): void {
    const want = new Map<string, [Deadline, number]>();
    for (const w of wanted(run)) want.set(keyOf(w[0]), w);
    for (const [k, d] of run.deadlines) {
      if (want.get(k)?.[1] !== d.at) {
        d.handle.cancel();
        run.deadlines.delete(k);
      }
    }
    for (const [k, [deadline, at]] of want) {
      if (run.deadlines.has(k)) continue;
      const handle = this.timers.at(at, () => {
        run.deadlines.delete(k);
        this.fire(run, deadline);
      });
      run.deadlines.set(k, { at, handle });
    }
  }

  private fire(run: Run, d: Deadline): void {
    if (this.stopped() || !run.running) return;
    // The mapped type cannot tie d.kind to its handler's parameter, hence the widening.
    const h = this.handlers?.[d.kind] as ((run: Run, d: Deadline) => void) | undefined;
    h?.(run, d);
  }
}
