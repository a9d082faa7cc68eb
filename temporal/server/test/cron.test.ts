/** Cron workflows: the schedule parser on its own, and a cron workflow end to end. */
import { nextCronTick } from '../engine/cron';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

const at = (iso: string) => new Date(iso).getTime();
const next = (expr: string, iso: string) => new Date(nextCronTick(expr, at(iso))).toISOString();

test('cron expressions', () => {
  expect(next('*/15 * * * *', '2026-01-01T10:07:30Z')).toBe('2026-01-01T10:15:00.000Z');
  expect(next('0 9 * * mon-fri', '2026-01-02T09:00:00Z')).toBe('2026-01-05T09:00:00.000Z'); // Fri → Mon
  expect(next('30 2 1 * *', '2026-01-15T00:00:00Z')).toBe('2026-02-01T02:30:00.000Z');
  expect(next('@daily', '2026-03-01T12:00:00Z')).toBe('2026-03-02T00:00:00.000Z');
  expect(next('0 0 1,15 * 0', '2026-02-02T00:00:00Z')).toBe('2026-02-08T00:00:00.000Z'); // dom OR dow
  expect(nextCronTick('@every 90s', 1000)).toBe(90_000);
  expect(() => nextCronTick('61 * * * *', 0)).toThrow();
  expect(() => nextCronTick('* * *', 0)).toThrow();
});

describe('cron workflow', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(async () => {
    await env?.close();
  });

  test('each run starts the next one at the next tick', async () => {
    const h = await env.client.workflow.start(wf.hello, {
      taskQueue: env.taskQueue,
      workflowId: wid('cron'),
      args: ['cron'],
      cronSchedule: '@every 1s',
    });
    const first = env.client.workflow.getHandle(h.workflowId, h.firstExecutionRunId);
    await waitFor(async () => (await first.describe()).status.name === 'COMPLETED', 15_000);
    const closed = (await first.fetchHistory()).events!.pop()!;
    const nextRunId = closed.workflowExecutionCompletedEventAttributes?.newExecutionRunId;
    expect(nextRunId).toBeTruthy();
    const latest = await env.client.workflow.getHandle(h.workflowId).describe();
    expect(latest.runId).not.toBe(h.firstExecutionRunId);
    await env.client.workflow.getHandle(h.workflowId).terminate('stop the schedule');
  });
});
