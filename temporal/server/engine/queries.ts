/**
 * Queries. A query rides on the next workflow task when one is scheduled (so it sees the newest
 * state), otherwise it goes out alone as a "legacy" query task with the full history; closed
 * workflows are queried the same way, by a worker.
 */
import { randomUUID } from 'crypto';
import { api, enums, IPayloads, L, ts } from '../proto';
import type { Engine } from './engine';
import { encodeToken } from './tokens';
import type { PendingQuery, Run } from './state';
import { EngineError, workflowNotReady } from './errors';

type PollWftResponse = api.workflowservice.v1.IPollWorkflowTaskQueueResponse;
export type QueryAnswer = { result?: IPayloads | null; error?: string };

export function dispatchQueries(engine: Engine, run: Run): void {
  for (const q of run.queries) {
    if (q.dispatched) continue;
    if (run.inflight) return;
    if (run.running && run.s.wft) return; // attached to that task when it is dispatched
    // Before the first workflow task completes a worker has no workflow to ask: the query waits
    // for that task (as in Temporal).
    if (run.running && run.s.lastStartedId === 0) return;
    q.dispatched = true;
    engine.wfMatching.add(
      engine.queueKey(run.ns, run.s.taskQueue),
      { key: engine.key(run.ns, run.s.runId), sid: 0, attempt: 0, queryId: q.id },
    );
  }
}

export function dispatchLegacyQuery(run: Run, id: string): PollWftResponse | undefined {
  const q = run.queries.find((x) => x.id === id);
  if (!q) return undefined;
  if (run.inflight || (run.running && run.s.wft)) {
    q.dispatched = false; // picked up again when the workflow task settles
    return undefined;
  }
  return {
    taskToken: encodeToken({ ns: run.ns, w: run.s.workflowId, r: run.s.runId, k: 'q', s: 0, a: 0, q: id }),
    workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId },
    workflowType: { name: run.s.type },
    previousStartedEventId: L(run.s.lastStartedId),
    startedEventId: L(run.s.lastStartedId),
    attempt: 1,
    history: { events: run.events },
    query: { queryType: q.queryType, queryArgs: q.args, header: q.header },
    workflowExecutionTaskQueue: { name: run.s.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    scheduledTime: ts(Date.now()),
    startedTime: ts(Date.now()),
  };
}

export function answerQuery(run: Run, id: string, r: QueryAnswer): boolean {
  const i = run.queries.findIndex((x) => x.id === id);
  if (i < 0) return false;
  const q = run.queries[i];
  run.queries.splice(i, 1);
  q.resolve(r);
  return true;
}

/** Queries attached to a workflow task that failed go out again. */
export function requeueQueries(run: Run, sid: number): void {
  for (const q of run.queries) if (q.attachedTo === sid) q.dispatched = false;
}

/**
 * Temporal's answers to a query no worker could take yet: the run closed before any workflow
 * task completed, or its first task (after a start delay) is not due before the caller gives up.
 */
function notReady(run: Run, callerWaitMs: number): EngineError | undefined {
  if (run.s.lastStartedId > 0) return undefined;
  if (!run.running) return workflowNotReady('Workflow execution closed before WorkflowTaskStarted event');
  const pending = run.s.wft || run.inflight || run.s.wftRetry;
  // A caller without a deadline could wait for ever: refused at once, as in Temporal.
  const due = run.s.firstWftAt ?? 0;
  if (!pending && (!Number.isFinite(callerWaitMs) || due > Date.now() + callerWaitMs)) return workflowNotReady('Workflow task is not scheduled yet.');
  return undefined;
}

/** `callerWaitMs`: how long the caller waits (Infinity without a deadline); `timeoutMs` bounds our wait. */
export function addQuery(
  engine: Engine,
  run: Run,
  q: Omit<PendingQuery, 'dispatched' | 'resolve' | 'id'>,
  timeoutMs: number,
  callerWaitMs = timeoutMs,
): Promise<QueryAnswer> {
  const refused = notReady(run, callerWaitMs);
  if (refused) return Promise.reject(refused);
  return new Promise<QueryAnswer>((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(() => {
      const i = run.queries.findIndex((x) => x.id === id);
      if (i >= 0) run.queries.splice(i, 1);
      reject(new EngineError('deadline_exceeded', 'query timed out: no worker answered'));
    }, timeoutMs);
    run.queries.push({
      ...q,
      id,
      dispatched: false,
      resolve: (r) => {
        clearTimeout(timer);
        resolve(r);
      },
    });
    dispatchQueries(engine, run);
  });
}
