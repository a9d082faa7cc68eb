/** Workflows used by the conformance suite (bundled once per test file by the SDK). */
import {
  proxyActivities,
  proxyLocalActivities,
  sleep,
  defineSignal,
  defineQuery,
  defineUpdate,
  setHandler,
  condition,
  continueAsNew,
  workflowInfo,
  executeChild,
  startChild,
  ParentClosePolicy,
  CancellationScope,
  isCancellation,
  patched,
  upsertSearchAttributes,
  upsertMemo,
  getExternalWorkflowHandle,
  ApplicationFailure,
  ActivityFailure,
  ChildWorkflowFailure,
  uuid4,
  ActivityOptions,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type * as activities from '../activities';

const acts = proxyActivities<typeof activities>({ startToCloseTimeout: '10s', retry: { initialInterval: '50ms', maximumAttempts: 3 } });

export const addSignal = defineSignal<[number]>('add');
export const finishSignal = defineSignal('finish');
export const totalQuery = defineQuery<number>('total');
export const failingQuery = defineQuery<number>('failing');

export async function hello(name: string): Promise<string> {
  return `hello ${name}`;
}

export async function oneActivity(name: string): Promise<string> {
  return await acts.greet(name);
}

export async function sleeper(ms: number): Promise<number> {
  const start = Date.now();
  await sleep(ms);
  return Date.now() - start;
}

/** Sums `add` signals until `finish`; `total` query reads the running sum. */
export async function accumulator(): Promise<number> {
  let total = 0;
  let done = false;
  setHandler(addSignal, (n: number) => void (total += n));
  setHandler(finishSignal, () => void (done = true));
  setHandler(totalQuery, () => total);
  setHandler(failingQuery, () => {
    throw new Error('query handler failed');
  });
  await condition(() => done);
  return total;
}

export async function waitForever(): Promise<void> {
  await condition(() => false);
}

export async function cancellable(): Promise<string> {
  try {
    await condition(() => false);
    return 'not cancelled';
  } catch (e) {
    if (isCancellation(e)) {
      await CancellationScope.nonCancellable(() => acts.greet('cleanup'));
      throw e;
    }
    throw e;
  }
}

export async function failing(message: string): Promise<void> {
  throw ApplicationFailure.nonRetryable(message, 'TestFailure');
}

export async function countdown(n: number, acc: number[] = []): Promise<number[]> {
  if (n === 0) return acc;
  await continueAsNew<typeof countdown>(n - 1, [...acc, workflowInfo().runId.length > 0 ? n : -1]);
  return acc;
}

export async function activityRetries(failTimes: number, key: string): Promise<number> {
  return await acts.flaky(failTimes, key);
}

export async function activityNonRetryable(key: string): Promise<string> {
  try {
    await acts.nonRetryable(key);
    return 'no error';
  } catch (e) {
    if (e instanceof ActivityFailure) return `${e.retryState}:${(e.cause as ApplicationFailure).type}`;
    throw e;
  }
}

export async function activityTimeouts(kind: string): Promise<string> {
  const opts: ActivityOptions =
    kind === 'slow'
      ? { startToCloseTimeout: '10s' }
      : kind === 'startToClose'
      ? { startToCloseTimeout: '300ms', retry: { maximumAttempts: 2, initialInterval: '50ms' } }
      : kind === 'heartbeat'
        ? { startToCloseTimeout: '10s', heartbeatTimeout: '300ms', retry: { maximumAttempts: 1 } }
        : kind === 'scheduleToClose'
          ? { scheduleToCloseTimeout: '700ms', retry: { initialInterval: '100ms' } }
          : kind === 'scheduleToStart'
            ? { startToCloseTimeout: '5s', scheduleToStartTimeout: '300ms', taskQueue: 'nobody-polls-this-queue' }
            : { startToCloseTimeout: '60s', taskQueue: 'nobody-polls-this-queue' };
  const a = proxyActivities<typeof activities>(opts);
  try {
    return await a.slow(2000);
  } catch (e) {
    if (e instanceof ActivityFailure) {
      const cause = e.cause as { name?: string; timeoutType?: number };
      return `${cause?.name}:${cause?.timeoutType}`;
    }
    throw e;
  }
}

export async function heartbeatDetails(): Promise<number> {
  const a = proxyActivities<typeof activities>({ startToCloseTimeout: '10s', heartbeatTimeout: '2s', retry: { initialInterval: '50ms', maximumAttempts: 3 } });
  return await a.resumable();
}

export async function cancelActivity(): Promise<string> {
  const a = proxyActivities<typeof activities>({ startToCloseTimeout: '20s', heartbeatTimeout: '3s' });
  const scope = new CancellationScope();
  const p = scope.run(() => a.waitForCancel());
  await sleep(500);
  scope.cancel();
  try {
    await p;
    return 'not cancelled';
  } catch (e) {
    return isCancellation(e) ? 'cancelled' : `other: ${(e as Error).message}`;
  }
}

export async function timerCancel(): Promise<string> {
  const scope = new CancellationScope();
  const p = scope.run(() => sleep(60_000));
  await sleep(100);
  scope.cancel();
  try {
    await p;
    return 'fired';
  } catch (e) {
    return isCancellation(e) ? 'timer cancelled' : 'error';
  }
}

export async function childParent(mode: string): Promise<string> {
  if (mode === 'complete') {
    return await executeChild(hello, { args: ['child'], workflowId: workflowInfo().workflowId + '-child' });
  }
  if (mode === 'fail') {
    try {
      await executeChild(failing, { args: ['child failed'], workflowId: workflowInfo().workflowId + '-child' });
      return 'no error';
    } catch (e) {
      return e instanceof ChildWorkflowFailure ? `child failed: ${e.cause?.message}` : 'other error';
    }
  }
  if (mode === 'cancel') {
    const h = await startChild(cancellable, { workflowId: workflowInfo().workflowId + '-child' });
    await sleep(200);
    const scope = new CancellationScope();
    // Cancelling the scope that started the child requests the child's cancellation.
    void scope;
    await getExternalWorkflowHandle(h.workflowId).cancel();
    try {
      await h.result();
      return 'child completed';
    } catch (e) {
      return e instanceof ChildWorkflowFailure && isCancellation(e.cause) ? 'child cancelled' : `other: ${(e as Error).message}`;
    }
  }
  if (mode.startsWith('duplicate:')) {
    try {
      await startChild(waitForever, { workflowId: mode.slice('duplicate:'.length) });
      return 'started twice?';
    } catch (e) {
      return e instanceof WorkflowExecutionAlreadyStartedError ? 'already started' : `other: ${(e as Error).message}`;
    }
  }
  if (mode === 'timeout') {
    try {
      await executeChild(waitForever, { workflowId: workflowInfo().workflowId + '-child', workflowExecutionTimeout: '500ms' });
      return 'no timeout';
    } catch (e) {
      return e instanceof ChildWorkflowFailure ? `child ${(e.cause as Error)?.name}` : 'other error';
    }
  }
  if (mode === 'signalChild') {
    const h = await startChild(accumulator, { workflowId: workflowInfo().workflowId + '-child' });
    await h.signal(addSignal, 5);
    await h.signal(finishSignal);
    return `child total ${await h.result()}`;
  }
  if (mode === 'requestCancel') {
    await startChild(cancellable, {
      workflowId: workflowInfo().workflowId + '-child',
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    });
    return 'parent done';
  }
  if (mode === 'abandon' || mode === 'terminate') {
    await startChild(waitForever, {
      workflowId: workflowInfo().workflowId + '-child',
      parentClosePolicy: mode === 'abandon' ? ParentClosePolicy.ABANDON : ParentClosePolicy.TERMINATE,
    });
    return 'parent done';
  }
  throw new Error('unknown mode');
}

/** Signals another workflow; returns whether a signal to a missing one failed. */
export async function signaller(target: string): Promise<string> {
  await getExternalWorkflowHandle(target).signal(addSignal, 5);
  try {
    await getExternalWorkflowHandle('does-not-exist-' + uuid4()).signal(addSignal, 1);
    return 'missing target signalled?';
  } catch {
    return 'signalled';
  }
}

export async function canceller(target: string): Promise<string> {
  await getExternalWorkflowHandle(target).cancel();
  return 'requested';
}

export async function markers(): Promise<string> {
  const local = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '5s' });
  const a = await local.greet('local');
  const p = patched('my-patch') ? 'patched' : 'unpatched';
  return `${a}/${p}`;
}

export async function upserts(): Promise<string> {
  upsertSearchAttributes({ CustomKeywordField: ['after'] });
  upsertMemo({ note: 'updated' });
  await sleep(10);
  return 'ok';
}

export async function workflowTaskFailure(): Promise<void> {
  // A non-Temporal error fails the workflow task (not the workflow); the task is retried.
  throw new TypeError('bug in workflow code');
}

export async function signalThenComplete(): Promise<number> {
  let n = 0;
  setHandler(addSignal, (x: number) => void (n += x));
  await sleep(50);
  return n;
}

/** Fails its first attempt; the server's workflow retry policy starts attempt 2. */
export async function retryingWorkflow(): Promise<number> {
  if (workflowInfo().attempt < 2) throw ApplicationFailure.retryable('first attempt fails', 'Flaky');
  return workflowInfo().attempt;
}

/** Completes as soon as it has seen a signal: signals racing with the completion test buffering. */
export async function firstSignalWins(): Promise<number> {
  let sum = 0;
  setHandler(addSignal, (n: number) => void (sum += n));
  await condition(() => sum > 0);
  return sum;
}

export const incrementUpdate = defineUpdate<number, [number]>('increment');

/** Updates: the validator rejects 13, the handler fails on negatives, otherwise adds. */
export async function updatable(): Promise<number> {
  let total = 0;
  let done = false;
  setHandler(
    incrementUpdate,
    async (n: number) => {
      if (n < 0) throw ApplicationFailure.nonRetryable('negative', 'Negative');
      await sleep(10);
      total += n;
      return total;
    },
    {
      validator: (n: number) => {
        if (n === 13) throw new Error('unlucky number');
      },
    },
  );
  setHandler(finishSignal, () => void (done = true));
  await condition(() => done);
  return total;
}

/** A local activity longer than the workflow task timeout: the worker keeps the task alive. */
export async function longLocalActivity(ms: number): Promise<string> {
  const local = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '30s' });
  return await local.slow(ms);
}

/** A parent whose child never ends: DescribeWorkflowExecution shows a pending child. */
export async function parentOfWaitingChild(): Promise<void> {
  await executeChild(waitForever, { workflowId: workflowInfo().workflowId + '-child' });
}

/**
 * A family for the Relationships tab: each generation starts the next as a child until `depth`
 * runs out; the last one continues as new once. Each returns what its workflow info says of its root.
 */
export async function family(depth: number, continued = false): Promise<string[]> {
  const { workflowId, root } = workflowInfo();
  const me = `${workflowId} root ${root?.workflowId ?? 'itself'}`;
  if (depth > 0) return [me, ...(await executeChild(family, { args: [depth - 1], workflowId: `${workflowId}-child` }))];
  if (!continued) await continueAsNew<typeof family>(0, true);
  return [me];
}

// ---------------------------------------------------------------- conformance-*.test.ts

/** Upserts an untyped Datetime attribute (the server must type it, as Temporal does). */
export async function upsertDatetime(name: string, iso: string): Promise<void> {
  upsertSearchAttributes({ [name]: [new Date(iso)] });
}

export const stuckUpdate = defineUpdate<void>('stuck');

/** Accepts the update, then completes while its handler still waits. */
export async function completesDuringUpdate(): Promise<string> {
  let accepted = false;
  setHandler(stuckUpdate, async () => {
    accepted = true;
    await condition(() => false);
  });
  await condition(() => accepted);
  return 'completed';
}

export const mutateUpdate = defineUpdate<void>('mutate');

/** Returns at once: only an update delivered with the first task changes the result. */
export async function updateInFirstTask(): Promise<string> {
  let state = 'initial';
  setHandler(mutateUpdate, () => void (state = 'mutated by update'));
  return state;
}

/** Timer, activity and child, each with a summary the server keeps on its event. */
export async function withUserMetadata(): Promise<void> {
  await sleep(10, { summary: 'timer summary' });
  await proxyActivities<typeof activities>({ startToCloseTimeout: '10s', summary: 'activity summary' }).greet('metadata');
  await executeChild(hello, {
    args: ['child'],
    workflowId: `${workflowInfo().workflowId}-child`,
    staticSummary: 'child summary',
    staticDetails: 'child details',
  });
}

/** Fails its task unless its priority is the expected one; the first level starts a child with its own. */
export async function prioritized(expected: number | undefined, child: boolean): Promise<number | undefined> {
  const { priority } = workflowInfo();
  if (!priority || priority.priorityKey !== expected) throw new Error(`priority ${priority?.priorityKey}, expected ${expected}`);
  if (!child) return expected;
  await proxyActivities<typeof activities>({ startToCloseTimeout: '10s', priority: { priorityKey: 5, fairnessKey: 'activity' } }).greet('priority');
  return await executeChild(prioritized, {
    args: [4, false],
    workflowId: `${workflowInfo().workflowId}-child`,
    priority: { priorityKey: 4, fairnessKey: 'child', fairnessWeight: 2.5 },
  });
}

/** One activity finished from outside; answers its failure's type and message. */
export async function completedFromOutside(): Promise<string> {
  const a = proxyActivities<typeof activities>({ startToCloseTimeout: '60s', retry: { maximumAttempts: 1 } });
  try {
    return await a.finishedElsewhere();
  } catch (e) {
    const cause = e instanceof ActivityFailure ? (e.cause as ApplicationFailure) : undefined;
    if (cause) return `${cause.type}:${cause.message}`;
    throw e;
  }
}
