/**
 * What the service's reconciler (src/workflow-reconciler.ts) relies on to notice workflows an
 * operator terminated or cancelled: the visibility query finding them by status, task queue and
 * close time; describe of the latest run with its status, close time and search attributes; the
 * closed run's input in its history; a start of the same id afterwards; the end of a cron chain.
 * Also run against a real server with TEMPORAL_ADDRESS.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

const key = defineSearchAttributeKey('CustomKeywordField', SearchAttributeType.KEYWORD);
let env: Env;
beforeAll(async () => {
  env = await setup();
  // A real server only takes registered custom attributes (a newer dev server registers none).
  if (!env.embedded) {
    const searchAttributes = { [key.name]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD };
    await env.client.connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes }).catch((err: { code?: number }) => {
      if (err.code !== 6 /* ALREADY_EXISTS */) throw err;
    });
  }
});
afterAll(async () => {
  await env?.close();
});

test('terminated and cancelled runs are found, described, and started again', async () => {
  const since = new Date(Date.now() - 1000).toISOString();
  const opts = { taskQueue: env.taskQueue, typedSearchAttributes: [{ key, value: 'org-1' }] };
  const terminated = await env.client.workflow.start(wf.sleeper, { ...opts, workflowId: wid('closed-term'), args: [600_000] });
  const cancelled = await env.client.workflow.start(wf.cancellable, { ...opts, workflowId: wid('closed-cancel') });
  const cron = await env.client.workflow.start(wf.hello, { ...opts, workflowId: wid('closed-cron'), args: ['cron'], cronSchedule: '0 2 * * *' });
  await waitFor(async () => (await cancelled.fetchHistory()).events!.length > 3 || undefined);
  await terminated.terminate('operator');
  await cancelled.cancel();
  await cron.terminate('operator');

  const query = `ExecutionStatus IN ('Terminated', 'Canceled', 'TimedOut') AND TaskQueue = '${env.taskQueue}' AND CloseTime > '${since}'`;
  const listed = await waitFor(async () => {
    const found: string[] = [];
    for await (const w of env.client.workflow.list({ query })) found.push(`${w.workflowId} ${w.status.name}`);
    return found.length === 3 ? found.sort() : undefined;
  });
  expect(listed).toEqual([`${cancelled.workflowId} CANCELLED`, `${cron.workflowId} TERMINATED`, `${terminated.workflowId} TERMINATED`].sort());

  const described = await env.client.workflow.getHandle(terminated.workflowId).describe();
  expect(described.status.name).toBe('TERMINATED');
  expect(described.closeTime).toBeInstanceOf(Date);
  expect(described.typedSearchAttributes.get(key)).toBe('org-1');
  const started = (await env.client.workflow.getHandle(terminated.workflowId, described.runId).fetchHistory()).events![0];
  expect(started.workflowExecutionStartedEventAttributes?.input?.payloads).toHaveLength(1);
  // Terminating a cron workflow ends its chain: nothing runs it again on its own.
  expect((await env.client.workflow.getHandle(cron.workflowId).describe()).status.name).toBe('TERMINATED');

  const again = await env.client.workflow.start(wf.sleeper, { ...opts, workflowId: terminated.workflowId, args: [600_000], workflowIdReusePolicy: 'ALLOW_DUPLICATE' });
  const latest = await env.client.workflow.getHandle(terminated.workflowId).describe();
  expect([latest.runId, latest.status.name]).toEqual([again.firstExecutionRunId, 'RUNNING']);
  await again.terminate('cleanup');
});
