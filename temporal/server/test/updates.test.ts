/** Workflow updates: accepted and completed, rejected by the validator, failed by the handler, deduplicated. */
import { WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
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

test('updates are accepted, completed and recorded in history', async () => {
  const h = await env.client.workflow.start(wf.updatable, { taskQueue: env.taskQueue, workflowId: wid('upd') });
  expect(await h.executeUpdate(wf.incrementUpdate, { args: [2] })).toBe(2);
  const started = await h.startUpdate(wf.incrementUpdate, { args: [3], waitForStage: WorkflowUpdateStage.ACCEPTED });
  expect(await started.result()).toBe(5);
  await h.signal(wf.finishSignal);
  expect(await h.result()).toBe(5);
  const types = (await h.fetchHistory()).events!.map((e) => e.eventType);
  expect(types.filter((t) => t === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)).toHaveLength(2);
  expect(types.filter((t) => t === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED)).toHaveLength(2);
});

test('validator rejection and handler failure', async () => {
  const h = await env.client.workflow.start(wf.updatable, { taskQueue: env.taskQueue, workflowId: wid('upd-err') });
  await expect(h.executeUpdate(wf.incrementUpdate, { args: [13] })).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
  await expect(h.executeUpdate(wf.incrementUpdate, { args: [-1] })).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
  expect(await h.executeUpdate(wf.incrementUpdate, { args: [4] })).toBe(4);
  const events = (await h.fetchHistory()).events!;
  // The rejected update leaves no trace; the failed one was accepted and completed with a failure.
  expect(events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)).toHaveLength(2);
  await h.signal(wf.finishSignal);
  expect(await h.result()).toBe(4);
});

test('an update id is applied once', async () => {
  const h = await env.client.workflow.start(wf.updatable, { taskQueue: env.taskQueue, workflowId: wid('upd-dedupe') });
  const updateId = wid('u');
  expect(await h.executeUpdate(wf.incrementUpdate, { args: [7], updateId })).toBe(7);
  expect(await h.executeUpdate(wf.incrementUpdate, { args: [7], updateId })).toBe(7);
  await h.signal(wf.finishSignal);
  expect(await h.result()).toBe(7);
});

test('update on a closed workflow is refused', async () => {
  const h = await env.client.workflow.start(wf.updatable, { taskQueue: env.taskQueue, workflowId: wid('upd-closed') });
  await h.signal(wf.finishSignal);
  await h.result();
  await expect(h.executeUpdate(wf.incrementUpdate, { args: [1] })).rejects.toThrow();
});
