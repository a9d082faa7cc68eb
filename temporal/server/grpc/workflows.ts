/** Client-facing calls: namespaces, system info, and starting/signalling/stopping workflows. */
import { randomUUID } from 'crypto';
import { status } from '@grpc/grpc-js';
import { def, Handler } from './service';
import { durMs, enums, ws } from '../proto';
import { Engine, Tx } from '../engine/engine';
import { checkStart, startRun, StartParams } from '../engine/starts';
import { checkSearchAttributes } from '../engine/search-attributes';
import { invalid, notFound, ServiceError } from './errors';
import { addQuery } from '../engine/queries';
import { updateWorkflow, waitFor as waitForUpdate } from '../engine/updates';

export const SERVER_VERSION = '1.24.0';

export function workflowHandlers(engine: Engine): Record<string, Handler> {
  const nsName = (n: string | null | undefined): string => engine.namespaces.get(n).name;

  const startParams = (
    r: ws.IStartWorkflowExecutionRequest | ws.ISignalWithStartWorkflowExecutionRequest,
  ): StartParams => {
    if (!r.workflowId) throw invalid('WorkflowId is not set on request.');
    if (r.workflowId.length > 1000) throw invalid('WorkflowId length exceeds limit.');
    if (!r.workflowType?.name) throw invalid('WorkflowType is not set on request.');
    if (!r.taskQueue?.name) throw invalid('TaskQueue is not set on request.');
    for (const d of [r.workflowExecutionTimeout, r.workflowRunTimeout, r.workflowTaskTimeout]) {
      if (d && Number(d.seconds ?? 0) < 0) throw invalid('Timeouts must not be negative.');
    }
    return {
      workflowId: r.workflowId,
      type: r.workflowType.name,
      taskQueue: r.taskQueue.name,
      input: r.input,
      header: r.header,
      memo: r.memo,
      sa: r.searchAttributes,
      identity: r.identity ?? '',
      requestId: r.requestId || randomUUID(),
      execTimeoutMs: durMs(r.workflowExecutionTimeout),
      runTimeoutMs: durMs(r.workflowRunTimeout),
      wftTimeoutMs: durMs(r.workflowTaskTimeout),
      retry: r.retryPolicy,
      startDelayMs: durMs(r.workflowStartDelay),
      cron: r.cronSchedule || undefined,
      userMetadata: r.userMetadata,
      priority: r.priority,
    };
  };

  return {
    GetSystemInfo: def(async () => ({
      serverVersion: SERVER_VERSION,
      capabilities: {
        signalAndQueryHeader: true,
        internalErrorDifferentiation: true,
        activityFailureIncludeHeartbeat: true,
        encodedFailureAttributes: true,
        upsertMemo: true,
        sdkMetadata: true,
        countGroupByExecutionStatus: true,
        supportsSchedules: true,
        eagerWorkflowStart: false,
        // As a Temporal server says: the SDK then sends the worker's build id as a version stamp,
        // which WorkflowTaskCompleted records.
        buildIdBasedVersioning: true,
      },
    })),

    GetClusterInfo: def(async () => ({
      supportedClients: {},
      serverVersion: SERVER_VERSION,
      clusterId: 'embedded',
      clusterName: 'active',
      historyShardCount: 1,
      persistenceStore: engine.store.durable ? 'embedded-log' : 'memory',
      visibilityStore: 'embedded',
    })),

    DescribeNamespace: def<ws.IDescribeNamespaceRequest>(async (r) => {
      const n = r.id ? engine.namespaces.all().find((x) => x.id === r.id) : engine.namespaces.get(r.namespace);
      if (!n) throw notFound(`Namespace ${r.id} is not found.`);
      return engine.namespaces.describe(n);
    }),

    ListNamespaces: def(async () => ({
      namespaces: engine.namespaces.all().map((n) => engine.namespaces.describe(n)),
    })),

    RegisterNamespace: def<ws.IRegisterNamespaceRequest>(async (r) => {
      const days = Math.max(1, Math.round((durMs(r.workflowExecutionRetentionPeriod) ?? 86400_000) / 86400_000));
      const rec = engine.namespaces.create(r.namespace ?? '', r.description ?? '', r.ownerEmail ?? '', days);
      const tx = new Tx();
      tx.ns.push(rec);
      await engine.commit(tx);
      return {};
    }),

    StartWorkflowExecution: def<ws.IStartWorkflowExecutionRequest>(async (r) => {
      const ns = nsName(r.namespace);
      const p = startParams(r);
      checkSearchAttributes(engine, ns, p.sa);
      const tx = new Tx();
      const { existing } = checkStart(engine, tx, ns, p.workflowId, p.requestId, r.workflowIdReusePolicy ?? 0, r.workflowIdConflictPolicy ?? 0);
      if (existing) {
        await engine.commit(tx);
        return { runId: existing.s.runId, started: false };
      }
      const run = startRun(engine, tx, ns, p);
      await engine.commit(tx);
      return { runId: run.s.runId, started: true };
    }),

    SignalWithStartWorkflowExecution: def<ws.ISignalWithStartWorkflowExecutionRequest>(async (r) => {
      const ns = nsName(r.namespace);
      if (!r.signalName) throw invalid('SignalName is not set on request.');
      const p = startParams(r);
      checkSearchAttributes(engine, ns, p.sa);
      const tx = new Tx();
      const cur = engine.currentRun(ns, p.workflowId);
      if (cur?.running && r.workflowIdConflictPolicy !== enums.WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING) {
        engine.notify(tx, cur, 'WorkflowExecutionSignaled', {
          signalName: r.signalName,
          input: r.signalInput,
          identity: r.identity,
          header: r.header,
        });
        // Unlike a plain signal, a signal-with-start ends a start delay (as in Temporal).
        engine.ensureWft(tx, cur, true);
        await engine.commit(tx);
        return { runId: cur.s.runId, started: false };
      }
      checkStart(engine, tx, ns, p.workflowId, '', r.workflowIdReusePolicy ?? 0, r.workflowIdConflictPolicy ?? 0);
      const run = startRun(engine, tx, ns, { ...p, signal: { name: r.signalName, input: r.signalInput, header: r.header } });
      await engine.commit(tx);
      return { runId: run.s.runId, started: true };
    }),

    SignalWorkflowExecution: def<ws.ISignalWorkflowExecutionRequest>(async (r) => {
      const ns = nsName(r.namespace);
      if (!r.signalName) throw invalid('SignalName is not set on request.');
      const run = engine.getRun(ns, r.workflowExecution?.workflowId, r.workflowExecution?.runId);
      if (!run.running) throw notFound('workflow execution already completed');
      const ids = (run.s.signalIds ??= []);
      if (r.requestId && ids.includes(r.requestId)) return {};
      const tx = new Tx();
      if (r.requestId) {
        ids.push(r.requestId);
        if (ids.length > 100) ids.shift();
        tx.runs.add(run);
      }
      engine.notify(tx, run, 'WorkflowExecutionSignaled', {
        signalName: r.signalName,
        input: r.input,
        identity: r.identity,
        header: r.header,
      });
      await engine.commit(tx);
      return {};
    }),

    RequestCancelWorkflowExecution: def<ws.IRequestCancelWorkflowExecutionRequest>(async (r) => {
      const ns = nsName(r.namespace);
      const run = engine.getRun(ns, r.workflowExecution?.workflowId, r.workflowExecution?.runId);
      if (!run.running) throw notFound('workflow execution already completed');
      const tx = new Tx();
      engine.requestCancel(tx, run, r.reason ?? '', r.identity ?? '');
      await engine.commit(tx);
      return {};
    }),

    TerminateWorkflowExecution: def<ws.ITerminateWorkflowExecutionRequest>(async (r) => {
      const ns = nsName(r.namespace);
      const run = engine.getRun(ns, r.workflowExecution?.workflowId, r.workflowExecution?.runId);
      if (!run.running) throw notFound('workflow execution already completed');
      const tx = new Tx();
      engine.terminate(tx, run, r.reason ?? '', r.identity ?? '', r.details);
      await engine.commit(tx);
      return {};
    }),

    UpdateWorkflowExecution: def<ws.IUpdateWorkflowExecutionRequest>(async (r, ctx) => {
      const ns = nsName(r.namespace);
      if (!r.request) throw invalid('Request is not set on request.');
      const run = engine.getRun(ns, r.workflowExecution?.workflowId, r.workflowExecution?.runId);
      const res = await updateWorkflow(engine, run, r.request, r.waitPolicy?.lifecycleStage ?? 0, Math.min(ctx.remainingMs() - 500, 20_000));
      return {
        updateRef: { workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId }, updateId: res.id },
        outcome: res.outcome,
        stage: res.stage,
      };
    }),

    PollWorkflowExecutionUpdate: def<ws.IPollWorkflowExecutionUpdateRequest>(async (r, ctx) => {
      const ns = nsName(r.namespace);
      const ref = r.updateRef;
      if (!ref?.updateId) throw invalid('UpdateRef is not set on request.');
      const run = engine.getRun(ns, ref.workflowExecution?.workflowId, ref.workflowExecution?.runId);
      const res = await waitForUpdate(run, ref.updateId, r.waitPolicy?.lifecycleStage ?? 0, Math.min(ctx.remainingMs() - 500, 20_000), () => engine.isClosed);
      return {
        updateRef: { workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId }, updateId: ref.updateId },
        outcome: res.outcome,
        stage: res.stage,
      };
    }),

    QueryWorkflow: def<ws.IQueryWorkflowRequest>(async (r, ctx) => {
      const ns = nsName(r.namespace);
      if (!r.query?.queryType) throw invalid('QueryType is not set on request.');
      const run = engine.getRun(ns, r.execution?.workflowId, r.execution?.runId);
      const Rej = enums.QueryRejectCondition;
      const rejected =
        (r.queryRejectCondition === Rej.QUERY_REJECT_CONDITION_NOT_OPEN && !run.running) ||
        (r.queryRejectCondition === Rej.QUERY_REJECT_CONDITION_NOT_COMPLETED_CLEANLY && !run.running && run.s.status !== 'Completed');
      if (rejected) return { queryRejected: { status: statusEnum(run.s.status) } };
      const timeout = Math.min(ctx.remainingMs(), 60_000);
      const res = await addQuery(engine, run, { queryType: r.query.queryType, args: r.query.queryArgs, header: r.query.header }, timeout, ctx.remainingMs());
      if (res.error !== undefined) throw new ServiceError(status.INVALID_ARGUMENT, res.error);
      return { queryResult: res.result ?? { payloads: [] } };
    }),
  };
}

export function statusEnum(s: string): number {
  const S = enums.WorkflowExecutionStatus;
  switch (s) {
    case 'Running':
      return S.WORKFLOW_EXECUTION_STATUS_RUNNING;
    case 'Completed':
      return S.WORKFLOW_EXECUTION_STATUS_COMPLETED;
    case 'Failed':
      return S.WORKFLOW_EXECUTION_STATUS_FAILED;
    case 'Canceled':
      return S.WORKFLOW_EXECUTION_STATUS_CANCELED;
    case 'Terminated':
      return S.WORKFLOW_EXECUTION_STATUS_TERMINATED;
    case 'ContinuedAsNew':
      return S.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW;
    default:
      return S.WORKFLOW_EXECUTION_STATUS_TIMED_OUT;
  }
}
