/** Namespaces, system info, start/complete, activities, timers, signals, queries. */
import Long from 'long';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Env, setup, wid, waitFor, workflowBundle } from './helpers';
import * as activities from './activities';
import * as wf from './workflows';

let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(async () => {
  await env?.close();
});

test('system info and default namespace', async () => {
  const info = await env.client.workflowService.getSystemInfo({});
  expect(info.serverVersion).toBeTruthy();
  const ns = await env.client.workflowService.describeNamespace({ namespace: 'default' });
  expect(ns.namespaceInfo?.name).toBe('default');
});

test('workflow without activities completes', async () => {
  const r = await env.client.workflow.execute(wf.hello, { taskQueue: env.taskQueue, workflowId: wid('hello'), args: ['world'] });
  expect(r).toBe('hello world');
});

test('one activity', async () => {
  const r = await env.client.workflow.execute(wf.oneActivity, { taskQueue: env.taskQueue, workflowId: wid('act'), args: ['bob'] });
  expect(r).toBe('hi bob');
});

test('timer fires', async () => {
  const r = await env.client.workflow.execute(wf.sleeper, { taskQueue: env.taskQueue, workflowId: wid('sleep'), args: [300] });
  expect(r).toBeGreaterThanOrEqual(300);
});

test('signals and queries', async () => {
  const h = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('acc') });
  await h.signal(wf.addSignal, 2);
  await h.signal(wf.addSignal, 3);
  expect(await h.query(wf.totalQuery)).toBe(5);
  await h.signal(wf.finishSignal);
  expect(await h.result()).toBe(5);
  // Queries still work on a closed workflow.
  expect(await h.query(wf.totalQuery)).toBe(5);
});

test('register, describe and list namespaces', async () => {
  const name = `ns-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await env.client.workflowService.registerNamespace({ namespace: name, workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86400) } });
  const d = await waitForNs(name);
  expect(d.namespaceInfo?.name).toBe(name);
  const all = await env.client.workflowService.listNamespaces({});
  expect(all.namespaces?.map((n) => n.namespaceInfo?.name)).toEqual(expect.arrayContaining(['default', name]));
  await expect(env.client.workflowService.registerNamespace({ namespace: name, workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86400) } })).rejects.toThrow();
  await expect(env.client.workflowService.describeNamespace({ namespace: `missing-${name}` })).rejects.toThrow();
  const cluster = await env.client.workflowService.getClusterInfo({});
  expect(cluster.serverVersion).toBeTruthy();
});

async function waitForNs(name: string) {
  for (let i = 0; ; i++) {
    try {
      return await env.client.workflowService.describeNamespace({ namespace: name });
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

test('workflow retry policy: a failed run is retried as a new run', async () => {
  const h = await env.client.workflow.start(wf.retryingWorkflow, {
    taskQueue: env.taskQueue,
    workflowId: wid('wf-retry'),
    retry: { maximumAttempts: 3, initialInterval: '100ms' },
  });
  expect(await h.result()).toBe(2);
});

test('a worker whose cache lost the workflow fetches the full history (sticky cache miss)', async () => {
  const taskQueue = `${env.taskQueue}-tiny-cache`;
  const connection = await NativeConnection.connect({ address: env.address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
    maxCachedWorkflows: 1,
    shutdownGraceTime: '1s',
  });
  await worker.runUntil(async () => {
    const hs = await Promise.all([1, 2, 3].map(() => env.client.workflow.start(wf.accumulator, { taskQueue, workflowId: wid('evict') })));
    for (let round = 1; round <= 3; round++) {
      for (const h of hs) await h.signal(wf.addSignal, round);
    }
    for (const h of hs) await waitFor(async () => (await h.query(wf.totalQuery)) === 6);
    for (const h of hs) await h.signal(wf.finishSignal);
    expect(await Promise.all(hs.map((h) => h.result()))).toEqual([6, 6, 6]);
  });
  await connection.close();
});
