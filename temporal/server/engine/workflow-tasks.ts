/**
 * Workflow task dispatch, completion, failure and timeout, and the workflow-level deadlines.
 * The commands of a completed task are applied by commands.ts.
 */
import { randomUUID } from 'crypto';
import { api, durMs, enums, L, ts } from '../proto';
import { makeEvent } from '../history/events';
import { Engine, Tx, WfTask, decodeToken, encodeToken } from './engine';
import { Run } from './state';
import { applyCommands, validateCommands } from './commands';
import { unregisteredSearchAttribute } from './search-attributes';
import { answerQuery, dispatchLegacyQuery, dispatchQueries, requeueQueries } from './queries';
import { dispatchActivity } from './activities';
import { attachUpdates, incomingMessages, requeueUpdates } from './updates';
import { cronNext, retryRun } from './starts';
import type { DeadlineHandlers } from './deadlines';
import { notFound } from './errors';

type PollWftResponse = api.workflowservice.v1.IPollWorkflowTaskQueueResponse;
type CompleteReq = api.workflowservice.v1.IRespondWorkflowTaskCompletedRequest;
type FailReq = api.workflowservice.v1.IRespondWorkflowTaskFailedRequest;

/** Turns a queued workflow task into a poll response, or undefined if it is stale. */
export function dispatchWorkflowTask(engine: Engine, t: WfTask, identity: string): PollWftResponse | undefined {
  // A query task may name a closed run read back from disk (kept in memory while it is asked).
  const run = engine.inMemory(t.key);
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
  engine.deadlines.arm(run);
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

/** Finds the run whose in-flight workflow task matches the token, or NOT_FOUND. */
function inflightRun(engine: Engine, token: Uint8Array | null | undefined): Run {
  const t = decodeToken(token);
  const run = engine.runs.get(engine.key(t.ns, t.r));
  if (!run || !run.running || !run.inflight || run.inflight.sid !== t.s || run.inflight.attempt !== t.a || t.k !== 'w') {
    engine.log('debug', 'workflow task not found', {
      runId: t.r,
      status: run?.s.status,
      inflight: run?.inflight?.sid,
      token: { s: t.s, a: t.a, k: t.k },
      type: run?.s.type,
    });
    throw notFound('Workflow task not found.');
  }
  return run;
}

/** Writes the Started event of the in-flight task (its id was reserved at dispatch). */
function writeStarted(engine: Engine, tx: Tx, run: Run): { sid: number; startedId: number; attempt: number } {
  const f = run.inflight!;
  run.inflight = undefined;
  run.s.wft = undefined;
  engine.add(tx, run, 'WorkflowTaskStarted', {
    scheduledEventId: f.sid,
    identity: f.identity,
    requestId: f.requestId,
    historySizeBytes: run.s.historyBytes,
  });
  return { sid: f.sid, startedId: f.startedId, attempt: f.attempt };
}

export async function completeWorkflowTask(engine: Engine, req: CompleteReq): Promise<api.workflowservice.v1.IRespondWorkflowTaskCompletedResponse> {
  const run = inflightRun(engine, req.taskToken);
  const tx = new Tx();
  const { sid, startedId } = writeStarted(engine, tx, run);
  const stickyQueue = req.stickyAttributes?.workerTaskQueue?.name;
  run.sticky = stickyQueue ? { queue: stickyQueue, timeoutMs: durMs(req.stickyAttributes?.scheduleToStartTimeout) ?? 5000 } : undefined;
  const commands = req.commands ?? [];
  const closing = commands.some((c) => isClosing(c.commandType ?? 0));
  let completedId = 0;
  const problem = validateCommands(commands, (sa) => unregisteredSearchAttribute(engine, run.ns, sa));
  if (problem) {
    failTask(engine, tx, run, sid, startedId, problem.cause, problem.message, req.identity ?? '', 1);
  } else if (closing && run.s.buffered.length > 0) {
    // A workflow may not close over events it has not seen yet (e.g. a signal that arrived
    // while it ran): rejected like Temporal does; the worker replays with the new events.
    const cause = enums.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND;
    failTask(engine, tx, run, sid, startedId, cause, 'unhandled new events', req.identity ?? '', 1);
  } else {
    completedId = engine.add(tx, run, 'WorkflowTaskCompleted', {
      scheduledEventId: sid,
      startedEventId: startedId,
      identity: req.identity,
      binaryChecksum: req.binaryChecksum,
      sdkMetadata: req.sdkMetadata,
      meteringMetadata: req.meteringMetadata,
      workerVersion: req.workerVersionStamp,
      ...deploymentOf(req),
    });
    run.s.lastStartedId = startedId;
    const messages = incomingMessages(tx, run, req.messages ?? []);
    applyCommands(engine, tx, run, commands, completedId, req.identity ?? '', messages);
    if (run.running) {
      const hadBuffered = engine.flushBuffered(tx, run);
      if (hadBuffered || req.forceCreateNewWorkflowTask) engine.ensureWft(tx, run);
    }
  }
  for (const [id, r] of Object.entries(req.queryResults ?? {})) {
    const ok = r.resultType === enums.QueryResultType.QUERY_RESULT_TYPE_ANSWERED;
    answerQuery(run, id, ok ? { result: r.answer } : { error: r.errorMessage || 'query failed' });
  }
  requeueQueries(run, sid);
  if (run.running) requeueUpdates(engine, tx, run, sid);
  tx.after.push(() => dispatchQueries(engine, run));
  tx.runs.add(run);
  await engine.commit(tx);
  return { activityTasks: completedId ? eagerActivities(engine, run, commands, completedId, req.identity ?? '') : [] };
}

/**
 * The worker deployment a completion names, recorded as Temporal does: the deployment name
 * always, the version only for a versioned worker, whose versioning behaviour alone counts.
 */
function deploymentOf(req: CompleteReq): object {
  const opts = req.deploymentOptions;
  const versioned = opts?.workerVersioningMode === enums.WorkerVersioningMode.WORKER_VERSIONING_MODE_VERSIONED;
  const version = versioned ? { deploymentName: opts?.deploymentName, buildId: opts?.buildId } : opts ? undefined : { deploymentName: req.deployment?.seriesName, buildId: req.deployment?.buildId };
  return {
    workerDeploymentName: opts?.deploymentName || req.deployment?.seriesName || undefined,
    deploymentVersion: version?.deploymentName && version.buildId ? version : undefined,
    versioningBehavior: opts && !versioned ? undefined : req.versioningBehavior,
  };
}

/**
 * Eager activity execution: activities the worker asked to run itself (it reserved slots for
 * them) are handed back in the completion response, saving a poll round trip.
 */
function eagerActivities(engine: Engine, run: Run, commands: CompleteReq['commands'] & object, completedId: number, identity: string) {
  const wanted = new Set<string>();
  for (const c of commands) {
    const a = c.scheduleActivityTaskCommandAttributes;
    if (c.commandType === enums.CommandType.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK && a?.requestEagerExecution && a.activityId) wanted.add(a.activityId);
  }
  const tasks: api.workflowservice.v1.IPollActivityTaskQueueResponse[] = [];
  if (wanted.size === 0) return tasks;
  for (const a of Object.values(run.s.acts)) {
    if (a.sid <= completedId || a.attempt !== 1 || !wanted.has(a.activityId)) continue;
    const t = dispatchActivity(engine, { key: engine.key(run.ns, run.s.runId), sid: a.sid, attempt: 1 }, identity);
    if (t) tasks.push(t);
    else engine.enqueueActivity(run, a.sid, 1);
  }
  return tasks;
}

/**
 * Records a failed (or timed-out) workflow task and schedules the next attempt. Buffered
 * events enter the history first so the retry sees them.
 */
function failTask(
  engine: Engine,
  tx: Tx,
  run: Run,
  sid: number,
  startedId: number,
  cause: number,
  message: string,
  identity: string,
  attempt: number,
): void {
  engine.add(tx, run, 'WorkflowTaskFailed', {
    scheduledEventId: sid,
    startedEventId: startedId,
    cause,
    failure: { message, applicationFailureInfo: { type: 'WorkflowTaskFailed' } },
    identity,
  });
  engine.flushBuffered(tx, run);
  engine.scheduleWft(tx, run, attempt);
}

export async function failWorkflowTask(engine: Engine, req: FailReq): Promise<void> {
  const run = inflightRun(engine, req.taskToken);
  const tx = new Tx();
  const { sid, startedId, attempt } = writeStarted(engine, tx, run);
  run.sticky = undefined;
  engine.add(tx, run, 'WorkflowTaskFailed', {
    scheduledEventId: sid,
    startedEventId: startedId,
    cause: req.cause,
    failure: req.failure,
    identity: req.identity,
    binaryChecksum: req.binaryChecksum,
  });
  engine.flushBuffered(tx, run);
  requeueQueries(run, sid);
  for (const u of run.updates.values()) if (u.attachedTo === sid) u.attachedTo = undefined;
  // Retrying at once would spin on a deterministic bug; back off a little per attempt.
  run.s.wftRetry = { at: Date.now() + Math.min(attempt * 1000, 10_000), attempt: attempt + 1 };
  tx.runs.add(run);
  await engine.commit(tx);
}

function isClosing(t: number): boolean {
  const C = enums.CommandType;
  return (
    t === C.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION ||
    t === C.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION ||
    t === C.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION ||
    t === C.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION
  );
}

type WorkflowDeadline =
  | 'workflowTaskTimeout'
  | 'workflowTaskRetry'
  | 'firstWorkflowTask'
  | 'userTimer'
  | 'workflowRunTimeout'
  | 'workflowExecutionTimeout';

/** The handlers for workflow-task, user-timer and workflow-timeout deadlines. */
export function workflowDeadlines(engine: Engine): Pick<DeadlineHandlers, WorkflowDeadline> {
  const timeout = (run: Run): void => {
    void engine.run((tx) => {
      if (!run.running) return;
      const newRunId = retryRun(engine, tx, run, undefined, true) ?? cronNext(engine, tx, run, {});
      engine.close(tx, run, 'TimedOut', 'WorkflowExecutionTimedOut', {
        retryState: newRunId ? enums.RetryState.RETRY_STATE_IN_PROGRESS : enums.RetryState.RETRY_STATE_TIMEOUT,
        newExecutionRunId: newRunId,
      });
    });
  };
  return {
    workflowTaskTimeout: (run) => {
      if (!run.inflight || run.inflight.at + run.s.wftTimeoutMs > Date.now()) return;
      void engine.run((tx) => {
        const { sid, startedId, attempt } = writeStarted(engine, tx, run);
        run.sticky = undefined;
        engine.add(tx, run, 'WorkflowTaskTimedOut', {
          scheduledEventId: sid,
          startedEventId: startedId,
          timeoutType: enums.TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE,
        });
        engine.flushBuffered(tx, run);
        requeueQueries(run, sid);
        for (const u of run.updates.values()) if (u.attachedTo === sid) u.attachedTo = undefined;
        engine.scheduleWft(tx, run, attempt + 1);
      });
    },
    workflowTaskRetry: (run) => {
      const r = run.s.wftRetry;
      if (!r || r.at > Date.now()) return;
      void engine.run((tx) => {
        run.s.wftRetry = undefined;
        tx.runs.add(run);
        if (!run.s.wft && !run.inflight) engine.scheduleWft(tx, run, r.attempt);
        tx.after.push(() => dispatchQueries(engine, run));
      });
    },
    firstWorkflowTask: (run) => {
      void engine.run((tx) => {
        run.s.firstWftAt = undefined;
        engine.ensureWft(tx, run, true);
      });
    },
    userTimer: (run, { timerId: id }) => {
      const t = run.s.timers[id];
      if (!t || t.fireAt > Date.now()) return;
      void engine.run((tx) => {
        if (!run.s.timers[id]) return;
        delete run.s.timers[id];
        engine.notify(tx, run, 'TimerFired', { timerId: id, startedEventId: t.sid });
      });
    },
    workflowRunTimeout: (run) => {
      if (run.s.runDeadline && run.s.runDeadline <= Date.now()) timeout(run);
    },
    workflowExecutionTimeout: (run) => {
      if (run.s.execDeadline && run.s.execDeadline <= Date.now()) timeout(run);
    },
  };
}
