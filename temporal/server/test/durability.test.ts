/**
 * Durability: running workflows survive a server restart (clean close, and SIGKILL of a server in
 * a child process): timers fire, outstanding activities are dispatched again, results are kept.
 * Against an external server (TEMPORAL_ADDRESS) the same flows run without the restart step.
 */
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

async function scenario(env: Env): Promise<void> {
  const tq = env.taskQueue;
  const done = await env.client.workflow.start(wf.hello, { taskQueue: tq, workflowId: wid('kept'), args: ['kept'] });
  expect(await done.result()).toBe('hello kept');
  const timer = await env.client.workflow.start(wf.sleeper, { taskQueue: tq, workflowId: wid('timer'), args: [2500] });
  const acc = await env.client.workflow.start(wf.accumulator, { taskQueue: tq, workflowId: wid('acc') });
  await acc.signal(wf.addSignal, 2);
  await waitFor(async () => (await acc.query(wf.totalQuery)) === 2);
  const slow = await env.client.workflow.start(wf.activityTimeouts, { taskQueue: tq, workflowId: wid('slow-act'), args: ['slow'] });
  // Let the slow activity start on the worker before the restart.
  await waitFor(async () => ((await slow.describe()).raw.pendingActivities?.length ?? 0) > 0);
  await new Promise((r) => setTimeout(r, 300));

  await env.restart();

  await acc.signal(wf.addSignal, 3);
  expect(await acc.query(wf.totalQuery)).toBe(5);
  await acc.signal(wf.finishSignal);
  expect(await acc.result()).toBe(5);
  expect(await timer.result()).toBeGreaterThanOrEqual(2500);
  expect(await slow.result()).toBe('slow done');
  expect(await done.result()).toBe('hello kept');
  expect((await done.describe()).status.name).toBe('COMPLETED');
}

describe('restart of an in-process server on the same data directory', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true });
  });
  afterAll(async () => {
    await env?.close();
  });
  test('workflows continue after restart', async () => {
    await scenario(env);
  });
  test('a new worker takes over cached (sticky) workflows of a stopped one', async () => {
    const acc = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('takeover') });
    await acc.signal(wf.addSignal, 1);
    await waitFor(async () => (await acc.query(wf.totalQuery)) === 1);
    await env.stopWorker();
    await acc.signal(wf.addSignal, 2);
    await env.startWorker();
    await waitFor(async () => (await acc.query(wf.totalQuery)) === 3);
    await acc.signal(wf.finishSignal);
    expect(await acc.result()).toBe(3);
  });
});

describe('restart after log compaction', () => {
  let env: Env;
  beforeAll(async () => {
    process.env.TEMPORAL_COMPACT_BYTES = '4096'; // compact every few records
    env = await setup({ durable: true });
  });
  afterAll(async () => {
    delete process.env.TEMPORAL_COMPACT_BYTES;
    await env?.close();
  });
  test('workflows continue after restart from a compacted store', async () => {
    await scenario(env);
    if (env.dataDir) {
      const fs = await import('fs');
      expect(fs.existsSync(`${env.dataDir}/snapshot.jsonl`)).toBe(true);
    }
  });
});

describe('SIGKILL of a server running in a child process', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true, childProcess: true });
  });
  afterAll(async () => {
    await env?.close();
  });
  test('workflows continue after SIGKILL and restart', async () => {
    await scenario(env);
  });
});

describe('steps interrupted by a crash are redone at startup', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true });
  });
  afterAll(async () => {
    delete process.env.TEMPORAL_TEST_HOLD_TRANSFERS;
    await env?.close();
  });
  test('a child start initiated before the crash happens after the restart', async () => {
    if (env.embedded) process.env.TEMPORAL_TEST_HOLD_TRANSFERS = '1';
    const h = await env.client.workflow.start(wf.childParent, { taskQueue: env.taskQueue, workflowId: wid('held'), args: ['complete'] });
    await waitFor(async () => (await h.fetchHistory()).events!.some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes));
    delete process.env.TEMPORAL_TEST_HOLD_TRANSFERS;
    await env.restart();
    expect(await h.result()).toBe('hello child');
  });
});
