/**
 * The schedules of the embedded server: Temporal's scheduler (service/worker/scheduler/workflow.go)
 * without a workflow underneath. Every change to a schedule (its wakeup on the engine's timer heap,
 * a create, update, patch, or a workflow it started closing) is one synchronous step inside an
 * engine transaction: buffer the times that have come (within the catchup window, unless paused or
 * out of actions), apply the change, buffer backfills, take the buffered starts under the overlap
 * policy, then persist the schedule together with the runs it started and arm its next wakeup.
 * Schedules are log records like runs: after a restart each is stepped once, which takes what came
 * due while the server was down (within the catchup window).
 */
import { api, durMs, enums, L, msDur, num, tsMs } from '../proto';
import { Engine, Tx, encodeFields } from '../engine/engine';
import { alreadyExists, notFound } from '../engine/errors';
import type { ScheduleRecord } from '../store/log';
import { resolveBuffer } from './buffer';
import { canonicalSpec } from './spec';
import { closeOutcome, latestRun, startAction, stopRunning } from './actions';
import { DEFAULT_CATCHUP_MS, MAX_BUFFER, MIN_CATCHUP_MS, RECENT_ACTIONS, Sched, ScheduleState, Started, encodeSchedule } from './state';

type Schedule = api.schedule.v1.ISchedule;
type Patch = api.schedule.v1.ISchedulePatch;
const P = enums.ScheduleOverlapPolicy;
const S = enums.WorkflowExecutionStatus;

/** A schedule with nothing left to do is dropped this long after its last event (Temporal's retention). */
const IDLE_RETENTION_MS = 7 * 86400_000;
/** Backfilled starts buffered per step; a longer backfill goes on a second later. */
const BACKFILLS_PER_STEP = 10;

export interface CreateOptions {
  requestId: string;
  memo?: api.common.v1.IMemo | null;
  sa?: api.common.v1.ISearchAttributes | null;
  initialPatch?: Patch | null;
}

export class Schedules {
  private readonly all = new Map<string, Sched>();

  constructor(
    private readonly engine: Engine,
    loaded: ScheduleRecord[],
  ) {
    for (const r of loaded) if (r.s) this.all.set(`${r.ns}/${r.id}`, new Sched(r.ns, r.s));
  }

  /** After recovery: watch what the schedules started and take what came due while stopped. */
  start(): void {
    for (const sc of this.all.values()) this.wake(sc);
  }

  *records(): Iterable<ScheduleRecord> {
    for (const sc of this.all.values()) yield { k: 'sched', ns: sc.ns, id: sc.s.id, s: sc.record() };
  }

  get(ns: string, id: string | null | undefined): Sched {
    const sc = this.all.get(`${ns}/${id ?? ''}`);
    if (!sc) throw notFound(`schedule "${id ?? ''}" not found`);
    return sc;
  }

  list(ns: string): Sched[] {
    return [...this.all.values()].filter((sc) => sc.ns === ns);
  }

  /** The schedule with its canonical spec and the policy defaults describe shows. Throws SpecError. */
  normalize(schedule: Schedule): Schedule {
    const p = schedule.policies ?? {};
    const catchup = durMs(p.catchupWindow);
    return {
      spec: canonicalSpec(schedule.spec),
      action: schedule.action,
      policies: {
        overlapPolicy: p.overlapPolicy || P.SCHEDULE_OVERLAP_POLICY_SKIP,
        catchupWindow: msDur(catchup === undefined ? DEFAULT_CATCHUP_MS : Math.max(catchup, MIN_CATCHUP_MS)),
        pauseOnFailure: p.pauseOnFailure ?? false,
        keepOriginalWorkflowId: p.keepOriginalWorkflowId ?? false,
      },
      state: {
        paused: schedule.state?.paused ?? false,
        notes: schedule.state?.notes ?? '',
        limitedActions: schedule.state?.limitedActions ?? false,
        remainingActions: L(num(schedule.state?.remainingActions)),
      },
    };
  }

  async create(ns: string, id: string, schedule: Schedule, opts: CreateOptions): Promise<void> {
    const existing = this.all.get(`${ns}/${id}`);
    if (existing) {
      if (existing.s.requestId === opts.requestId) return; // a retried create
      throw alreadyExists(`schedule "${id}" is already registered`, { startRequestId: '', runId: '' });
    }
    const now = Date.now();
    const s: ScheduleState = {
      id,
      schedule: encodeSchedule(schedule),
      memo: encodeFields(opts.memo?.fields),
      sa: encodeFields(opts.sa?.indexedFields),
      requestId: opts.requestId,
      conflictToken: 1,
      createTime: now,
      lastProcessed: now,
      actionCount: 0,
      missedCatchupWindow: 0,
      overlapSkipped: 0,
      bufferDropped: 0,
      buffer: [],
      backfills: [],
      running: [],
      recent: [],
    };
    const sc = new Sched(ns, s);
    this.all.set(`${ns}/${id}`, sc);
    await this.change(sc, () => opts.initialPatch && this.applyPatch(sc, opts.initialPatch, now));
  }

  update(sc: Sched, schedule: Schedule, sa?: api.common.v1.ISearchAttributes | null, memo?: api.common.v1.IMemo | null): Promise<void> {
    return this.change(sc, () => {
      sc.setSchedule(schedule);
      // Present (even empty) replaces the schedule's own attributes; absent keeps them.
      if (sa) sc.s.sa = encodeFields(sa.indexedFields);
      if (memo) sc.s.memo = encodeFields(memo.fields);
      sc.s.updateTime = Date.now();
      sc.s.conflictToken++;
    });
  }

  patch(sc: Sched, patch: Patch): Promise<void> {
    return this.change(sc, () => this.applyPatch(sc, patch, Date.now()));
  }

  async delete(sc: Sched): Promise<void> {
    const tx = new Tx();
    this.drop(tx, sc);
    await this.engine.commit(tx);
  }

  // ---------------------------------------------------------------- the step

  private async change(sc: Sched, fn: () => void): Promise<void> {
    const tx = new Tx();
    this.step(tx, sc, fn);
    await this.engine.commit(tx);
  }

  private wake(sc: Sched): void {
    void this.engine.run((tx) => this.step(tx, sc));
  }

  private step(tx: Tx, sc: Sched, change?: () => void): void {
    if (sc.deleted) return;
    const now = Math.max(Date.now(), sc.s.lastProcessed);
    // Times up to now are judged by the schedule as it was: a change applies from now on.
    this.generate(sc, sc.s.lastProcessed, now);
    sc.s.lastProcessed = now;
    change?.();
    this.bufferBackfills(sc);
    for (let i = 0; i < 100 && this.takeBuffered(tx, sc); i++);
    const idleUntil = this.idleUntil(sc);
    if (idleUntil !== undefined && idleUntil <= now) {
      this.drop(tx, sc);
      return;
    }
    tx.ns.push({ k: 'sched', ns: sc.ns, id: sc.s.id, s: sc.record() });
    this.watch(sc);
    this.arm(sc, idleUntil);
  }

  /** Buffers the scheduled times in (from, to]; skipped whole while paused or out of actions. */
  private generate(sc: Sched, from: number, to: number): void {
    if (!this.canTake(sc, false, false)) return;
    const catchup = durMs(sc.schedule.policies?.catchupWindow) ?? DEFAULT_CATCHUP_MS;
    // Times older than the catchup window are missed anyway: start the search just before it.
    const searchFrom = Math.max(from, to - catchup - 1000);
    for (let t = sc.spec.next(searchFrom); t !== undefined && t <= to; t = sc.spec.next(t)) {
      if (sc.s.updateTime !== undefined && t < sc.s.updateTime) continue;
      if (to - t > catchup) {
        sc.s.missedCatchupWindow++;
        continue;
      }
      this.addStart(sc, t, 0, false);
    }
  }

  private addStart(sc: Sched, at: number, overlap: number, manual: boolean): void {
    if (sc.s.buffer.length >= MAX_BUFFER) {
      sc.s.bufferDropped++;
      return;
    }
    sc.s.buffer.push({ nominal: at, actual: at, overlap, manual });
  }

  private applyPatch(sc: Sched, p: Patch, now: number): void {
    const trigger = p.triggerImmediately;
    if (trigger) {
      const at = tsMs(trigger.scheduledTime) ?? now;
      this.addStart(sc, at, trigger.overlapPolicy ?? 0, true);
    }
    for (const b of p.backfillRequest ?? []) {
      if (sc.s.backfills.length >= MAX_BUFFER) sc.s.bufferDropped++;
      // The start is inclusive: search from just before it.
      else sc.s.backfills.push({ after: (tsMs(b.startTime) ?? 0) - 1, end: tsMs(b.endTime) ?? 0, overlap: b.overlapPolicy ?? 0 });
    }
    const state = (sc.schedule.state ??= {});
    if (p.pause) {
      state.paused = true;
      state.notes = p.pause;
      sc.s.conflictToken++;
    }
    if (p.unpause) {
      state.paused = false;
      state.notes = p.unpause;
      sc.s.conflictToken++;
    }
  }

  private bufferBackfills(sc: Sched): void {
    let limit = BACKFILLS_PER_STEP;
    const fills = sc.s.backfills;
    // Backfills use at most half the buffer, so scheduled times still find room.
    while (fills.length > 0 && limit > 0 && sc.s.buffer.length < MAX_BUFFER / 2) {
      const b = fills[0];
      let t = sc.spec.next(b.after);
      for (; t !== undefined && t <= b.end && limit > 0; t = sc.spec.next(t), limit--) {
        this.addStart(sc, t, b.overlap, true);
        b.after = t;
      }
      if (t === undefined || t > b.end) fills.shift();
    }
  }

  /** One pass over the buffer (Temporal's processBuffer); true when another pass may take more. */
  private takeBuffered(tx: Tx, sc: Sched): boolean {
    this.refresh(sc);
    if (!sc.schedule.action?.startWorkflow || sc.s.buffer.length === 0) {
      sc.s.buffer = [];
      return false;
    }
    const policyOf = (overlap: number): number => overlap || sc.schedule.policies?.overlapPolicy || P.SCHEDULE_OVERLAP_POLICY_SKIP;
    const out = resolveBuffer(sc.s.buffer, sc.s.running.length > 0, policyOf);
    sc.s.buffer = out.buffer;
    sc.s.overlapSkipped += out.skipped;
    let again = false;
    for (const start of out.alone ? [...out.overlapping, out.alone] : out.overlapping) {
      if (!this.canTake(sc, start.manual, true)) {
        again = true;
        continue;
      }
      const allowAll = policyOf(start.overlap) === P.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL;
      const result = startAction(this.engine, tx, sc, start, allowAll);
      if (!result) {
        again = true;
        continue;
      }
      sc.s.actionCount++;
      sc.s.recent = [...sc.s.recent, result].slice(-RECENT_ACTIONS);
      // ALLOW_ALL runs may overlap anything, so they are not what the next start waits for.
      if (start === out.alone) sc.s.running.push({ workflowId: result.workflowId, runId: result.runId });
    }
    if (out.terminate || out.cancel) {
      for (const w of sc.s.running) stopRunning(this.engine, tx, sc, w, out.terminate);
      // A terminated run is closed already: the buffered start can go on the next pass.
      again ||= out.terminate;
    }
    return again;
  }

  /** Drops the started workflows that have closed, noting how they ended. */
  private refresh(sc: Sched): void {
    const still: Started[] = [];
    for (const w of sc.s.running) {
      const run = latestRun(this.engine, sc.ns, w);
      if (run?.running) still.push(w);
      else if (run) this.closed(sc, w, closeOutcome(run));
    }
    sc.s.running = still;
  }

  private closed(sc: Sched, w: Started, out: ReturnType<typeof closeOutcome>): void {
    const action = sc.s.recent.find((a) => a.workflowId === w.workflowId && a.runId === w.runId);
    if (action) action.status = out.status;
    if (out.result) {
      sc.s.lastCompletionResult = out.result;
      sc.s.continuedFailure = undefined;
    } else if (out.failure) {
      sc.s.continuedFailure = out.failure;
    }
    const failed = out.status === S.WORKFLOW_EXECUTION_STATUS_FAILED || out.status === S.WORKFLOW_EXECUTION_STATUS_TIMED_OUT;
    const state = (sc.schedule.state ??= {});
    if (failed && sc.schedule.policies?.pauseOnFailure && !state.paused) {
      state.paused = true;
      state.notes =
        out.status === S.WORKFLOW_EXECUTION_STATUS_FAILED
          ? `paused due to workflow failure: ${w.workflowId}: ${out.message ?? ''}`
          : `paused due to workflow timeout: ${w.workflowId}`;
      sc.s.conflictToken++;
    }
  }

  /** Paused or out of actions stops scheduled starts; a trigger or backfill always goes. */
  private canTake(sc: Sched, manual: boolean, decrement: boolean): boolean {
    if (manual) return true;
    const state = sc.schedule.state ?? {};
    if (state.paused) return false;
    if (!state.limitedActions) return true;
    const left = num(state.remainingActions);
    if (left <= 0) return false;
    if (decrement) {
      state.remainingActions = L(left - 1);
      sc.s.conflictToken++;
    }
    return true;
  }

  /** Every workflow the schedule waits on wakes it when it closes (through its history waiters). */
  private watch(sc: Sched): void {
    for (const w of sc.s.running) {
      const run = latestRun(this.engine, sc.ns, w);
      if (!run?.running || sc.watching.has(run.s.runId)) continue;
      sc.watching.add(run.s.runId);
      run.historyWaiters.push(() => {
        sc.watching.delete(run.s.runId);
        if (this.engine.isClosed || sc.deleted) return;
        if (run.running) this.watch(sc);
        else this.wake(sc);
      });
    }
  }

  /**
   * When a schedule with nothing more to do (not paused, no next time or no actions left, no
   * backfill) is dropped: its last event (create, update or action) plus the retention.
   */
  private idleUntil(sc: Sched): number | undefined {
    if (sc.paused || sc.s.backfills.length > 0 || sc.s.buffer.length > 0 || sc.s.running.length > 0) return undefined;
    if (this.canTake(sc, false, false) && sc.spec.next(sc.s.lastProcessed) !== undefined) return undefined;
    const last = Math.max(sc.s.createTime, sc.s.updateTime ?? 0, ...sc.s.recent.map((a) => a.actualTime));
    return last + IDLE_RETENTION_MS;
  }

  private arm(sc: Sched, idleUntil: number | undefined): void {
    sc.wakeup?.cancel();
    sc.wakeup = undefined;
    const next = sc.s.backfills.length > 0 ? Date.now() + 1000 : this.canTake(sc, false, false) ? sc.spec.next(sc.s.lastProcessed) : undefined;
    const at = next ?? idleUntil;
    if (at !== undefined) sc.wakeup = this.engine.timers.at(at, () => this.wake(sc));
  }

  private drop(tx: Tx, sc: Sched): void {
    sc.deleted = true;
    sc.wakeup?.cancel();
    this.all.delete(`${sc.ns}/${sc.s.id}`);
    tx.ns.push({ k: 'sched', ns: sc.ns, id: sc.s.id, s: null });
  }
}
