/**
 * Activities: scheduling, dispatch, heartbeats, completion, server-side retries and the four
 * timeouts. Like Temporal, the Started event is written only together with the final outcome,
 * so retries never show up in the history.
 */
import { randomUUID } from 'crypto';
import { api, durMs, enums, IFailure, IPayloads, msDur, ts, L } from '../proto';
import { Engine, Tx, ActTask, encodeToken, retrySpec, retryPolicyOf, backoff, TaskToken } from './engine';
import { ActivityState, Run } from './state';
import type { DeadlineHandlers } from './deadlines';
import { notFound } from './errors';
import { mergePriority } from './transfers';

type PollActResponse = api.workflowservice.v1.IPollActivityTaskQueueResponse;
const TT = enums.TimeoutType;
let dispatchSeq = Date.now();
const R = enums.RetryState;

export function scheduleActivity(
  engine: Engine,
  tx: Tx,
  run: Run,
  a: api.command.v1.IScheduleActivityTaskCommandAttributes,
  completedId: number,
): void {
  // Fill the timeouts the way Temporal does: each missing one derives from the others.
  const s2c = durMs(a.scheduleToCloseTimeout) ?? 0;
  let stc = durMs(a.startToCloseTimeout) ?? 0;
  let s2s = durMs(a.scheduleToStartTimeout) ?? 0;
  if (!stc) stc = s2c;
  if (s2c) {
    stc = Math.min(stc, s2c);
    s2s = s2s ? Math.min(s2s, s2c) : s2c;
  }
  let hb = durMs(a.heartbeatTimeout) ?? 0;
  if (hb && stc) hb = Math.min(hb, stc);
  const retry = retrySpec(a.retryPolicy);
  const taskQueue = a.taskQueue?.name || run.s.taskQueue;
  const now = Date.now();
  const sid = engine.add(tx, run, 'ActivityTaskScheduled', {
    activityId: a.activityId,
    activityType: a.activityType,
    taskQueue: { name: taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    header: a.header,
    input: a.input,
    scheduleToCloseTimeout: msDur(s2c),
    scheduleToStartTimeout: msDur(s2s),
    startToCloseTimeout: msDur(stc),
    heartbeatTimeout: msDur(hb),
    workflowTaskCompletedEventId: completedId,
    retryPolicy: retryPolicyOf(retry),
    priority: a.priority,
  });
  run.s.acts[sid] = {
    sid,
    activityId: a.activityId ?? '',
    type: a.activityType?.name ?? '',
    taskQueue,
    attempt: 1,
    scheduledAt: now,
    attemptScheduledAt: now,
    s2c,
    s2s,
    stc,
    hb,
    retry,
  };
  // An activity the worker asked to run eagerly goes back in the completion response, not to
  // pollers (workflow-tasks.ts queues it only if it could not be handed over).
  if (!a.requestEagerExecution) tx.after.push(() => engine.enqueueActivity(run, sid, 1));
}

export function cancelActivity(engine: Engine, tx: Tx, run: Run, sid: number, completedId: number, identity: string): void {
  const act = run.s.acts[sid];
  if (!act) return; // already resolved; its outcome is in (or on its way to) the history
  const reqId = engine.add(tx, run, 'ActivityTaskCancelRequested', { scheduledEventId: sid, workflowTaskCompletedEventId: completedId });
  act.cancelRequestedId = reqId;
  if (!run.started.has(sid)) {
    // Not running anywhere (queued or backing off): cancelled on the spot.
    delete run.s.acts[sid];
    engine.add(tx, run, 'ActivityTaskCanceled', {
      scheduledEventId: sid,
      latestCancelRequestedEventId: reqId,
      startedEventId: 0,
      identity,
    });
  }
}

export function dispatchActivity(engine: Engine, t: ActTask, identity: string): PollActResponse | undefined {
  const run = engine.runs.get(t.key);
  if (!run || !run.running) return undefined;
  const a = run.s.acts[t.sid];
  if (!a || a.attempt !== t.attempt || run.started.has(t.sid)) return undefined;
  if (a.retryAt && a.retryAt > Date.now()) return undefined;
  const scheduled = run.events[t.sid - 1]?.activityTaskScheduledEventAttributes;
  if (!scheduled) return undefined;
  const now = Date.now();
  run.started.set(t.sid, { attempt: a.attempt, at: now, identity, requestId: randomUUID(), lastHb: now });
  engine.deadlines.arm(run);
  return {
    taskToken: encodeToken({ ns: run.ns, w: run.s.workflowId, r: run.s.runId, k: 'a', s: a.sid, a: a.attempt, d: dispatchSeq++ }),
    workflowNamespace: run.ns,
    workflowType: { name: run.s.type },
    workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId },
    activityType: { name: a.type },
    activityId: a.activityId,
    header: scheduled.header,
    input: scheduled.input,
    heartbeatDetails: a.details ? api.common.v1.Payloads.decode(Buffer.from(a.details, 'base64')) : undefined,
    scheduledTime: ts(a.scheduledAt),
    currentAttemptScheduledTime: ts(a.attemptScheduledAt),
    startedTime: ts(now),
    attempt: a.attempt,
    // sdk-core requires all three; zero means "no limit".
    scheduleToCloseTimeout: msDur(a.s2c) ?? { seconds: L(0), nanos: 0 },
    startToCloseTimeout: msDur(a.stc) ?? { seconds: L(0), nanos: 0 },
    heartbeatTimeout: msDur(a.hb) ?? { seconds: L(0), nanos: 0 },
    retryPolicy: retryPolicyOf(a.retry),
    priority: mergePriority(run.firstEvent()?.workflowExecutionStartedEventAttributes?.priority, scheduled.priority),
  };
}

/** Resolves a task token (or workflow id + activity id) to a pending activity. */
export function findActivity(
  engine: Engine,
  token: TaskToken | { ns: string; workflowId: string; runId?: string; activityId: string },
): { run: Run; act: ActivityState } {
  let run: Run | undefined;
  let act: ActivityState | undefined;
  if ('k' in token) {
    run = engine.runs.get(engine.key(token.ns, token.r));
    act = run?.s.acts[token.s];
    if (act && act.attempt !== token.a) act = undefined;
    if (token.k !== 'a') act = undefined;
  } else {
    run = token.runId ? engine.runs.get(engine.key(token.ns, token.runId)) : engine.currentRun(token.ns, token.workflowId);
    act = run ? Object.values(run.s.acts).find((x) => x.activityId === token.activityId) : undefined;
  }
  if (!run || !run.running || !act) throw notFound('activity task not found');
  return { run, act };
}

/** Writes the final Started + outcome pair and forgets the activity. */
function finish(engine: Engine, tx: Tx, run: Run, act: ActivityState, name: string, attrs: object, identity: string): void {
  const st = run.started.get(act.sid);
  run.started.delete(act.sid);
  delete run.s.acts[act.sid];
  const started = {
    scheduledEventId: act.sid,
    identity: st?.identity ?? identity,
    requestId: st?.requestId ?? randomUUID(),
    attempt: act.attempt,
    lastFailure: act.lastFailure ? api.failure.v1.Failure.decode(Buffer.from(act.lastFailure, 'base64')) : undefined,
  };
  if (run.inflight) {
    // Buffered as a pair; the outcome's startedEventId (-1) is resolved when they are flushed.
    engine.notify(tx, run, 'ActivityTaskStarted', started);
    engine.notify(tx, run, name, { ...attrs, scheduledEventId: act.sid, startedEventId: -1 });
    return;
  }
  const startedId = name === 'ActivityTaskTimedOut' && !st && !act.lastFailure ? 0 : engine.add(tx, run, 'ActivityTaskStarted', started);
  engine.add(tx, run, name, { ...attrs, scheduledEventId: act.sid, startedEventId: startedId });
  engine.ensureWft(tx, run);
}

export function completeActivity(engine: Engine, tx: Tx, run: Run, act: ActivityState, result: IPayloads | null | undefined, identity: string): void {
  finish(engine, tx, run, act, 'ActivityTaskCompleted', { result, identity }, identity);
}

export function canceledActivity(engine: Engine, tx: Tx, run: Run, act: ActivityState, details: IPayloads | null | undefined, identity: string): void {
  finish(engine, tx, run, act, 'ActivityTaskCanceled', { details, latestCancelRequestedEventId: act.cancelRequestedId ?? 0, identity }, identity);
}

/**
 * An attempt failed (or timed out): retry after a backoff when the policy allows it and the
 * schedule-to-close deadline leaves room, otherwise record the failure.
 */
export function failActivity(
  engine: Engine,
  tx: Tx,
  run: Run,
  act: ActivityState,
  failure: IFailure,
  identity: string,
  timeoutType?: number,
): void {
  const info = failure.applicationFailureInfo;
  const nonRetryable = !!info?.nonRetryable || (!!info?.type && act.retry.nonRetryable.includes(info.type));
  const exhausted = act.retry.maxAttempts > 0 && act.attempt >= act.retry.maxAttempts;
  const delay = durMs(info?.nextRetryDelay) ?? backoff(act.retry, act.attempt);
  const now = Date.now();
  const pastDeadline = act.s2c > 0 && now + delay >= act.scheduledAt + act.s2c;
  const noRetryTimeout = timeoutType === TT.TIMEOUT_TYPE_SCHEDULE_TO_START || timeoutType === TT.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE;
  if (!nonRetryable && !exhausted && !pastDeadline && !noRetryTimeout && act.cancelRequestedId === undefined) {
    run.started.delete(act.sid);
    act.attempt += 1;
    act.retryAt = now + delay;
    act.attemptScheduledAt = act.retryAt;
    act.lastFailure = Buffer.from(api.failure.v1.Failure.encode(failure).finish()).toString('base64');
    tx.runs.add(run);
    return;
  }
  const retryState = nonRetryable
    ? R.RETRY_STATE_NON_RETRYABLE_FAILURE
    : exhausted
      ? R.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED
      : pastDeadline || noRetryTimeout
        ? R.RETRY_STATE_TIMEOUT
        : R.RETRY_STATE_CANCEL_REQUESTED;
  if (timeoutType !== undefined) {
    finish(engine, tx, run, act, 'ActivityTaskTimedOut', { failure, retryState }, identity);
  } else {
    finish(engine, tx, run, act, 'ActivityTaskFailed', { failure, retryState, identity }, identity);
  }
}

function timeoutFailure(act: ActivityState, type: number, name: string): IFailure {
  const details = act.details ? api.common.v1.Payloads.decode(Buffer.from(act.details, 'base64')) : undefined;
  const last = act.lastFailure ? api.failure.v1.Failure.decode(Buffer.from(act.lastFailure, 'base64')) : undefined;
  return {
    message: `activity ${name} timeout`,
    source: 'Server',
    timeoutFailureInfo: { timeoutType: type, lastHeartbeatDetails: details },
    cause: type === TT.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE ? last : undefined,
  };
}

type ActivityDeadline = 'activityRetry' | 'activityScheduleToStart' | 'activityScheduleToClose' | 'activityStartToClose' | 'activityHeartbeat';

/** The handlers for activity retry backoffs and the four activity timeouts. */
export function activityDeadlines(engine: Engine): Pick<DeadlineHandlers, ActivityDeadline> {
  const onTimeout = (run: Run, sid: number, type: number, name: string, check: (a: ActivityState) => boolean): void => {
    const act = run.s.acts[sid];
    if (!act || !check(act)) return;
    void engine.run((tx) => {
      if (run.s.acts[sid] !== act || !check(act)) return;
      failActivity(engine, tx, run, act, timeoutFailure(act, type, name), 'server', type);
    });
  };
  const now = (): number => Date.now();
  return {
    activityRetry: (run, { sid }) => {
      const act = run.s.acts[sid];
      if (!act || !act.retryAt || act.retryAt > now()) return;
      act.retryAt = undefined;
      engine.deadlines.arm(run);
      engine.enqueueActivity(run, act.sid, act.attempt);
    },
    activityScheduleToStart: (run, { sid }) =>
      onTimeout(run, sid, TT.TIMEOUT_TYPE_SCHEDULE_TO_START, 'ScheduleToStart', (a) => !run.started.has(a.sid) && !a.retryAt && a.attemptScheduledAt + a.s2s <= now()),
    activityScheduleToClose: (run, { sid }) =>
      onTimeout(run, sid, TT.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, 'ScheduleToClose', (a) => a.scheduledAt + a.s2c <= now()),
    activityStartToClose: (run, { sid }) =>
      onTimeout(run, sid, TT.TIMEOUT_TYPE_START_TO_CLOSE, 'StartToClose', (a) => {
        const st = run.started.get(a.sid);
        return !!st && st.at + a.stc <= now();
      }),
    activityHeartbeat: (run, { sid }) =>
      onTimeout(run, sid, TT.TIMEOUT_TYPE_HEARTBEAT, 'Heartbeat', (a) => {
        const st = run.started.get(a.sid);
        return !!st && st.lastHb + a.hb <= now();
      }),
  };
}

export function recordHeartbeat(engine: Engine, run: Run, act: ActivityState, details: IPayloads | null | undefined): boolean {
  const st = run.started.get(act.sid);
  if (st) st.lastHb = Date.now();
  if (details) act.details = Buffer.from(api.common.v1.Payloads.encode(details).finish()).toString('base64');
  engine.deadlines.arm(run);
  return act.cancelRequestedId !== undefined;
}
