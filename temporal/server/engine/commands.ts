/**
 * Applies the commands of a completed workflow task, in order, to the run's history and state.
 * Anything that touches another run (children, external signals and cancels) is carried out
 * by transfers.ts in a follow-up transaction, as in Temporal.
 */
import { api, durMs, enums, ICommand, ISearchAttributes, msDur } from '../proto';
import { Engine, Tx, encodeFields } from './engine';
import { typedSearchAttributes } from './search-attributes';
import { Run } from './state';
import { scheduleActivity, cancelActivity } from './activities';
import { applyProtocolMessage } from './updates';
import { runTransfer } from './transfers';
import { cronNext, inheritedFamily, retryRun, startRun } from './starts';
import { randomUUID } from 'crypto';
import { decodeEvent } from '../proto';

const C = enums.CommandType;
const Cause = enums.WorkflowTaskFailedCause;

/**
 * Rejects commands the server cannot carry out; the whole task then fails (and is retried).
 * `unregistered` names a search attribute the namespace does not know (search-attributes.ts).
 */
export function validateCommands(commands: ICommand[], unregistered: (sa: ISearchAttributes | null | undefined) => string | undefined): { cause: number; message: string } | undefined {
  for (const c of commands) {
    const name = enumName(c.commandType ?? 0);
    // Every command carries its attributes in the field named after its type.
    const field = name
      .replace(/^COMMAND_TYPE_/, '')
      .toLowerCase()
      .replace(/_([a-z])/g, (_, x: string) => x.toUpperCase());
    if (name && !(c as Record<string, unknown>)[`${field}CommandAttributes`]) {
      return { cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND, message: `${name} is missing its attributes.` };
    }
    // As in Temporal: an attribute the namespace does not know fails the task, whichever command sets it.
    const sa =
      c.upsertWorkflowSearchAttributesCommandAttributes?.searchAttributes ??
      c.continueAsNewWorkflowExecutionCommandAttributes?.searchAttributes ??
      c.startChildWorkflowExecutionCommandAttributes?.searchAttributes;
    const unknown = unregistered(sa);
    if (unknown !== undefined) return { cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES, message: `BadSearchAttributes: search attribute ${unknown} is not defined` };
    switch (c.commandType) {
      case C.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK: {
        const a = c.scheduleActivityTaskCommandAttributes;
        if (!a?.activityId || !a.activityType?.name) {
          return { cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_ACTIVITY_ATTRIBUTES, message: 'ActivityId and ActivityType are required.' };
        }
        if (!durMs(a.startToCloseTimeout) && !durMs(a.scheduleToCloseTimeout)) {
          return {
            cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_ACTIVITY_ATTRIBUTES,
            message: 'A valid StartToClose or ScheduleToCloseTimeout is not set on command.',
          };
        }
        break;
      }
      case C.COMMAND_TYPE_START_TIMER:
        if (!c.startTimerCommandAttributes?.timerId || !durMs(c.startTimerCommandAttributes.startToFireTimeout)) {
          return { cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_START_TIMER_ATTRIBUTES, message: 'A valid timer id and a positive StartToFireTimeout are required.' };
        }
        break;
      case C.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION: {
        const a = c.startChildWorkflowExecutionCommandAttributes;
        if (!a?.workflowId || !a.workflowType?.name) {
          return { cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_START_CHILD_EXECUTION_ATTRIBUTES, message: 'WorkflowId and WorkflowType are required.' };
        }
        break;
      }
      case C.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK:
      case C.COMMAND_TYPE_CANCEL_TIMER:
      case C.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:
      case C.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION:
      case C.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION:
      case C.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION:
      case C.COMMAND_TYPE_RECORD_MARKER:
      case C.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
      case C.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION:
      case C.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
      case C.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES:
      case C.COMMAND_TYPE_PROTOCOL_MESSAGE:
        break;
      default:
        return {
          cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND,
          message: `Command type ${c.commandType} is not supported by this server (updates and Nexus are not implemented).`,
        };
    }
  }
  return undefined;
}

function enumName(v: number): string {
  for (const [k, n] of Object.entries(C)) if (n === v) return k;
  return '';
}

export function applyCommands(
  engine: Engine,
  tx: Tx,
  run: Run,
  commands: ICommand[],
  completedId: number,
  identity: string,
  messages: Map<string, api.protocol.v1.IMessage> = new Map(),
): void {
  for (const c of commands) {
    if (!run.running) return; // nothing after a closing command
    // The command's first event (e.g. TimerStarted) carries its user metadata, as in Temporal.
    const eventId = run.s.next;
    switch (c.commandType) {
      case C.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK:
        scheduleActivity(engine, tx, run, c.scheduleActivityTaskCommandAttributes!, completedId);
        break;
      case C.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK:
        cancelActivity(engine, tx, run, Number(c.requestCancelActivityTaskCommandAttributes?.scheduledEventId ?? 0), completedId, identity);
        break;
      case C.COMMAND_TYPE_START_TIMER: {
        const a = c.startTimerCommandAttributes!;
        const sid = engine.add(tx, run, 'TimerStarted', {
          timerId: a.timerId,
          startToFireTimeout: a.startToFireTimeout,
          workflowTaskCompletedEventId: completedId,
        });
        run.s.timers[a.timerId!] = { id: a.timerId!, sid, fireAt: Date.now() + durMs(a.startToFireTimeout)! };
        break;
      }
      case C.COMMAND_TYPE_CANCEL_TIMER:
        cancelTimer(engine, tx, run, c.cancelTimerCommandAttributes?.timerId ?? '', completedId, identity);
        break;
      case C.COMMAND_TYPE_RECORD_MARKER: {
        const a = c.recordMarkerCommandAttributes!;
        engine.add(tx, run, 'MarkerRecorded', {
          markerName: a.markerName,
          details: a.details,
          header: a.header,
          failure: a.failure,
          workflowTaskCompletedEventId: completedId,
        });
        break;
      }
      case C.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: {
        const sa = typedSearchAttributes(engine, run.ns, c.upsertWorkflowSearchAttributesCommandAttributes?.searchAttributes);
        mergeFields(run.s.sa, encodeFields(sa?.indexedFields));
        engine.add(tx, run, 'UpsertWorkflowSearchAttributes', { searchAttributes: sa, workflowTaskCompletedEventId: completedId });
        break;
      }
      case C.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES: {
        const memo = c.modifyWorkflowPropertiesCommandAttributes?.upsertedMemo;
        mergeFields(run.s.memo, encodeFields(memo?.fields));
        engine.add(tx, run, 'WorkflowPropertiesModified', { upsertedMemo: memo, workflowTaskCompletedEventId: completedId });
        break;
      }
      case C.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION: {
        const result = c.completeWorkflowExecutionCommandAttributes?.result;
        engine.close(tx, run, 'Completed', 'WorkflowExecutionCompleted', {
          result,
          workflowTaskCompletedEventId: completedId,
          newExecutionRunId: cronNext(engine, tx, run, { result }),
        });
        break;
      }
      case C.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION: {
        const failure = c.failWorkflowExecutionCommandAttributes?.failure;
        const newRunId = retryRun(engine, tx, run, failure, false) ?? cronNext(engine, tx, run, { failure });
        const R = enums.RetryState;
        engine.close(tx, run, 'Failed', 'WorkflowExecutionFailed', {
          failure,
          retryState: newRunId ? R.RETRY_STATE_IN_PROGRESS : run.s.retry ? R.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED : R.RETRY_STATE_RETRY_POLICY_NOT_SET,
          workflowTaskCompletedEventId: completedId,
          newExecutionRunId: newRunId,
        });
        break;
      }
      case C.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION:
        engine.close(tx, run, 'Canceled', 'WorkflowExecutionCanceled', {
          details: c.cancelWorkflowExecutionCommandAttributes?.details,
          workflowTaskCompletedEventId: completedId,
        });
        break;
      case C.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
        continueAsNew(engine, tx, run, c.continueAsNewWorkflowExecutionCommandAttributes!, completedId, identity);
        break;
      case C.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION:
        startChild(engine, tx, run, c.startChildWorkflowExecutionCommandAttributes!, completedId);
        break;
      case C.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION:
        signalExternal(engine, tx, run, c.signalExternalWorkflowExecutionCommandAttributes!, completedId);
        break;
      case C.COMMAND_TYPE_PROTOCOL_MESSAGE:
        applyProtocolMessage(engine, tx, run, messages.get(c.protocolMessageCommandAttributes?.messageId ?? ''));
        break;
      case C.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION:
        cancelExternal(engine, tx, run, c.requestCancelExternalWorkflowExecutionCommandAttributes!, completedId);
        break;
    }
    if (run.s.next > eventId) engine.annotate(run, eventId, { userMetadata: c.userMetadata, eventGroupMarkers: c.eventGroupMarkers });
  }
}

function mergeFields(into: Record<string, string>, from: Record<string, string>): void {
  for (const [k, v] of Object.entries(from)) {
    // An empty payload (no data) removes the attribute, as in Temporal.
    const p = api.common.v1.Payload.decode(Buffer.from(v, 'base64'));
    if (!p.data || p.data.length === 0 || Buffer.from(p.data).toString() === 'null') delete into[k];
    else into[k] = v;
  }
}

function cancelTimer(engine: Engine, tx: Tx, run: Run, timerId: string, completedId: number, identity: string): void {
  let startedId = run.s.timers[timerId]?.sid;
  if (startedId !== undefined) {
    delete run.s.timers[timerId];
  } else {
    // Fired while this task ran: the fired event is still buffered; the cancel wins.
    const i = run.s.buffered.findIndex((b) => decodeEvent(b).timerFiredEventAttributes?.timerId === timerId);
    if (i < 0) return;
    startedId = Number(decodeEvent(run.s.buffered[i]).timerFiredEventAttributes!.startedEventId);
    run.s.buffered.splice(i, 1);
  }
  engine.add(tx, run, 'TimerCanceled', { timerId, startedEventId: startedId, workflowTaskCompletedEventId: completedId, identity });
}

function continueAsNew(
  engine: Engine,
  tx: Tx,
  run: Run,
  a: api.command.v1.IContinueAsNewWorkflowExecutionCommandAttributes,
  completedId: number,
  identity: string,
): void {
  const started = run.events[0].workflowExecutionStartedEventAttributes!;
  const type = a.workflowType?.name || run.s.type;
  const taskQueue = a.taskQueue?.name || run.s.taskQueue;
  const runTimeoutMs = durMs(a.workflowRunTimeout) ?? run.s.runTimeoutMs;
  const wftTimeoutMs = durMs(a.workflowTaskTimeout) ?? run.s.wftTimeoutMs;
  const next = startRun(engine, tx, run.ns, {
    workflowId: run.s.workflowId,
    type,
    taskQueue,
    input: a.input,
    header: a.header,
    memo: a.memo ?? started.memo,
    sa: a.searchAttributes ?? started.searchAttributes,
    identity,
    requestId: randomUUID(),
    runTimeoutMs,
    execTimeoutMs: run.s.execTimeoutMs,
    execDeadline: run.s.execDeadline,
    wftTimeoutMs,
    retry: a.retryPolicy ?? started.retryPolicy,
    priority: started.priority,
    startDelayMs: durMs(a.backoffStartInterval),
    ...inheritedFamily(run),
    continuedFrom: run.s.runId,
    firstRunId: run.s.firstRunId,
    initiator: a.initiator || enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_WORKFLOW,
    cron: run.s.cron,
    lastCompletionResult: a.lastCompletionResult,
    continuedFailure: a.failure,
  });
  run.s.newRunId = next.s.runId;
  engine.close(tx, run, 'ContinuedAsNew', 'WorkflowExecutionContinuedAsNew', {
    newExecutionRunId: next.s.runId,
    workflowType: { name: type },
    taskQueue: { name: taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    input: a.input,
    workflowRunTimeout: msDur(runTimeoutMs),
    workflowTaskTimeout: msDur(wftTimeoutMs),
    workflowTaskCompletedEventId: completedId,
    backoffStartInterval: a.backoffStartInterval,
    initiator: a.initiator,
    header: a.header,
    memo: a.memo,
    searchAttributes: typedSearchAttributes(engine, run.ns, a.searchAttributes),
  });
}

function startChild(
  engine: Engine,
  tx: Tx,
  run: Run,
  a: api.command.v1.IStartChildWorkflowExecutionCommandAttributes,
  completedId: number,
): void {
  const ns = a.namespace || run.ns;
  const iid = engine.add(tx, run, 'StartChildWorkflowExecutionInitiated', {
    namespace: ns,
    workflowId: a.workflowId,
    workflowType: a.workflowType,
    taskQueue: { name: a.taskQueue?.name || run.s.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    input: a.input,
    workflowExecutionTimeout: a.workflowExecutionTimeout,
    workflowRunTimeout: a.workflowRunTimeout,
    workflowTaskTimeout: a.workflowTaskTimeout,
    parentClosePolicy: a.parentClosePolicy,
    control: a.control,
    workflowTaskCompletedEventId: completedId,
    workflowIdReusePolicy: a.workflowIdReusePolicy,
    retryPolicy: a.retryPolicy,
    cronSchedule: a.cronSchedule,
    header: a.header,
    memo: a.memo,
    searchAttributes: typedSearchAttributes(engine, ns, a.searchAttributes),
    priority: a.priority,
  });
  const policy = a.parentClosePolicy || enums.ParentClosePolicy.PARENT_CLOSE_POLICY_TERMINATE;
  run.s.children[iid] = { iid, ns, workflowId: a.workflowId ?? '', type: a.workflowType?.name ?? '', policy };
  initiate(engine, tx, run, iid);
}

function signalExternal(
  engine: Engine,
  tx: Tx,
  run: Run,
  a: api.command.v1.ISignalExternalWorkflowExecutionCommandAttributes,
  completedId: number,
): void {
  const iid = engine.add(tx, run, 'SignalExternalWorkflowExecutionInitiated', {
    namespace: a.namespace || run.ns,
    workflowExecution: a.execution,
    signalName: a.signalName,
    input: a.input,
    control: a.control,
    childWorkflowOnly: a.childWorkflowOnly,
    header: a.header,
    workflowTaskCompletedEventId: completedId,
  });
  initiate(engine, tx, run, iid);
}

function cancelExternal(
  engine: Engine,
  tx: Tx,
  run: Run,
  a: api.command.v1.IRequestCancelExternalWorkflowExecutionCommandAttributes,
  completedId: number,
): void {
  const iid = engine.add(tx, run, 'RequestCancelExternalWorkflowExecutionInitiated', {
    namespace: a.namespace || run.ns,
    workflowExecution: { workflowId: a.workflowId, runId: a.runId },
    control: a.control,
    childWorkflowOnly: a.childWorkflowOnly,
    reason: a.reason,
    workflowTaskCompletedEventId: completedId,
  });
  initiate(engine, tx, run, iid);
}

/** Records the cross-workflow step as pending (so a restart redoes it) and runs it after commit. */
function initiate(engine: Engine, tx: Tx, run: Run, iid: number): void {
  (run.s.transfers ??= []).push(iid);
  tx.after.push(() => runTransfer(engine, run, iid));
}
