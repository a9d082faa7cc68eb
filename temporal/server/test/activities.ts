/** Activities used by the conformance suite. Attempt counters live in this (test) process. */
import { Context, ApplicationFailure, CancelledFailure, CompleteAsyncError } from '@temporalio/activity';

export const attempts = new Map<string, number>();

export async function greet(name: string): Promise<string> {
  return `hi ${name}`;
}

export async function flaky(failTimes: number, key: string): Promise<number> {
  const n = (attempts.get(key) ?? 0) + 1;
  attempts.set(key, n);
  if (n <= failTimes) throw new Error(`attempt ${n} failed`);
  return Context.current().info.attempt;
}

export async function nonRetryable(key: string): Promise<string> {
  attempts.set(key, (attempts.get(key) ?? 0) + 1);
  throw ApplicationFailure.create({ message: 'never retry', type: 'Fatal', nonRetryable: true });
}

export async function slow(ms: number): Promise<string> {
  await new Promise((r) => setTimeout(r, ms));
  return 'slow done';
}

/** Heartbeats progress; the first attempt dies at step 2, the retry resumes from its details. */
export async function resumable(): Promise<number> {
  const ctx = Context.current();
  let step: number = ctx.info.heartbeatDetails ?? 0;
  const resumedAt = step;
  for (; step < 5; step++) {
    ctx.heartbeat(step);
    if (ctx.info.attempt === 1 && step === 2) {
      await new Promise((r) => setTimeout(r, 100));
      throw new Error('crash mid-way');
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return resumedAt * 100 + step * 10 + ctx.info.attempt;
}

export async function waitForCancel(): Promise<string> {
  const ctx = Context.current();
  for (;;) {
    ctx.heartbeat();
    try {
      await Promise.race([ctx.cancelled, new Promise((r) => setTimeout(r, 100))]);
    } catch (e) {
      if (e instanceof CancelledFailure) throw e;
      throw e;
    }
  }
}

/** Starts, then leaves its completion to someone outside (the async completion client). */
export async function finishedElsewhere(): Promise<string> {
  throw new CompleteAsyncError();
}
