/**
 * How a Temporal server hands out and settles work, where the official SDK's own integration
 * tests found the embedded server different: an accepted update outliving its workflow, what
 * ends a start delay, queries before the first workflow task, eager activities. Also run against
 * a real server with TEMPORAL_ADDRESS.
 */
import { randomUUID } from 'crypto';
import { status } from '@grpc/grpc-js';
import Long from 'long';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Env, setup, wid } from './helpers';
import * as wf from './workflows';

const EventType = temporal.api.enums.v1.EventType;
let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(async () => {
  await env?.close();
});

test('an accepted update whose workflow completes fails with AcceptedUpdateCompletedWorkflow', async () => {
  const h = await env.client.workflow.start(wf.completesDuringUpdate, { taskQueue: env.taskQueue, workflowId: wid('upd-outlived') });
  const updateId = wid('u');
  const expectCompletedFirst = (err: unknown): void => {
    expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = (err as WorkflowUpdateFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'AcceptedUpdateCompletedWorkflow', message: 'Workflow Update failed because the Workflow completed before the Update completed.' });
  };
  expectCompletedFirst(await h.executeUpdate(wf.stuckUpdate, { updateId }).catch((e: unknown) => e));
  expect(await h.result()).toBe('completed');
  // Asked again once the workflow is closed (a poll for the outcome): the same failure.
  expectCompletedFirst(await h.getUpdateHandle(updateId).result().catch((e: unknown) => e));
}, 20_000);

test('an update ends the start delay and rides on the first workflow task', async () => {
  const h = await env.client.workflow.start(wf.updateInFirstTask, { taskQueue: env.taskQueue, workflowId: wid('upd-delay'), startDelay: '1 day' });
  await h.executeUpdate(wf.mutateUpdate);
  expect(await h.result()).toBe('mutated by update');
}, 15_000);

test('a signal leaves the start delay alone; a signal-with-start ends it', async () => {
  const h = await env.client.workflow.start(wf.firstSignalWins, { taskQueue: env.taskQueue, workflowId: wid('sig-delay'), startDelay: '1 day' });
  await h.signal(wf.addSignal, 2);
  const types = (await h.fetchHistory()).events!.map((e) => e.eventType);
  expect(types).toEqual([EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED]);
  await env.client.workflow.signalWithStart(wf.firstSignalWins, {
    taskQueue: env.taskQueue,
    workflowId: h.workflowId,
    signal: wf.addSignal,
    signalArgs: [3],
    startDelay: '1 day',
  });
  expect(await h.result()).toBe(5);
}, 15_000);

test('a query before any workflow task ran is not ready (not sent to a worker)', async () => {
  const h = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('query-delay'), startDelay: '1 day' });
  const early = await h.query(wf.totalQuery).catch((e: { cause?: unknown }) => e.cause);
  expect(early).toMatchObject({ code: status.FAILED_PRECONDITION, details: 'Workflow task is not scheduled yet.' });
  await h.terminate();
  const closed = await h.query(wf.totalQuery).catch((e: { cause?: unknown }) => e.cause);
  expect(closed).toMatchObject({ code: status.FAILED_PRECONDITION, details: 'Workflow execution closed before WorkflowTaskStarted event' });
}, 15_000);

test('an activity returned eagerly is not also handed to a poller', async () => {
  // No SDK worker polls this queue: the test is the worker, so it sees exactly who gets the task.
  const taskQueue = `eager-${randomUUID()}`;
  const namespace = 'default';
  const ws = env.client.workflowService;
  const h = await env.client.workflow.start('rawWorkflow', { taskQueue, workflowId: wid('eager') });
  // Long polls need a deadline (a real server refuses them without one).
  const task = await env.client.connection.withDeadline(Date.now() + 10_000, () =>
    ws.pollWorkflowTaskQueue({ namespace, taskQueue: { name: taskQueue }, identity: 'eager-worker' }),
  );
  const poll = env.client.connection
    .withDeadline(Date.now() + 4000, () => ws.pollActivityTaskQueue({ namespace, taskQueue: { name: taskQueue }, identity: 'other-poller' }))
    .catch(() => ({ taskToken: undefined }));
  await new Promise((r) => setTimeout(r, 300)); // the poll is waiting before the activity exists
  const done = await ws.respondWorkflowTaskCompleted({
    namespace,
    taskToken: task.taskToken,
    identity: 'eager-worker',
    commands: [
      {
        commandType: temporal.api.enums.v1.CommandType.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
        scheduleActivityTaskCommandAttributes: {
          activityId: 'eager-1',
          activityType: { name: 'greet' },
          taskQueue: { name: taskQueue },
          startToCloseTimeout: { seconds: Long.fromNumber(30) },
          requestEagerExecution: true,
        },
      },
    ],
  });
  expect(done.activityTasks?.map((t) => t.activityId)).toEqual(['eager-1']);
  expect((await poll).taskToken?.length ?? 0).toBe(0);
  await h.terminate();
});
