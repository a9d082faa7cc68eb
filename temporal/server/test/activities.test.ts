/** Activities: server-side retries, non-retryable failures, the four timeouts, heartbeats, cancellation, async completion. */
import { temporal } from '@temporalio/proto';
import { ActivityNotFoundError } from '@temporalio/client';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';
import { attempts } from './activities';
import { ApplicationFailure } from '@temporalio/common';

const RetryState = temporal.api.enums.v1.RetryState;
let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(async () => {
  await env?.close();
});

test('failed attempts are retried by the server with backoff; retries stay out of history', async () => {
  const key = wid('flaky');
  const h = await env.client.workflow.start(wf.activityRetries, { taskQueue: env.taskQueue, workflowId: key, args: [2, key] });
  expect(await h.result()).toBe(3); // the third attempt succeeded
  expect(attempts.get(key)).toBe(3);
  const events = (await h.fetchHistory()).events!;
  const started = events.filter((e) => e.activityTaskStartedEventAttributes);
  expect(started).toHaveLength(1);
  expect(started[0].activityTaskStartedEventAttributes!.attempt).toBe(3);
  expect(started[0].activityTaskStartedEventAttributes!.lastFailure?.message).toBe('attempt 2 failed');
});

test('retries stop at maximum attempts', async () => {
  const key = wid('exhaust');
  const h = await env.client.workflow.start(wf.activityRetries, { taskQueue: env.taskQueue, workflowId: key, args: [10, key] });
  await expect(h.result()).rejects.toThrow();
  expect(attempts.get(key)).toBe(3);
  const failed = (await h.fetchHistory()).events!.find((e) => e.activityTaskFailedEventAttributes);
  expect(failed?.activityTaskFailedEventAttributes?.retryState).toBe(RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED);
});

test('non-retryable failures are not retried', async () => {
  const key = wid('nonretry');
  const r = await env.client.workflow.execute(wf.activityNonRetryable, { taskQueue: env.taskQueue, workflowId: key, args: [key] });
  expect(r).toBe("NON_RETRYABLE_FAILURE:Fatal");
  expect(attempts.get(key)).toBe(1);
});

test.each([
  ['startToClose', 'START_TO_CLOSE'],
  ['heartbeat', 'HEARTBEAT'],
  ['scheduleToClose', 'SCHEDULE_TO_CLOSE'],
  ['scheduleToStart', 'SCHEDULE_TO_START'],
])('%s timeout', async (kind, type) => {
  const r = await env.client.workflow.execute(wf.activityTimeouts, { taskQueue: env.taskQueue, workflowId: wid(kind), args: [kind] });
  expect(r).toBe(`TimeoutFailure:${type}`);
});

test('heartbeat details survive into the retry', async () => {
  const r = await env.client.workflow.execute(wf.heartbeatDetails, { taskQueue: env.taskQueue, workflowId: wid('hb') });
  // Attempt 2 resumed at step 2 (the last heartbeat of attempt 1) and went on to step 5.
  expect(r).toBe(252);
});

test('cancelling a running activity delivers the cancellation through its heartbeat', async () => {
  const h = await env.client.workflow.start(wf.cancelActivity, { taskQueue: env.taskQueue, workflowId: wid('actcancel') });
  expect(await h.result()).toBe('cancelled');
  const events = (await h.fetchHistory()).events!;
  expect(events.some((e) => e.activityTaskCancelRequestedEventAttributes)).toBe(true);
});

test('pending activity shows in describe; completion by id', async () => {
  const h = await env.client.workflow.start(wf.activityTimeouts, { taskQueue: env.taskQueue, workflowId: wid('byid'), args: ['scheduleToStartLong'] });
  const d = await waitFor(async () => {
    const x = await h.describe();
    return x.raw.pendingActivities?.length ? x : undefined;
  });
  const activityId = d.raw.pendingActivities![0].activityId!;
  expect(d.raw.pendingActivities![0].activityType?.name).toBe('slow');
  await env.client.activity.complete({ workflowId: h.workflowId, activityId }, 'done by id');
  expect(await h.result()).toBe('done by id');
});

test('heartbeat, failure and cancellation by id need a started attempt (async completion client)', async () => {
  // As on a real Temporal server: of the by-id calls, only completion may settle an attempt no
  // worker started (the test above); the others answer NOT_FOUND.
  const waiting = await env.client.workflow.start(wf.activityTimeouts, { taskQueue: env.taskQueue, workflowId: wid('byid-unstarted'), args: ['scheduleToStartLong'] });
  const pending = await waitFor(async () => (await waiting.describe()).raw.pendingActivities?.[0]);
  const unstarted = { workflowId: waiting.workflowId, activityId: pending.activityId! };
  await expect(env.client.activity.heartbeat(unstarted, 'progress-1')).rejects.toBeInstanceOf(ActivityNotFoundError);
  await expect(env.client.activity.fail(unstarted, ApplicationFailure.nonRetryable('gave up'))).rejects.toBeInstanceOf(ActivityNotFoundError);
  await expect(env.client.activity.reportCancellation(unstarted)).rejects.toBeInstanceOf(ActivityNotFoundError);
  await waiting.terminate();

  // Started by the worker, then left to be finished from outside.
  const h = await env.client.workflow.start(wf.completedFromOutside, { taskQueue: env.taskQueue, workflowId: wid('byid-started') });
  const started = await waitFor(async () => {
    const a = (await h.describe()).raw.pendingActivities?.[0];
    return a?.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED ? a : undefined;
  });
  const id = { workflowId: h.workflowId, activityId: started.activityId! };
  await env.client.activity.heartbeat(id, 'progress-1');
  await waitFor(async () => ((await h.describe()).raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.length ?? 0) > 0);
  await env.client.activity.fail(id, ApplicationFailure.nonRetryable('gave up', 'External'));
  expect(await h.result()).toBe('External:gave up');
});
