/** Read-side calls: describe, history (paged, long-polled, reversed) and visibility. */
import { def, Handler, CallContext } from './service';
import { api, enums, IHistoryEvent, L, msDur, ts, ws } from '../proto';
import { Engine, HISTORY_LONG_POLL_MS, decodeFields, retryPolicyOf } from '../engine/engine';
import { Run } from '../engine/state';
import type { ClosedRun } from '../engine/closed';
import { customTypes } from '../engine/search-attributes';
import { CLOSE_EVENTS } from '../history/events';
import { invalid } from './errors';
import { statusEnum } from './workflows';
import { compileVisibilityQuery, knownSearchAttributes, VisibilityQueryError, type CompiledVisibilityQuery } from '../visibility/query';
import type { SearchAttributeType, VisibilityRecord } from '../visibility/types';
import { DEFAULT_RATE_PER_SECOND } from '../tasks/pollers';

const PAGE = 1000;

function pageToken(n: number): Uint8Array {
  return Buffer.from(String(n), 'utf8');
}

function readToken(b: Uint8Array | null | undefined): number | undefined {
  if (!b || b.length === 0) return undefined;
  const n = Number(Buffer.from(b).toString('utf8'));
  if (!Number.isInteger(n) || n < 0) throw invalid('Invalid NextPageToken');
  return n;
}

/** Waits until the run changes, the poll times out or the caller goes away. */
function waitForChange(run: Run, ctx: CallContext, until = Date.now() + HISTORY_LONG_POLL_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, Math.min(until - Date.now(), ctx.remainingMs() - 500)));
    function done(): void {
      clearTimeout(timer);
      const i = run.historyWaiters.indexOf(done);
      if (i >= 0) run.historyWaiters.splice(i, 1);
      resolve();
    }
    run.historyWaiters.push(done);
    ctx.onCancel(done);
  });
}

export function visibilityRecord(run: Run): VisibilityRecord {
  return {
    workflowId: run.s.workflowId,
    runId: run.s.runId,
    workflowType: run.s.type,
    status: run.s.status,
    startTime: new Date(run.s.startTime),
    closeTime: run.s.closeTime ? new Date(run.s.closeTime) : undefined,
    executionTime: run.s.executionTime ? new Date(run.s.executionTime) : undefined,
    taskQueue: run.s.taskQueue,
    parent: run.s.parent && { workflowId: run.s.parent.workflowId, runId: run.s.parent.runId },
    root: run.s.root,
    searchAttributes: decodeSearchAttributes(run),
  };
}

/** A closed run on disk, from what stays in memory of it (engine/closed.ts). */
function closedVisibilityRecord(c: ClosedRun): VisibilityRecord {
  return {
    workflowId: c.workflowId,
    runId: c.runId,
    workflowType: c.type,
    status: c.status,
    startTime: new Date(c.startTime),
    closeTime: new Date(c.closeTime),
    executionTime: c.executionTime ? new Date(c.executionTime) : undefined,
    taskQueue: c.taskQueue,
    parent: c.parent,
    root: c.root ?? { workflowId: c.workflowId, runId: c.runId },
    searchAttributes: c.sa ?? {},
  };
}

/** Search attribute payloads are JSON (the SDK's default converter); undecodable ones are skipped. */
function decodeSearchAttributes(run: Run): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(decodeFields(run.s.sa))) {
    try {
      out[k] = JSON.parse(Buffer.from(p.data ?? []).toString('utf8'));
    } catch {
      /* not JSON: not searchable */
    }
  }
  return out;
}

function executionInfo(engine: Engine, run: Run): api.workflow.v1.IWorkflowExecutionInfo {
  const s = run.s;
  return {
    execution: { workflowId: s.workflowId, runId: s.runId },
    type: { name: s.type },
    startTime: ts(s.startTime),
    closeTime: s.closeTime ? ts(s.closeTime) : undefined,
    executionTime: s.executionTime ? ts(s.executionTime) : undefined,
    status: statusEnum(s.status),
    historyLength: L(run.length),
    historySizeBytes: L(s.historyBytes),
    taskQueue: s.taskQueue,
    memo: { fields: decodeFields(s.memo) },
    searchAttributes: { indexedFields: decodeFields(s.sa) },
    parentNamespaceId: s.parent ? engine.namespaces.get(s.parent.ns).id : undefined,
    parentExecution: s.parent ? { workflowId: s.parent.workflowId, runId: s.parent.runId } : undefined,
    rootExecution: s.root,
    firstRunId: s.firstRunId,
    stateTransitionCount: L(s.next),
  };
}

/** Attribute types as IndexedValueType numbers (GetSearchAttributes, ListSearchAttributes). */
export function indexedValueTypes(types: Record<string, SearchAttributeType>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, type] of Object.entries(types)) {
    const enumName = `INDEXED_VALUE_TYPE_${type.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
    out[name] = (enums.IndexedValueType as unknown as Record<string, number>)[enumName] ?? 0;
  }
  return out;
}

/** A Keyword value as Temporal encodes it in visibility answers (count groups). */
function keywordPayload(value: string): api.common.v1.IPayload {
  return { metadata: { encoding: Buffer.from('json/plain'), type: Buffer.from('Keyword') }, data: Buffer.from(JSON.stringify(value)) };
}

export function readHandlers(engine: Engine): Record<string, Handler> {
  const nsName = (n: string | null | undefined): string => engine.namespaces.get(n).name;

  const select = (ns: string, query: string, count = false): { records: VisibilityRecord[]; q: CompiledVisibilityQuery } => {
    let q;
    try {
      q = compileVisibilityQuery(query ?? '', { customSearchAttributes: customTypes(engine, ns), allowGroupBy: count });
    } catch (e) {
      if (e instanceof VisibilityQueryError) throw invalid(`invalid query: ${e.message}`);
      throw e;
    }
    const records: VisibilityRecord[] = [];
    for (const run of engine.runs.values()) {
      if (run.ns !== ns) continue;
      const rec = visibilityRecord(run);
      if (q.matches(rec)) records.push(rec);
    }
    for (const c of engine.closedRuns.inNamespace(ns)) {
      const rec = closedVisibilityRecord(c);
      if (q.matches(rec)) records.push(rec);
    }
    return { records, q };
  };

  const list = (ns: string, query: string): VisibilityRecord[] => {
    const { records, q } = select(ns, query);
    // Temporal's default order: newest first.
    return records.sort(q.compare ?? ((a, b) => b.startTime.getTime() - a.startTime.getTime()));
  };

  const listPage = (r: ws.IListWorkflowExecutionsRequest) => {
    const ns = nsName(r.namespace);
    const all = list(ns, r.query ?? '');
    const from = readToken(r.nextPageToken) ?? 0;
    const size = r.pageSize && r.pageSize > 0 ? r.pageSize : PAGE;
    const page = all.slice(from, from + size);
    return {
      // A closed run on disk is read back for its memo and sizes, and not kept.
      executions: page.map((rec) => executionInfo(engine, engine.find(ns, rec.workflowId, rec.runId, false)!)),
      nextPageToken: from + size < all.length ? pageToken(from + size) : undefined,
    };
  };

  return {
    DescribeWorkflowExecution: def<ws.IDescribeWorkflowExecutionRequest>(async (r) => {
      const run = engine.getRun(nsName(r.namespace), r.execution?.workflowId, r.execution?.runId);
      const s = run.s;
      // Summary, details and priority as the start gave them (Temporal reads the started event too).
      const started = run.firstEvent();
      return {
        executionConfig: {
          taskQueue: { name: s.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
          workflowExecutionTimeout: msDur(s.execTimeoutMs),
          workflowRunTimeout: msDur(s.runTimeoutMs),
          defaultWorkflowTaskTimeout: msDur(s.wftTimeoutMs),
          userMetadata: started?.userMetadata,
        },
        workflowExecutionInfo: { ...executionInfo(engine, run), priority: started?.workflowExecutionStartedEventAttributes?.priority },
        pendingActivities: Object.values(s.acts).map((a) => {
          const st = run.started.get(a.sid);
          const PA = enums.PendingActivityState;
          return {
            activityId: a.activityId,
            activityType: { name: a.type },
            state: a.cancelRequestedId
              ? PA.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED
              : st
                ? PA.PENDING_ACTIVITY_STATE_STARTED
                : PA.PENDING_ACTIVITY_STATE_SCHEDULED,
            heartbeatDetails: a.details ? api.common.v1.Payloads.decode(Buffer.from(a.details, 'base64')) : undefined,
            lastHeartbeatTime: st ? ts(st.lastHb) : undefined,
            lastStartedTime: st ? ts(st.at) : undefined,
            attempt: a.attempt,
            maximumAttempts: a.retry.maxAttempts,
            scheduledTime: ts(a.attemptScheduledAt),
            expirationTime: a.s2c ? ts(a.scheduledAt + a.s2c) : undefined,
            lastFailure: a.lastFailure ? api.failure.v1.Failure.decode(Buffer.from(a.lastFailure, 'base64')) : undefined,
            lastWorkerIdentity: st?.identity,
            retryPolicy: retryPolicyOf(a.retry),
          };
        }),
        pendingChildren: Object.values(s.children).map((c) => ({
          workflowId: c.workflowId,
          runId: c.runId,
          workflowTypeName: c.type,
          initiatedId: L(c.iid),
          parentClosePolicy: c.policy,
        })),
        pendingWorkflowTask: s.wft
          ? {
              state: run.inflight
                ? enums.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED
                : enums.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_SCHEDULED,
              scheduledTime: ts(s.wft.at),
              attempt: s.wft.attempt,
            }
          : undefined,
      };
    }),

    GetWorkflowExecutionHistory: def<ws.IGetWorkflowExecutionHistoryRequest>(async (r, ctx) => {
      const run = engine.getRun(nsName(r.namespace), r.execution?.workflowId, r.execution?.runId);
      const closeOnly = r.historyEventFilterType === enums.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT;
      if (closeOnly) {
        // Only the close matters here: sleep through other changes until the poll times out.
        const until = Date.now() + HISTORY_LONG_POLL_MS;
        let gone = false;
        ctx.onCancel(() => (gone = true));
        while (run.running && r.waitNewEvent && !gone && Date.now() < until && !engine.isClosed) await waitForChange(run, ctx, until);
        if (run.running) return { history: { events: [] }, nextPageToken: r.waitNewEvent ? pageToken(0) : undefined };
        const last = run.lastEvent();
        return { history: { events: last && CLOSE_EVENTS.has(last.eventType ?? 0) ? [last] : [] } };
      }
      let from = readToken(r.nextPageToken) ?? 0;
      engine.log('debug', 'history read', { workflowId: run.s.workflowId, from, wait: r.waitNewEvent === true, inflight: !!run.inflight });
      if (from > run.length) from = run.length;
      if (r.waitNewEvent && run.running && from >= run.length) {
        await waitForChange(run, ctx);
      }
      const size = r.maximumPageSize && r.maximumPageSize > 0 ? Math.min(r.maximumPageSize, PAGE) : PAGE;
      const events: IHistoryEvent[] = run.events.slice(from, from + size);
      const next = from + events.length;
      const more = next < run.length || (r.waitNewEvent === true && run.running);
      return { history: { events }, nextPageToken: more ? pageToken(next) : undefined };
    }),

    GetWorkflowExecutionHistoryReverse: def<ws.IGetWorkflowExecutionHistoryReverseRequest>(async (r) => {
      const run = engine.getRun(nsName(r.namespace), r.execution?.workflowId, r.execution?.runId);
      const total = run.length;
      const end = readToken(r.nextPageToken) ?? total;
      const size = r.maximumPageSize && r.maximumPageSize > 0 ? Math.min(r.maximumPageSize, PAGE) : PAGE;
      const start = Math.max(0, Math.min(end, total) - size);
      const events = run.events.slice(start, Math.min(end, total)).reverse();
      return { history: { events }, nextPageToken: start > 0 ? pageToken(start) : undefined };
    }),

    ScanWorkflowExecutions: def<ws.IScanWorkflowExecutionsRequest>(async (r) => listPage(r)),

    ListWorkflowExecutions: def<ws.IListWorkflowExecutionsRequest>(async (r) => listPage(r)),

    // The request names no namespace: the default one's registrations stand for the cluster's.
    GetSearchAttributes: def(async () => {
      const known = knownSearchAttributes(customTypes(engine, nsName('default')));
      return { keys: indexedValueTypes({ ...known.system, ...known.custom }) };
    }),

    CountWorkflowExecutions: def<ws.ICountWorkflowExecutionsRequest>(async (r) => {
      const { records, q } = select(nsName(r.namespace), r.query ?? '', true);
      if (!q.groupBy) return { count: L(records.length) };
      const byStatus = new Map<string, number>();
      for (const rec of records) byStatus.set(rec.status, (byStatus.get(rec.status) ?? 0) + 1);
      return {
        count: L(records.length),
        groups: [...byStatus]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([status, n]) => ({ groupValues: [keywordPayload(status)], count: L(n) })),
      };
    }),

    DescribeTaskQueue: def<ws.IDescribeTaskQueueRequest>(async (r) => {
      const ns = nsName(r.namespace);
      if (!r.taskQueue?.name) throw invalid('TaskQueue is not set on request.');
      const TQ = enums.TaskQueueType;
      const type = r.taskQueueType || TQ.TASK_QUEUE_TYPE_WORKFLOW;
      const key = engine.queueKey(ns, r.taskQueue.name);
      const [pollers, matching] =
        type === TQ.TASK_QUEUE_TYPE_ACTIVITY
          ? [engine.actPollers, engine.actMatching]
          : type === TQ.TASK_QUEUE_TYPE_WORKFLOW
            ? [engine.wfPollers, engine.wfMatching]
            : [undefined, undefined];
      return {
        pollers: (pollers?.list(key) ?? []).map((p) => ({
          identity: p.identity,
          lastAccessTime: ts(p.lastAccessMs),
          ratePerSecond: p.ratePerSecond,
          workerVersionCapabilities: p.capabilities,
        })),
        taskQueueStatus: r.includeTaskQueueStatus ? { backlogCountHint: L(matching?.backlog(key) ?? 0), ratePerSecond: DEFAULT_RATE_PER_SECOND } : undefined,
      };
    }),
  };
}
