/**
 * What a schedule looks like from outside: the DescribeSchedule answer, the ListSchedules entry,
 * the record list queries filter on, and the times its spec matches. Started workflows' statuses
 * are read from the engine at the time of asking, so recent actions show how each run ended, even
 * those started with ALLOW_ALL (which the schedule does not wait for).
 */
import { api, L, num, ts, ws } from '../proto';
import { decodeFields, type Engine } from '../engine/engine';
import type { VisibilityRecord } from '../visibility/types';
import { latestRun, statusOf } from './actions';
import type { ActionResult, Sched } from './state';

const FUTURE_ACTIONS = 10;
const FUTURE_ACTIONS_IN_LIST = 5;
const RECENT_ACTIONS_IN_LIST = 5;
const MAX_MATCHING_TIMES = 1000;

/** The conflict token as Temporal sends it: 8 bytes, big-endian. */
export function conflictToken(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

export function describe(engine: Engine, sc: Sched): ws.IDescribeScheduleResponse {
  const s = sc.s;
  return {
    schedule: sc.schedule,
    info: {
      actionCount: L(s.actionCount),
      missedCatchupWindow: L(s.missedCatchupWindow),
      overlapSkipped: L(s.overlapSkipped),
      bufferDropped: L(s.bufferDropped),
      bufferSize: L(s.buffer.length),
      runningWorkflows: s.running.filter((w) => latestRun(engine, sc.ns, w)?.running).map(({ workflowId, runId }) => ({ workflowId, runId })),
      recentActions: s.recent.map((a) => actionResult(engine, sc, a)),
      futureActionTimes: futureTimes(sc, FUTURE_ACTIONS).map(ts),
      createTime: ts(s.createTime),
      updateTime: s.updateTime !== undefined ? ts(s.updateTime) : undefined,
    },
    memo: Object.keys(s.memo).length ? { fields: decodeFields(s.memo) } : undefined,
    searchAttributes: Object.keys(s.sa).length ? { indexedFields: decodeFields(s.sa) } : undefined,
    conflictToken: conflictToken(s.conflictToken),
  };
}

export function listEntry(engine: Engine, sc: Sched): api.schedule.v1.IScheduleListEntry {
  const s = sc.s;
  return {
    scheduleId: s.id,
    memo: Object.keys(s.memo).length ? { fields: decodeFields(s.memo) } : undefined,
    searchAttributes: Object.keys(s.sa).length ? { indexedFields: decodeFields(s.sa) } : undefined,
    info: {
      spec: sc.schedule.spec,
      workflowType: sc.schedule.action?.startWorkflow?.workflowType,
      notes: sc.schedule.state?.notes ?? '',
      paused: sc.paused,
      recentActions: s.recent.slice(-RECENT_ACTIONS_IN_LIST).map((a) => actionResult(engine, sc, a)),
      futureActionTimes: futureTimes(sc, FUTURE_ACTIONS_IN_LIST).map(ts),
    },
  };
}

function actionResult(engine: Engine, sc: Sched, a: ActionResult): api.schedule.v1.IScheduleActionResult {
  const run = latestRun(engine, sc.ns, a);
  return {
    scheduleTime: ts(a.scheduleTime),
    actualTime: ts(a.actualTime),
    startWorkflowResult: { workflowId: a.workflowId, runId: a.runId },
    startWorkflowStatus: run ? statusOf(run) : a.status,
  };
}

/** The next action times: after the last processed time, no more than the actions left. */
export function futureTimes(sc: Sched, n: number): number[] {
  const state = sc.schedule.state;
  const count = state?.limitedActions ? Math.min(n, num(state.remainingActions)) : n;
  const out: number[] = [];
  for (let t = sc.spec.next(sc.s.lastProcessed); t !== undefined && out.length < count; t = sc.spec.next(t)) {
    if (sc.s.updateTime === undefined || t >= sc.s.updateTime) out.push(t);
  }
  return out;
}

/** The spec's times in (start, end], at most 1000 (ListScheduleMatchingTimes). */
export function matchingTimes(sc: Sched, start: number, end: number): number[] {
  const out: number[] = [];
  for (let t = sc.spec.next(start); t !== undefined && t <= end && out.length < MAX_MATCHING_TIMES; t = sc.spec.next(t)) out.push(t);
  return out;
}

/**
 * A schedule as list queries see it: Temporal lists schedules from the visibility records of their
 * scheduler workflows, so the schedule's own search attributes, `ScheduleId`,
 * `TemporalSchedulePaused` and `TemporalNamespaceDivision` can be filtered on.
 */
export function visibilityOf(sc: Sched): VisibilityRecord {
  const attrs: Record<string, unknown> = { ScheduleId: sc.s.id, TemporalSchedulePaused: sc.paused, TemporalNamespaceDivision: 'TemporalScheduler' };
  for (const [k, p] of Object.entries(decodeFields(sc.s.sa))) {
    try {
      attrs[k] = JSON.parse(Buffer.from(p.data ?? []).toString('utf8'));
    } catch {
      /* not JSON: not searchable */
    }
  }
  return {
    workflowId: `temporal-sys-scheduler:${sc.s.id}`,
    runId: '',
    workflowType: 'temporal-sys-scheduler-workflow',
    status: 'Running',
    startTime: new Date(sc.s.createTime),
    taskQueue: 'temporal-sys-per-ns-tq',
    searchAttributes: attrs,
  };
}
