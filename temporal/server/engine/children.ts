/**
 * The parent/child relation after a close: the parent hears how its child ended, and a closing
 * parent applies each child's parent close policy. Both run in their own transaction after the
 * close; resumeFamily redoes them at startup when a crash came in between. Starting a child is
 * in transfers.ts.
 */
import { enums } from '../proto';
import { attrsOf } from '../history/events';
import type { Engine } from './engine';
import type { Run, RunState, RunStatus } from './state';

export function applyParentClosePolicy(engine: Engine, run: Run, children: RunState['children'][string][]): void {
  const P = enums.ParentClosePolicy;
  for (const c of children) {
    const child = engine.currentRun(c.ns, c.workflowId);
    if (!child || !child.running || child.s.parent?.runId !== run.s.runId) continue;
    if (c.policy === P.PARENT_CLOSE_POLICY_ABANDON) continue;
    void engine.run((tx) => {
      if (!child.running) return;
      if (c.policy === P.PARENT_CLOSE_POLICY_REQUEST_CANCEL) engine.requestCancel(tx, child, 'by parent close policy', 'server');
      else engine.terminate(tx, child, 'by parent close policy', 'server');
    });
  }
}

/**
 * Recovery of the steps that follow a close in a separate transaction: a child that closed
 * without its parent hearing of it, and a parent that closed without applying its close policy.
 */
export function resumeFamily(engine: Engine, run: Run): void {
  for (const c of Object.values(run.s.children)) {
    const child = c.runId ? engine.currentRun(c.ns, c.workflowId) : undefined;
    if (child && !child.running && child.s.parent?.runId === run.s.runId) {
      const last = child.lastEvent();
      if (last) notifyParent(engine, child, child.s.status, attrsOf(last));
    }
  }
  const p = run.s.parent;
  const parent = p ? engine.find(p.ns, p.workflowId, p.runId) : undefined;
  if (p && parent && !parent.running && p.policy !== undefined) {
    applyParentClosePolicy(engine, parent, [{ iid: p.iid, ns: run.ns, workflowId: run.s.workflowId, type: run.s.type, policy: p.policy }]);
  }
}

/** Reports a child's final state to its parent (unless it continued as new). */
export function notifyParent(engine: Engine, run: Run, status: RunStatus, attrs: object): void {
  const p = run.s.parent;
  if (!p || status === 'ContinuedAsNew') return;
  const parent = engine.runs.get(engine.key(p.ns, p.runId));
  if (!parent || !parent.running) return;
  const child = parent.s.children[p.iid];
  if (!child) return;
  const a = attrs as Record<string, unknown>;
  const common = {
    namespace: run.ns,
    workflowExecution: { workflowId: run.s.workflowId, runId: run.s.runId },
    workflowType: { name: run.s.type },
    initiatedEventId: p.iid,
    startedEventId: child.startedId ?? -1,
  };
  void engine.run((tx) => {
    if (!parent.running || !parent.s.children[p.iid]) return;
    delete parent.s.children[p.iid];
    switch (status) {
      case 'Completed':
        engine.notify(tx, parent, 'ChildWorkflowExecutionCompleted', { ...common, result: a.result });
        break;
      case 'Failed':
        engine.notify(tx, parent, 'ChildWorkflowExecutionFailed', {
          ...common,
          failure: a.failure,
          retryState: a.retryState,
        });
        break;
      case 'Canceled':
        engine.notify(tx, parent, 'ChildWorkflowExecutionCanceled', { ...common, details: a.details });
        break;
      case 'TimedOut':
        engine.notify(tx, parent, 'ChildWorkflowExecutionTimedOut', { ...common, retryState: a.retryState });
        break;
      case 'Terminated':
        engine.notify(tx, parent, 'ChildWorkflowExecutionTerminated', common);
        break;
    }
  });
}
