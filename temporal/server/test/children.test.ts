/** Child workflows, parent close policies, external signal/cancel, markers (local activities, patches). */
import { temporal } from '@temporalio/proto';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

const EventType = temporal.api.enums.v1.EventType;
let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(async () => {
  await env?.close();
});

const run = (mode: string) => env.client.workflow.execute(wf.childParent, { taskQueue: env.taskQueue, workflowId: wid(`parent-${mode}`), args: [mode] });

test('child workflow completes and returns its result', async () => {
  expect(await run('complete')).toBe('hello child');
});

test('child workflow failure reaches the parent', async () => {
  expect(await run('fail')).toBe('child failed: child failed');
});

test('starting a child whose id is taken fails in the parent', async () => {
  const taken = await env.client.workflow.start(wf.waitForever, { taskQueue: env.taskQueue, workflowId: wid('taken') });
  expect(await run(`duplicate:${taken.workflowId}`)).toBe('already started');
  await taken.terminate();
});

test('child workflow timeout reaches the parent', async () => {
  expect(await run('timeout')).toBe('child TimeoutFailure');
});

test('parent signals its child', async () => {
  expect(await run('signalChild')).toBe('child total 5');
});

test('child workflow cancellation', async () => {
  expect(await run('cancel')).toBe('child cancelled');
});

test('parent close policy TERMINATE ends the child', async () => {
  const workflowId = wid('parent-term');
  await env.client.workflow.execute(wf.childParent, { taskQueue: env.taskQueue, workflowId, args: ['terminate'] });
  const child = env.client.workflow.getHandle(`${workflowId}-child`);
  await waitFor(async () => (await child.describe()).status.name === 'TERMINATED');
});

test('parent close policy REQUEST_CANCEL cancels the child', async () => {
  const workflowId = wid('parent-reqcancel');
  await env.client.workflow.execute(wf.childParent, { taskQueue: env.taskQueue, workflowId, args: ['requestCancel'] });
  const child = env.client.workflow.getHandle(`${workflowId}-child`);
  await waitFor(async () => (await child.describe()).status.name === 'CANCELLED');
});

test('parent close policy ABANDON leaves the child running', async () => {
  const workflowId = wid('parent-abandon');
  await env.client.workflow.execute(wf.childParent, { taskQueue: env.taskQueue, workflowId, args: ['abandon'] });
  const child = env.client.workflow.getHandle(`${workflowId}-child`);
  await new Promise((r) => setTimeout(r, 300));
  const d = await child.describe();
  expect(d.status.name).toBe('RUNNING');
  expect(d.parentExecution?.workflowId).toBe(workflowId);
  await child.terminate();
});

test('signal an external workflow (and fail on a missing one)', async () => {
  const target = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('sig-target') });
  const r = await env.client.workflow.execute(wf.signaller, { taskQueue: env.taskQueue, workflowId: wid('signaller'), args: [target.workflowId] });
  expect(r).toBe('signalled');
  await waitFor(async () => (await target.query(wf.totalQuery)) === 5);
  await target.signal(wf.finishSignal);
  expect(await target.result()).toBe(5);
});

test('cancel an external workflow', async () => {
  const target = await env.client.workflow.start(wf.cancellable, { taskQueue: env.taskQueue, workflowId: wid('cancel-target') });
  await env.client.workflow.execute(wf.canceller, { taskQueue: env.taskQueue, workflowId: wid('canceller'), args: [target.workflowId] });
  await expect(target.result()).rejects.toThrow();
  expect((await target.describe()).status.name).toBe('CANCELLED');
});

test('local activity and patch markers are recorded', async () => {
  const workflowId = wid('markers');
  expect(await env.client.workflow.execute(wf.markers, { taskQueue: env.taskQueue, workflowId })).toBe('hi local/patched');
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events!;
  const markers = events.filter((e) => e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED).map((e) => e.markerRecordedEventAttributes!.markerName);
  expect(markers).toEqual(expect.arrayContaining(['core_local_activity', 'core_patch']));
});

test('timer cancellation', async () => {
  const workflowId = wid('timer-cancel');
  expect(await env.client.workflow.execute(wf.timerCancel, { taskQueue: env.taskQueue, workflowId })).toBe('timer cancelled');
  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events!;
  expect(events.some((e) => e.eventType === EventType.EVENT_TYPE_TIMER_CANCELED)).toBe(true);
});

test('a local activity outlasting the workflow task timeout completes (workflow task heartbeats)', async () => {
  const r = await env.client.workflow.execute(wf.longLocalActivity, {
    taskQueue: env.taskQueue,
    workflowId: wid('long-la'),
    args: [2500],
    workflowTaskTimeout: '1s',
  });
  expect(r).toBe('slow done');
});
