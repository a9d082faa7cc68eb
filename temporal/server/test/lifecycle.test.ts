/** Start policies, timeouts, memo/search attributes, cancel, terminate, continue-as-new, history. */
import { randomUUID } from 'crypto';
import * as grpc from '@grpc/grpc-js';
import { WorkflowFailedError, WorkflowNotFoundError, QueryNotRegisteredError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, CancelledFailure, TerminatedFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

const EventType = temporal.api.enums.v1.EventType;
type HistoryResponse = { history?: { events?: { eventId?: unknown }[] | null } | null; nextPageToken?: Uint8Array | null };
let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(async () => {
  await env?.close();
});

test('workflow id reuse policies', async () => {
  const workflowId = wid('reuse');
  const opts = { taskQueue: env.taskQueue, workflowId, args: ['a'] as [string] };
  await env.client.workflow.execute(wf.hello, opts);
  await expect(env.client.workflow.start(wf.hello, { ...opts, workflowIdReusePolicy: 'REJECT_DUPLICATE' })).rejects.toBeInstanceOf(
    WorkflowExecutionAlreadyStartedError,
  );
  await expect(
    env.client.workflow.start(wf.hello, { ...opts, workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' }),
  ).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
  expect(await env.client.workflow.execute(wf.hello, { ...opts, workflowIdReusePolicy: 'ALLOW_DUPLICATE' })).toBe('hello a');
});

test('workflow id conflict policies', async () => {
  const workflowId = wid('conflict');
  const opts = { taskQueue: env.taskQueue, workflowId };
  const first = await env.client.workflow.start(wf.waitForever, opts);
  await expect(env.client.workflow.start(wf.waitForever, opts)).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
  const same = await env.client.workflow.start(wf.waitForever, { ...opts, workflowIdConflictPolicy: 'USE_EXISTING' });
  expect(same.firstExecutionRunId).toBe(first.firstExecutionRunId);
  const replaced = await env.client.workflow.start(wf.waitForever, { ...opts, workflowIdConflictPolicy: 'TERMINATE_EXISTING' });
  expect(replaced.firstExecutionRunId).not.toBe(first.firstExecutionRunId);
  const old = await env.client.workflow.getHandle(workflowId, first.firstExecutionRunId).describe();
  expect(old.status.name).toBe('TERMINATED');
  await replaced.terminate('done');
});

test('start request id dedupe', async () => {
  const workflowId = wid('dedupe');
  const requestId = randomUUID();
  const req = {
    namespace: 'default',
    workflowId,
    workflowType: { name: 'waitForever' },
    taskQueue: { name: env.taskQueue },
    requestId,
  };
  const a = await env.client.workflowService.startWorkflowExecution(req);
  const b = await env.client.workflowService.startWorkflowExecution(req);
  expect(b.runId).toBe(a.runId);
  await env.client.workflow.getHandle(workflowId).terminate();
});

test('execution and run timeouts', async () => {
  const a = await env.client.workflow.start(wf.waitForever, { taskQueue: env.taskQueue, workflowId: wid('exec-to'), workflowExecutionTimeout: '1s' });
  const b = await env.client.workflow.start(wf.waitForever, { taskQueue: env.taskQueue, workflowId: wid('run-to'), workflowRunTimeout: '1s' });
  for (const h of [a, b]) {
    const err = await h.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((await h.describe()).status.name).toBe('TIMED_OUT');
  }
});

test('memo, search attributes and their upserts', async () => {
  const h = await env.client.workflow.start(wf.upserts, {
    taskQueue: env.taskQueue,
    workflowId: wid('memo'),
    memo: { owner: 'alice', n: 7 },
    searchAttributes: { CustomKeywordField: ['before'] },
  });
  const d1 = await h.describe();
  expect(d1.memo).toMatchObject({ owner: 'alice', n: 7 });
  expect(await h.result()).toBe('ok');
  const d2 = await h.describe();
  expect(d2.memo).toMatchObject({ owner: 'alice', note: 'updated' });
  expect(d2.searchAttributes.CustomKeywordField).toEqual(['after']);
});

test('signal-with-start starts once, then signals', async () => {
  const workflowId = wid('sws');
  const opts = { taskQueue: env.taskQueue, workflowId, signal: wf.addSignal };
  const h1 = await env.client.workflow.signalWithStart(wf.accumulator, { ...opts, signalArgs: [4] });
  const h2 = await env.client.workflow.signalWithStart(wf.accumulator, { ...opts, signalArgs: [6] });
  expect(h2.signaledRunId).toBe(h1.signaledRunId);
  await waitFor(async () => (await h1.query(wf.totalQuery)) === 10);
  await h1.signal(wf.finishSignal);
  expect(await h1.result()).toBe(10);
});

test('cancellation request runs cleanup and cancels the workflow', async () => {
  const h = await env.client.workflow.start(wf.cancellable, { taskQueue: env.taskQueue, workflowId: wid('cancel') });
  await waitFor(async () => (await h.fetchHistory()).events!.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
  await h.cancel();
  const err = await h.result().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
  const events = (await h.fetchHistory()).events!;
  expect(events.some((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)).toBe(true);
  expect((await h.describe()).status.name).toBe('CANCELLED');
});

test('terminate', async () => {
  const h = await env.client.workflow.start(wf.waitForever, { taskQueue: env.taskQueue, workflowId: wid('term') });
  await h.terminate('enough');
  const err = await h.result().catch((e: unknown) => e);
  expect((err as WorkflowFailedError).cause).toBeInstanceOf(TerminatedFailure);
  expect((await h.describe()).status.name).toBe('TERMINATED');
  await expect(h.terminate()).rejects.toBeInstanceOf(WorkflowNotFoundError);
});

test('failed workflow reports its failure', async () => {
  const h = await env.client.workflow.start(wf.failing, { taskQueue: env.taskQueue, workflowId: wid('fail'), args: ['boom'] });
  const err = await h.result().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect((err as WorkflowFailedError).cause?.message).toBe('boom');
  expect((await h.describe()).status.name).toBe('FAILED');
});

test('continue-as-new: the client follows the run chain', async () => {
  const h = await env.client.workflow.start(wf.countdown, { taskQueue: env.taskQueue, workflowId: wid('can'), args: [3] });
  expect(await h.result()).toEqual([3, 2, 1]);
  const first = await env.client.workflow.getHandle(h.workflowId, h.firstExecutionRunId).describe();
  expect(first.status.name).toBe('CONTINUED_AS_NEW');
  const latest = await env.client.workflow.getHandle(h.workflowId).describe();
  expect(latest.status.name).toBe('COMPLETED');
  expect(latest.runId).not.toBe(h.firstExecutionRunId);
});

test('history: paging, reverse, long poll', async () => {
  const h = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('hist') });
  const execution = { workflowId: h.workflowId };
  await waitFor(async () => (await h.fetchHistory()).events!.length >= 4);
  // Long poll: a request for events past the end returns when the next one arrives.
  const first = await env.client.workflowService.getWorkflowExecutionHistory({ namespace: 'default', execution, waitNewEvent: true });
  const seen = first.history!.events!.length;
  expect(first.nextPageToken?.length).toBeGreaterThan(0);
  const polled = env.client.workflowService.getWorkflowExecutionHistory({
    namespace: 'default',
    execution,
    waitNewEvent: true,
    nextPageToken: first.nextPageToken,
  });
  await new Promise((r) => setTimeout(r, 200));
  await h.signal(wf.addSignal, 1);
  const got = (await polled).history!.events!;
  expect(got.length).toBeGreaterThan(0);
  expect(Number(got[0].eventId)).toBe(seen + 1);
  expect(got[0].eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
  await h.signal(wf.finishSignal);
  await h.result();
  const full = (await h.fetchHistory()).events!;
  const paged: number[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const res: HistoryResponse = await env.client.workflowService.getWorkflowExecutionHistory({ namespace: 'default', execution, maximumPageSize: 3, nextPageToken });
    paged.push(...res.history!.events!.map((e) => Number(e.eventId)));
    nextPageToken = res.nextPageToken?.length ? res.nextPageToken : undefined;
  } while (nextPageToken);
  expect(paged).toEqual(full.map((e) => Number(e.eventId)));
  const reversed: number[] = [];
  nextPageToken = undefined;
  do {
    const res: HistoryResponse = await env.client.workflowService.getWorkflowExecutionHistoryReverse({ namespace: 'default', execution, maximumPageSize: 4, nextPageToken });
    reversed.push(...res.history!.events!.map((e) => Number(e.eventId)));
    nextPageToken = res.nextPageToken?.length ? res.nextPageToken : undefined;
  } while (nextPageToken);
  expect(reversed).toEqual(full.map((e) => Number(e.eventId)).reverse());
  expect(full[full.length - 1].eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
});

test('query errors: failing handler and unknown query type', async () => {
  const h = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('qerr') });
  await expect(h.query(wf.failingQuery)).rejects.toThrow(/query handler failed/);
  await expect(h.query('no-such-query')).rejects.toBeInstanceOf(QueryNotRegisteredError);
  await h.terminate();
});

test('unknown workflow is NOT_FOUND', async () => {
  await expect(env.client.workflow.getHandle(wid('missing')).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
});

test('a workflow task failure is recorded and retried, the workflow stays open', async () => {
  const h = await env.client.workflow.start(wf.workflowTaskFailure, { taskQueue: env.taskQueue, workflowId: wid('wft-fail'), workflowTaskTimeout: '1s' });
  await waitFor(async () => (await h.fetchHistory()).events!.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED));
  expect((await h.describe()).status.name).toBe('RUNNING');
  await h.terminate();
});

test('unimplemented and malformed calls are refused, not crashing the server', async () => {
  const raw = new grpc.Client(env.address, grpc.credentials.createInsecure());
  const call = (method: string, body: Buffer) =>
    new Promise<grpc.ServiceError | undefined>((resolve) =>
      raw.makeUnaryRequest(
        `/temporal.api.workflowservice.v1.WorkflowService/${method}`,
        (b: Buffer) => b,
        (b: Buffer) => b,
        body,
        (err) => resolve(err ?? undefined),
      ),
    );
  const garbage = await call('StartWorkflowExecution', Buffer.from([0xff, 0xff, 0xff, 0x0f, 0x01]));
  const unimplemented = await call('PauseActivity', Buffer.alloc(0));
  raw.close();
  // Garbage task tokens are refused as invalid arguments.
  const bad = Buffer.from('not a token');
  for (const call of [
    () => env.client.workflowService.respondWorkflowTaskCompleted({ namespace: 'default', taskToken: bad }),
    () => env.client.workflowService.respondActivityTaskCompleted({ namespace: 'default', taskToken: bad }),
    () => env.client.workflowService.recordActivityTaskHeartbeat({ namespace: 'default', taskToken: bad }),
  ]) {
    const err = await call().catch((e: grpc.ServiceError) => e);
    expect((err as grpc.ServiceError).code).toBe(grpc.status.INVALID_ARGUMENT);
  }
  expect(garbage).toBeDefined();
  if (env.embedded) {
    expect(garbage!.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(unimplemented!.code).toBe(grpc.status.UNIMPLEMENTED);
  }
  // The server still serves.
  expect(await env.client.workflow.execute(wf.hello, { taskQueue: env.taskQueue, workflowId: wid('after'), args: ['x'] })).toBe('hello x');
});

test('signals racing with completion: every acknowledged signal is seen by the workflow', async () => {
  for (let round = 0; round < 3; round++) {
    const h = await env.client.workflow.start(wf.firstSignalWins, { taskQueue: env.taskQueue, workflowId: wid('race') });
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, (_, i) => h.signal(wf.addSignal, 1 << i).then(() => 1 << i, () => 0)),
    );
    const acknowledged = outcomes.reduce((a, b) => a | b, 0);
    expect(await h.result()).toBe(acknowledged);
  }
});

test('query reject condition NOT_OPEN rejects queries on closed workflows', async () => {
  const workflowId = wid('reject');
  await env.client.workflow.execute(wf.hello, { taskQueue: env.taskQueue, workflowId, args: ['x'] });
  const res = await env.client.workflowService.queryWorkflow({
    namespace: 'default',
    execution: { workflowId },
    query: { queryType: 'anything' },
    queryRejectCondition: temporal.api.enums.v1.QueryRejectCondition.QUERY_REJECT_CONDITION_NOT_OPEN,
  });
  expect(res.queryRejected?.status).toBe(temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
});

test('a retried signal (same request id) is delivered once', async () => {
  const h = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('sigdedupe') });
  const req = {
    namespace: 'default',
    workflowExecution: { workflowId: h.workflowId },
    signalName: 'add',
    input: { payloads: [{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('4') }] },
    requestId: randomUUID(),
  };
  await env.client.workflowService.signalWorkflowExecution(req);
  await env.client.workflowService.signalWorkflowExecution(req);
  await waitFor(async () => (await h.query(wf.totalQuery)) === 4);
  await h.signal(wf.finishSignal);
  expect(await h.result()).toBe(4);
});
