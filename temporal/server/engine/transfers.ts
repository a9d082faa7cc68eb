/**
 * Cross-workflow steps started by a workflow's commands: starting a child, signalling or
 * cancelling another workflow. The initiating event is written first and the step is recorded
 * as pending in the run state (`transfers`); the step itself runs in a second transaction that
 * also clears it. After a crash in between, recovery runs the step again from the event.
 */
import { randomUUID } from 'crypto';
import { api, durMs, enums } from '../proto';
import type { Engine, Tx } from './engine';
import type { Run } from './state';
import { checkStart, startRun } from './starts';

export function runTransfer(engine: Engine, run: Run, iid: number): void {
  // Test hook: leave the step pending, as if the server had crashed right after initiating it.
  if (process.env.TEMPORAL_TEST_HOLD_TRANSFERS === '1') return;
  void engine.run((tx) => {
    const pending = run.s.transfers ?? [];
    const i = pending.indexOf(iid);
    if (i < 0) return;
    pending.splice(i, 1);
    tx.runs.add(run);
    if (!run.running) return;
    const e = run.events[iid - 1];
    const completed = run.events[Number(attrsCompletedId(e)) - 1];
    const identity = completed?.workflowTaskCompletedEventAttributes?.identity ?? 'server';
    if (e?.startChildWorkflowExecutionInitiatedEventAttributes) startChild(engine, tx, run, iid, e, identity);
    else if (e?.signalExternalWorkflowExecutionInitiatedEventAttributes) signal(engine, tx, run, iid, e.signalExternalWorkflowExecutionInitiatedEventAttributes, identity);
    else if (e?.requestCancelExternalWorkflowExecutionInitiatedEventAttributes) cancel(engine, tx, run, iid, e.requestCancelExternalWorkflowExecutionInitiatedEventAttributes, identity);
  });
}

function attrsCompletedId(e: api.history.v1.IHistoryEvent | undefined): number {
  const a =
    e?.startChildWorkflowExecutionInitiatedEventAttributes ??
    e?.signalExternalWorkflowExecutionInitiatedEventAttributes ??
    e?.requestCancelExternalWorkflowExecutionInitiatedEventAttributes;
  return Number(a?.workflowTaskCompletedEventId ?? 0);
}

function startChild(
  engine: Engine,
  tx: Tx,
  run: Run,
  iid: number,
  initiated: api.history.v1.IHistoryEvent,
  identity: string,
): void {
  const a = initiated.startChildWorkflowExecutionInitiatedEventAttributes!;
  if (!run.s.children[iid] || run.s.children[iid].runId) return;
  const ns = a.namespace || run.ns;
  const common = { namespace: ns, workflowId: a.workflowId, workflowType: a.workflowType, initiatedEventId: iid };
  let failed = false;
  try {
    engine.namespaces.get(ns);
    const { existing } = checkStart(engine, tx, ns, a.workflowId ?? '', '', a.workflowIdReusePolicy ?? 0, 0);
    failed = existing !== undefined;
  } catch {
    failed = true;
  }
  if (failed) {
    delete run.s.children[iid];
    engine.notify(tx, run, 'StartChildWorkflowExecutionFailed', {
      ...common,
      cause: enums.StartChildWorkflowExecutionFailedCause.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_WORKFLOW_ALREADY_EXISTS,
      control: a.control,
      workflowTaskCompletedEventId: a.workflowTaskCompletedEventId,
    });
    return;
  }
  const child = startRun(engine, tx, ns, {
    workflowId: a.workflowId ?? '',
    type: a.workflowType?.name ?? '',
    taskQueue: a.taskQueue?.name || run.s.taskQueue,
    input: a.input,
    header: a.header,
    memo: a.memo,
    sa: a.searchAttributes,
    identity,
    requestId: randomUUID(),
    execTimeoutMs: durMs(a.workflowExecutionTimeout),
    runTimeoutMs: durMs(a.workflowRunTimeout),
    wftTimeoutMs: durMs(a.workflowTaskTimeout),
    retry: a.retryPolicy,
    cron: a.cronSchedule || undefined,
    parent: { ns: run.ns, workflowId: run.s.workflowId, runId: run.s.runId, iid, policy: run.s.children[iid].policy },
    root: run.s.root,
    userMetadata: initiated.userMetadata,
    priority: mergePriority(run.firstEvent()?.workflowExecutionStartedEventAttributes?.priority, a.priority),
  });
  run.s.children[iid].runId = child.s.runId;
  engine.notify(tx, run, 'ChildWorkflowExecutionStarted', {
    namespace: ns,
    initiatedEventId: iid,
    workflowExecution: { workflowId: child.s.workflowId, runId: child.s.runId },
    workflowType: a.workflowType,
    header: a.header,
  });
}

/** The child's priority: each field it sets, else the parent's (Temporal's priorities.Merge). */
export function mergePriority(base: api.common.v1.IPriority | null | undefined, override: api.common.v1.IPriority | null | undefined): api.common.v1.IPriority | undefined {
  if (!base) return override ?? undefined;
  if (!override) return base;
  return {
    priorityKey: override.priorityKey || base.priorityKey,
    fairnessKey: override.fairnessKey || base.fairnessKey,
    fairnessWeight: override.fairnessWeight || base.fairnessWeight,
  };
}

function signal(
  engine: Engine,
  tx: Tx,
  run: Run,
  iid: number,
  a: api.history.v1.ISignalExternalWorkflowExecutionInitiatedEventAttributes,
  identity: string,
): void {
  const ns = a.namespace || run.ns;
  const common = { namespace: ns, workflowExecution: a.workflowExecution, initiatedEventId: iid, control: a.control };
  const target = findTarget(engine, ns, a.workflowExecution, a.childWorkflowOnly ? run : undefined);
  if (!target) {
    engine.notify(tx, run, 'SignalExternalWorkflowExecutionFailed', {
      ...common,
      cause: enums.SignalExternalWorkflowExecutionFailedCause.SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND,
      workflowTaskCompletedEventId: a.workflowTaskCompletedEventId,
    });
    return;
  }
  engine.notify(tx, target, 'WorkflowExecutionSignaled', {
    signalName: a.signalName,
    input: a.input,
    header: a.header,
    identity,
    externalWorkflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId },
  });
  engine.notify(tx, run, 'ExternalWorkflowExecutionSignaled', common);
}

function cancel(
  engine: Engine,
  tx: Tx,
  run: Run,
  iid: number,
  a: api.history.v1.IRequestCancelExternalWorkflowExecutionInitiatedEventAttributes,
  identity: string,
): void {
  const ns = a.namespace || run.ns;
  const common = { namespace: ns, workflowExecution: a.workflowExecution, initiatedEventId: iid };
  const target = findTarget(engine, ns, a.workflowExecution, a.childWorkflowOnly ? run : undefined);
  if (!target) {
    engine.notify(tx, run, 'RequestCancelExternalWorkflowExecutionFailed', {
      ...common,
      control: a.control,
      cause: enums.CancelExternalWorkflowExecutionFailedCause.CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND,
      workflowTaskCompletedEventId: a.workflowTaskCompletedEventId,
    });
    return;
  }
  engine.requestCancel(tx, target, a.reason || 'cancelled by another workflow', identity, {
    workflowId: run.s.workflowId,
    runId: run.s.runId,
  });
  engine.notify(tx, run, 'ExternalWorkflowExecutionCancelRequested', common);
}

/** The running target of an external signal/cancel (a child only, when asked). */
function findTarget(
  engine: Engine,
  ns: string,
  ex: api.common.v1.IWorkflowExecution | null | undefined,
  parentOnly: Run | undefined,
): Run | undefined {
  if (!ex?.workflowId) return undefined;
  const run = ex.runId ? engine.runs.get(engine.key(ns, ex.runId)) : engine.currentRun(ns, ex.workflowId);
  if (!run || !run.running || run.s.workflowId !== ex.workflowId) return undefined;
  if (parentOnly && run.s.parent?.workflowId !== parentOnly.s.workflowId) return undefined;
  return run;
}
