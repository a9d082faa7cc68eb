/**
 * What a Temporal server keeps and gives back, where the official SDK's own integration tests
 * found the embedded server different: typed search attributes, namespace-not-found details,
 * user metadata, priority, the worker's build id, history size. Also run against a real server
 * with TEMPORAL_ADDRESS (it needs the custom attribute registered, which the test does); both refuse
 * an attribute nobody registered.
 */
import { randomUUID } from 'crypto';
import { Client, NamespaceNotFoundError, ActivityCompletionError } from '@temporalio/client';
import { defaultPayloadConverter, defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Env, setup, wid, waitFor, workflowBundle } from './helpers';
import * as wf from './workflows';

const EventType = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;
const DATETIME = defineSearchAttributeKey('ConformanceDatetime', SearchAttributeType.DATETIME);

let env: Env;
beforeAll(async () => {
  env = await setup();
  await env.client.connection.operatorService
    .addSearchAttributes({ namespace: 'default', searchAttributes: { [DATETIME.name]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME } })
    .catch((err: { code?: number }) => {
      if (err.code !== 6 /* ALREADY_EXISTS */) throw err;
    });
});
afterAll(async () => {
  await env?.close();
});

const summaryOf = (events: Event[], type: number): unknown => {
  const p = events.find((e) => e.eventType === type)?.userMetadata?.summary;
  return p ? defaultPayloadConverter.fromPayload(p) : undefined;
};

test('a Datetime attribute set untyped comes back as a Date (describe, list), typed by its registration', async () => {
  const at = new Date('2026-03-04T05:06:07.089Z');
  const later = new Date('2027-01-02T03:04:05.006Z');
  // The server types payloads the SDK sends without a type (the deprecated untyped option).
  const delayed = await env.client.workflow.start(wf.waitForever, {
    taskQueue: env.taskQueue,
    workflowId: wid('sa-start'),
    searchAttributes: { [DATETIME.name]: [at] },
    startDelay: '1 day',
  });
  const described = await delayed.describe();
  expect(described.searchAttributes[DATETIME.name]).toEqual([at]);
  expect(described.typedSearchAttributes.get(DATETIME)).toEqual(at);
  await delayed.terminate();

  const upserted = await env.client.workflow.start(wf.upsertDatetime, { taskQueue: env.taskQueue, workflowId: wid('sa-upsert'), args: [DATETIME.name, later.toISOString()] });
  await upserted.result();
  expect((await upserted.describe()).typedSearchAttributes.get(DATETIME)).toEqual(later);
  const listed = await waitFor(async () => {
    for await (const w of env.client.workflow.list({ query: `WorkflowId = '${upserted.workflowId}'` })) if (w.typedSearchAttributes.get(DATETIME)) return w;
    return undefined;
  });
  expect(listed.searchAttributes[DATETIME.name]).toEqual([later]);
});

test('a custom attribute nobody registered is refused: the start, and the upsert (its workflow task fails)', async () => {
  const unknown = `Unregistered${randomUUID().slice(0, 8)}`;
  const start = env.client.workflow.start(wf.waitForever, { taskQueue: env.taskQueue, workflowId: wid('sa-unknown'), searchAttributes: { [unknown]: ['x'] } });
  await expect(start).rejects.toMatchObject({
    cause: { code: 3 /* INVALID_ARGUMENT */, details: expect.stringMatching(new RegExp(`no mapping defined for search attribute ${unknown}`)) },
  });

  const h = await env.client.workflow.start(wf.upsertDatetime, { taskQueue: env.taskQueue, workflowId: wid('sa-unknown-upsert'), args: [unknown, new Date().toISOString()] });
  const failed = await waitFor(async () => {
    const { events } = await h.fetchHistory();
    return events?.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
  });
  expect(failed.workflowTaskFailedEventAttributes?.cause).toBe(temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES);
  await h.terminate();
});

test('an unknown namespace is NamespaceNotFound, and is checked before the task token', async () => {
  const elsewhere = new Client({ connection: env.client.connection, namespace: 'no-such-namespace' });
  const start = elsewhere.workflow.start(wf.hello, { taskQueue: env.taskQueue, workflowId: wid('ns'), args: ['x'] });
  await expect(start).rejects.toBeInstanceOf(NamespaceNotFoundError);
  await expect(start).rejects.toMatchObject({ namespace: 'no-such-namespace' });
  await expect(elsewhere.workflow.getHandle('any').describe()).rejects.toBeInstanceOf(NamespaceNotFoundError);
  await expect(elsewhere.activity.complete(new Uint8Array([1]), 'result')).rejects.toBeInstanceOf(NamespaceNotFoundError);
  // In a namespace that exists, the same token is simply malformed.
  await expect(env.client.activity.complete(new Uint8Array([1]), 'result')).rejects.toBeInstanceOf(ActivityCompletionError);
});

test('user metadata is kept on the start, on each command’s event, on the child, and in describe', async () => {
  const h = await env.client.workflow.start(wf.withUserMetadata, {
    taskQueue: env.taskQueue,
    workflowId: wid('metadata'),
    staticSummary: 'the summary',
    staticDetails: 'the details',
  });
  await h.result();
  const d = await h.describe();
  expect([await d.staticSummary(), await d.staticDetails()]).toEqual(['the summary', 'the details']);
  const child = await env.client.workflow.getHandle(`${h.workflowId}-child`).describe();
  expect([await child.staticSummary(), await child.staticDetails()]).toEqual(['child summary', 'child details']);
  const events = (await h.fetchHistory()).events!;
  expect(summaryOf(events, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)).toBe('the summary');
  expect(summaryOf(events, EventType.EVENT_TYPE_TIMER_STARTED)).toBe('timer summary');
  expect(summaryOf(events, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).toBe('activity summary');
  expect(summaryOf(events, EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED)).toBe('child summary');
});

test('workflow and child priority reach the workflow, the history and describe', async () => {
  const priority = { priorityKey: 1, fairnessKey: 'parent', fairnessWeight: 3 };
  // The workflow fails its task unless it sees its priority: a bounded run turns that into a timeout.
  const h = await env.client.workflow.start(wf.prioritized, { taskQueue: env.taskQueue, workflowId: wid('priority'), args: [1, true], priority, workflowExecutionTimeout: '15s' });
  expect(await h.result()).toBe(4);
  const events = (await h.fetchHistory()).events!;
  expect(events[0].workflowExecutionStartedEventAttributes?.priority).toMatchObject(priority);
  const initiated = events.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)!;
  expect(initiated.startChildWorkflowExecutionInitiatedEventAttributes?.priority).toMatchObject({ priorityKey: 4, fairnessKey: 'child', fairnessWeight: 2.5 });
  expect(events.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes?.priority).toMatchObject({ priorityKey: 5 });
  expect((await h.describe()).raw.workflowExecutionInfo?.priority).toMatchObject(priority);
  const child = env.client.workflow.getHandle(`${h.workflowId}-child`);
  expect((await child.fetchHistory()).events![0].workflowExecutionStartedEventAttributes?.priority).toMatchObject({ priorityKey: 4, fairnessKey: 'child' });
});

test('the worker’s build id and deployment name are written into WorkflowTaskCompleted', async () => {
  const completedBy = async (h: { fetchHistory(): Promise<temporal.api.history.v1.IHistory> }) =>
    (await h.fetchHistory()).events!.find((e) => e.workflowTaskCompletedEventAttributes)!.workflowTaskCompletedEventAttributes!;
  const plain = await env.client.workflow.start(wf.hello, { taskQueue: env.taskQueue, workflowId: wid('build'), args: ['build'] });
  await plain.result();
  expect((await completedBy(plain)).workerVersion?.buildId).toMatch(/^@temporalio\/worker@/);

  const taskQueue = `deployment-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: env.address });
  try {
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      workerDeploymentOptions: { useWorkerVersioning: false, version: { buildId: 'build-7', deploymentName: 'deployment-a' } },
    });
    const h = await env.client.workflow.start(wf.hello, { taskQueue, workflowId: wid('deployment'), args: ['deployment'] });
    await worker.runUntil(h.result());
    expect(await completedBy(h)).toMatchObject({ workerVersion: { buildId: 'build-7' }, workerDeploymentName: 'deployment-a' });
  } finally {
    await connection.close();
  }
});

test('history size is the encoded size of the events, not a guess per event', async () => {
  const big = 'x'.repeat(50_000);
  const h = await env.client.workflow.start(wf.hello, { taskQueue: env.taskQueue, workflowId: wid('size'), args: [big] });
  await h.result();
  const events = (await h.fetchHistory()).events!;
  const encoded = events.reduce((n, e) => n + temporal.api.history.v1.HistoryEvent.encode(e).finish().length, 0);
  const { historySize } = await h.describe();
  expect(historySize).toBeGreaterThanOrEqual(encoded * 0.9);
  expect(historySize).toBeLessThanOrEqual(encoded * 1.5);
  const started = events.find((e) => e.workflowTaskStartedEventAttributes)!.workflowTaskStartedEventAttributes!;
  expect(Number(started.historySizeBytes)).toBeGreaterThan(big.length);
});
