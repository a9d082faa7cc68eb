/** Worker-facing calls: long polls, task completions, heartbeats. */
import { def, Handler } from './service';
import { ws } from '../proto';
import { Engine, Tx, decodeToken } from '../engine/engine';
import { completeWorkflowTask, dispatchWorkflowTask, failWorkflowTask } from '../engine/workflow-tasks';
import {
  dispatchActivity,
  findActivity,
  completeActivity,
  failActivity,
  canceledActivity,
  recordHeartbeat,
} from '../engine/activities';
import { invalid, notFound } from './errors';
import { answerQuery } from '../engine/queries';
import type { ActivityState, Run } from '../engine/state';
import { DEFAULT_RATE_PER_SECOND } from '../tasks/pollers';

export function workerHandlers(engine: Engine): Record<string, Handler> {
  const nsName = (n: string | null | undefined): string => engine.namespaces.get(n).name;

  // As in Temporal, the request's namespace is checked before its task token.
  const byToken = (r: { namespace?: string | null; taskToken?: Uint8Array | null }): { run: Run; act: ActivityState } => {
    nsName(r.namespace);
    return findActivity(engine, decodeToken(r.taskToken));
  };
  const byId = (r: { namespace?: string | null; workflowId?: string | null; runId?: string | null; activityId?: string | null }) => {
    const ns = nsName(r.namespace);
    if (!r.workflowId || !r.activityId) throw invalid('WorkflowId and ActivityId are required.');
    return findActivity(engine, { ns, workflowId: r.workflowId, runId: r.runId || undefined, activityId: r.activityId });
  };
  /**
   * As in Temporal: by id, only completing may settle an attempt no worker has started yet (an
   * external system finishing the work in its stead); a heartbeat, failure or cancellation by id
   * needs a started attempt, else NOT_FOUND.
   */
  const startedById = (r: Parameters<typeof byId>[0]) => {
    const found = byId(r);
    if (!found.run.started.has(found.act.sid)) throw notFound('activity task not found');
    return found;
  };
  const settle = async (fn: (tx: Tx) => void): Promise<object> => {
    const tx = new Tx();
    fn(tx);
    await engine.commit(tx);
    return {};
  };

  /** Heartbeat details are persisted (the SDK throttles heartbeats, so this stays cheap). */
  const heartbeat = async (run: Run, act: ActivityState, details: ws.IRecordActivityTaskHeartbeatRequest['details']) => {
    const cancelRequested = recordHeartbeat(engine, run, act, details);
    if (details) await settle((tx) => tx.runs.add(run));
    return { cancelRequested };
  };

  return {
    PollWorkflowTaskQueue: def<ws.IPollWorkflowTaskQueueRequest>(async (r, ctx) => {
      const ns = nsName(r.namespace);
      if (!r.taskQueue?.name) throw invalid('TaskQueue is not set on request.');
      const identity = r.identity ?? '';
      engine.wfPollers.record(engine.queueKey(ns, r.taskQueue.name), { identity, ratePerSecond: DEFAULT_RATE_PER_SECOND, capabilities: r.workerVersionCapabilities ?? undefined });
      const res = await engine.wfMatching.poll(engine.queueKey(ns, r.taskQueue.name), (t) => dispatchWorkflowTask(engine, t, identity), ctx.onCancel);
      return res ?? {};
    }),

    RespondWorkflowTaskCompleted: def<ws.IRespondWorkflowTaskCompletedRequest>(async (r) => {
      nsName(r.namespace);
      return completeWorkflowTask(engine, r);
    }),

    RespondWorkflowTaskFailed: def<ws.IRespondWorkflowTaskFailedRequest>(async (r) => {
      nsName(r.namespace);
      await failWorkflowTask(engine, r);
      return {};
    }),

    RespondQueryTaskCompleted: def<ws.IRespondQueryTaskCompletedRequest>(async (r) => {
      nsName(r.namespace);
      const t = decodeToken(r.taskToken);
      const run = engine.inMemory(engine.key(t.ns, t.r));
      if (t.k !== 'q' || !run || !t.q) throw notFound('query not found');
      const ok = r.completedType === 1; // QUERY_RESULT_TYPE_ANSWERED
      const answered = answerQuery(
        run,
        t.q,
        ok ? { result: r.queryResult } : { error: r.errorMessage || r.failure?.message || 'query failed' },
      );
      if (!answered) throw notFound('query not found (it may have timed out)');
      return {};
    }),

    PollActivityTaskQueue: def<ws.IPollActivityTaskQueueRequest>(async (r, ctx) => {
      const ns = nsName(r.namespace);
      if (!r.taskQueue?.name) throw invalid('TaskQueue is not set on request.');
      const identity = r.identity ?? '';
      engine.actPollers.record(engine.queueKey(ns, r.taskQueue.name), {
        identity,
        ratePerSecond: r.taskQueueMetadata?.maxTasksPerSecond?.value || DEFAULT_RATE_PER_SECOND,
        capabilities: r.workerVersionCapabilities ?? undefined,
      });
      const res = await engine.actMatching.poll(engine.queueKey(ns, r.taskQueue.name), (t) => dispatchActivity(engine, t, identity), ctx.onCancel);
      return res ?? {};
    }),

    RecordActivityTaskHeartbeat: def<ws.IRecordActivityTaskHeartbeatRequest>(async (r) => {
      const { run, act } = byToken(r);
      return heartbeat(run, act, r.details);
    }),

    RecordActivityTaskHeartbeatById: def<ws.IRecordActivityTaskHeartbeatByIdRequest>(async (r) => {
      const { run, act } = startedById(r);
      return heartbeat(run, act, r.details);
    }),

    RespondActivityTaskCompleted: def<ws.IRespondActivityTaskCompletedRequest>(async (r) => {
      const { run, act } = byToken(r);
      return settle((tx) => completeActivity(engine, tx, run, act, r.result, r.identity ?? ''));
    }),

    RespondActivityTaskCompletedById: def<ws.IRespondActivityTaskCompletedByIdRequest>(async (r) => {
      const { run, act } = byId(r);
      return settle((tx) => completeActivity(engine, tx, run, act, r.result, r.identity ?? ''));
    }),

    RespondActivityTaskFailed: def<ws.IRespondActivityTaskFailedRequest>(async (r) => {
      const { run, act } = byToken(r);
      if (r.lastHeartbeatDetails) recordHeartbeat(engine, run, act, r.lastHeartbeatDetails);
      await settle((tx) => failActivity(engine, tx, run, act, r.failure ?? { message: 'activity failed' }, r.identity ?? ''));
      return { failures: [] };
    }),

    RespondActivityTaskFailedById: def<ws.IRespondActivityTaskFailedByIdRequest>(async (r) => {
      const { run, act } = startedById(r);
      await settle((tx) => failActivity(engine, tx, run, act, r.failure ?? { message: 'activity failed' }, r.identity ?? ''));
      return { failures: [] };
    }),

    RespondActivityTaskCanceled: def<ws.IRespondActivityTaskCanceledRequest>(async (r) => {
      const { run, act } = byToken(r);
      return settle((tx) => canceledActivity(engine, tx, run, act, r.details, r.identity ?? ''));
    }),

    RespondActivityTaskCanceledById: def<ws.IRespondActivityTaskCanceledByIdRequest>(async (r) => {
      const { run, act } = startedById(r);
      return settle((tx) => canceledActivity(engine, tx, run, act, r.details, r.identity ?? ''));
    }),

    ResetStickyTaskQueue: def<ws.IResetStickyTaskQueueRequest>(async (r) => {
      const run = engine.getRun(nsName(r.namespace), r.execution?.workflowId, r.execution?.runId);
      if (run.sticky) {
        run.sticky = undefined;
        if (run.running && run.s.wft && !run.inflight) engine.enqueueWft(run);
      }
      return {};
    }),

    ShutdownWorker: def<ws.IShutdownWorkerRequest>(async (r) => {
      if (r.stickyTaskQueue) engine.dropSticky(nsName(r.namespace), r.stickyTaskQueue);
      return {};
    }),
  };
}
