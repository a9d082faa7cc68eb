/**
 * Workflow updates (the update protocol). A request rides on the next workflow task as a
 * protocol message; the worker answers with Rejection (nothing recorded), or Acceptance and
 * later Response, which the server records as UpdateAccepted / UpdateCompleted events when the
 * worker's PROTOCOL_MESSAGE commands reach them. Requests not yet accepted live in memory only
 * (like Temporal's speculative updates): a restart loses them and the caller retries.
 */
import { randomUUID } from 'crypto';
import { api, enums, IFailure, L } from '../proto';
import type { Engine, Tx } from './engine';
import type { Run } from './state';
import { invalidArgument, notFound } from './errors';

const Stage = enums.UpdateWorkflowExecutionLifecycleStage;
type Message = api.protocol.v1.IMessage;
type Outcome = api.update.v1.IOutcome;

export interface PendingUpdate {
  id: string;
  request: api.update.v1.IRequest;
  stage: number;
  outcome?: Outcome;
  acceptedEventId?: number;
  /** Handed to a worker with this workflow task (undefined: waiting for the next one). */
  attachedTo?: number;
  waiters: (() => void)[];
}

const TYPE = 'type.googleapis.com/temporal.api.update.v1.';

/** The outcome Temporal gives an accepted update whose workflow closed before it completed. */
const COMPLETED_BEFORE_UPDATE: IFailure = {
  message: 'Workflow Update failed because the Workflow completed before the Update completed.',
  source: 'Server',
  applicationFailureInfo: { type: 'AcceptedUpdateCompletedWorkflow', nonRetryable: true },
};

function wake(u: PendingUpdate): void {
  const ws = u.waiters;
  u.waiters = [];
  for (const w of ws) w();
}

/** What the history already says about an update (after a restart, or once it is done). */
function fromHistory(run: Run, id: string): { stage: number; outcome?: Outcome } | undefined {
  let stage = 0;
  let outcome: Outcome | undefined;
  for (const e of run.events) {
    if (e.workflowExecutionUpdateAcceptedEventAttributes?.protocolInstanceId === id) stage = Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED;
    const c = e.workflowExecutionUpdateCompletedEventAttributes;
    if (c?.meta?.updateId === id) {
      stage = Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED;
      outcome = c.outcome ?? undefined;
    }
  }
  return stage ? { stage, outcome } : undefined;
}

/** Admits an update (or finds the one with the same id) and waits for the requested stage. */
export async function updateWorkflow(
  engine: Engine,
  run: Run,
  request: api.update.v1.IRequest,
  waitStage: number,
  timeoutMs: number,
): Promise<{ stage: number; outcome?: Outcome; id: string }> {
  if (!request.input?.name) throw invalidArgument('Update name is not set on request.');
  const id = request.meta?.updateId || randomUUID();
  const known = run.updates.get(id) ?? fromHistory(run, id);
  if (!known) {
    if (!run.running) throw notFound('workflow execution already completed');
    const u: PendingUpdate = {
      id,
      request: { ...request, meta: { ...request.meta, updateId: id } },
      stage: Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED,
      waiters: [],
    };
    run.updates.set(id, u);
    // An update ends a start delay: its workflow task goes out now (as in Temporal).
    await engine.run((tx) => engine.ensureWft(tx, run, true));
  }
  return { ...(await waitFor(run, id, waitStage, timeoutMs, () => engine.isClosed)), id };
}

export async function waitFor(
  run: Run,
  id: string,
  waitStage: number,
  timeoutMs: number,
  stopped: () => boolean = () => false,
): Promise<{ stage: number; outcome?: Outcome }> {
  const want = Math.max(waitStage || Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED, Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const u = run.updates.get(id);
    const state = u ?? fromHistory(run, id);
    if (!state) throw notFound(`update ${id} not found`);
    if (!run.running && state.stage < Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED) {
      // The run closed first: an accepted update fails (the caller expects an outcome, not an
      // error); one never accepted is gone, as in Temporal's update registry.
      if (state.stage < Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED) throw notFound('workflow update was aborted by closing workflow');
      return { stage: Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED, outcome: { failure: COMPLETED_BEFORE_UPDATE } };
    }
    if (state.stage >= want) return { stage: state.stage, outcome: state.outcome };
    const left = end - Date.now();
    if (left <= 0 || !u || stopped()) return { stage: state.stage, outcome: state.outcome };
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, left);
      u.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}

/** Protocol messages for a workflow task being dispatched (sequenced just before its start). */
export function attachUpdates(run: Run, sid: number, startedId: number): Message[] {
  const out: Message[] = [];
  for (const u of run.updates.values()) {
    if (u.stage !== Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED || u.attachedTo !== undefined) continue;
    u.attachedTo = sid;
    out.push({
      id: `${u.id}/request`,
      protocolInstanceId: u.id,
      eventId: L(startedId - 1),
      body: { type_url: `${TYPE}Request`, value: api.update.v1.Request.encode(u.request).finish() },
    });
  }
  return out;
}

/** Requests delivered with a task that did not settle them go out with the next one. */
export function requeueUpdates(engine: Engine, tx: Tx, run: Run, sid: number): void {
  let pending = false;
  for (const u of run.updates.values()) {
    if (u.attachedTo === sid && u.stage === Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED) u.attachedTo = undefined;
    if (u.attachedTo === undefined) pending = true;
  }
  if (pending) engine.ensureWft(tx, run);
}

/** Applies rejections at once; returns a lookup for the PROTOCOL_MESSAGE commands. */
export function incomingMessages(tx: Tx, run: Run, messages: Message[]): Map<string, Message> {
  const byId = new Map<string, Message>();
  for (const m of messages) {
    if (m.id) byId.set(m.id, m);
    if (m.body?.type_url === `${TYPE}Rejection`) {
      const rej = api.update.v1.Rejection.decode(m.body.value ?? new Uint8Array());
      settle(tx, run, m.protocolInstanceId ?? '', { failure: rej.failure as IFailure });
    }
  }
  return byId;
}

function settle(tx: Tx, run: Run, id: string, outcome: Outcome): void {
  const u = run.updates.get(id);
  if (!u) return;
  u.stage = Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED;
  u.outcome = outcome;
  tx.after.push(() => {
    wake(u);
    // Kept a while so callers polling for the outcome of a rejection still find it.
    setTimeout(() => run.updates.delete(id), 60_000).unref();
  });
}

/** A PROTOCOL_MESSAGE command: records the acceptance or the response it points at. */
export function applyProtocolMessage(engine: Engine, tx: Tx, run: Run, m: Message | undefined): void {
  if (!m?.body?.value) return;
  const id = m.protocolInstanceId ?? '';
  if (m.body.type_url === `${TYPE}Acceptance`) {
    const acc = api.update.v1.Acceptance.decode(m.body.value);
    const eventId = engine.add(tx, run, 'WorkflowExecutionUpdateAccepted', {
      protocolInstanceId: id,
      acceptedRequestMessageId: acc.acceptedRequestMessageId,
      acceptedRequestSequencingEventId: acc.acceptedRequestSequencingEventId,
      acceptedRequest: acc.acceptedRequest,
    });
    const u = run.updates.get(id);
    if (u) {
      u.stage = Stage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED;
      u.acceptedEventId = eventId;
      tx.after.push(() => wake(u));
    }
  } else if (m.body.type_url === `${TYPE}Response`) {
    const res = api.update.v1.Response.decode(m.body.value);
    let acceptedEventId = run.updates.get(id)?.acceptedEventId ?? 0;
    if (!acceptedEventId) {
      const e = run.events.find((x) => x.workflowExecutionUpdateAcceptedEventAttributes?.protocolInstanceId === id);
      acceptedEventId = e ? Number(e.eventId) : 0;
    }
    engine.add(tx, run, 'WorkflowExecutionUpdateCompleted', { meta: res.meta, acceptedEventId, outcome: res.outcome });
    settle(tx, run, id, res.outcome ?? {});
  }
}

/** The run closed: anyone waiting on an unfinished update gets an answer now. */
export function closeUpdates(run: Run): void {
  for (const u of run.updates.values()) wake(u);
}
