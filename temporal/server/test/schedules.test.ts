/**
 * Schedules through the SDK's `client.schedule`: create, describe, list, update, pause and
 * unpause, trigger, backfill, delete, overlap policies, limited actions, pause on failure, the
 * started workflows' ids and search attributes, a restart of the embedded server, and the same
 * routes over the HTTP API the Temporal UI reads; first the spec reader on its own. Intervals are
 * seconds long to keep the file short.
 */
import { ScheduleAlreadyRunning, ScheduleHandle, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import * as fs from 'fs';
import * as path from 'path';
import Long from 'long';
import { CompiledSpec } from '../schedules/calendar';
import { canonicalSpec } from '../schedules/spec';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

let env: Env;
const created: ScheduleHandle[] = [];
beforeAll(async () => {
  env = await setup({ durable: true });
});
afterAll(async () => {
  // Schedules outlive a test on a real server: stop them firing into this file's task queue.
  for (const h of created) await h.delete().catch(() => undefined);
  await env?.close();
});

const HOUR = 3600_000;
const startHello = (id: string) => ({ type: 'startWorkflow' as const, workflowType: wf.hello, args: ['sched'] as [string], taskQueue: env.taskQueue, workflowId: `${id}-wf` });

async function schedule(options: Omit<Parameters<Env['client']['schedule']['create']>[0], 'scheduleId'>, prefix = 'sched'): Promise<ScheduleHandle> {
  const h = await env.client.schedule.create({ scheduleId: wid(prefix), ...options } as Parameters<Env['client']['schedule']['create']>[0]);
  created.push(h);
  return h;
}

const taken = async (h: ScheduleHandle) => (await h.describe()).info.numActionsTaken;

test('specs as Temporal reads them: cron strings, calendars, time zones, intervals, exclusions', () => {
  const next = (spec: object, after: string) => {
    const t = new CompiledSpec(canonicalSpec(spec)).next(new Date(after).getTime());
    return t === undefined ? undefined : new Date(t).toISOString();
  };
  expect(next({ cronString: ['0 2 * * *'] }, '2026-01-01T03:00:00Z')).toBe('2026-01-02T02:00:00.000Z');
  expect(next({ cronString: ['TZ=Europe/Paris 0 2 * * *'] }, '2026-01-01T03:00:00Z')).toBe('2026-01-02T01:00:00.000Z');
  expect(next({ cronString: ['0 9 * * mon-fri'] }, '2026-01-02T09:00:00Z')).toBe('2026-01-05T09:00:00.000Z');
  expect(next({ cronString: ['0 0 1,15 * 0'] }, '2026-02-02T00:00:00Z')).toBe('2026-02-15T00:00:00.000Z'); // day of month AND day of week
  expect(next({ cronString: ['0 0 * * 7'] }, '2026-02-02T00:00:00Z')).toBe('2026-02-08T00:00:00.000Z'); // 7 is Sunday
  expect(next({ cronString: ['0 0 29 2 * 2028'] }, '2026-01-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  expect(next({ cronString: ['@every 90s'] }, '1970-01-01T00:00:01Z')).toBe('1970-01-01T00:01:30.000Z');
  expect(next({ calendar: [{ hour: '*', minute: '*/15' }] }, '2026-01-01T10:07:30Z')).toBe('2026-01-01T10:15:00.000Z');
  // 02:30 does not exist in New York on 8 March 2026 (clocks go 02:00 -> 03:00): the next day's.
  expect(next({ cronString: ['30 2 * * *'], timezoneName: 'America/New_York' }, '2026-03-08T06:00:00Z')).toBe('2026-03-09T06:30:00.000Z');
  expect(next({ interval: [{ interval: { seconds: 60 } }], excludeCalendar: [{ hour: '*', minute: '1' }] }, '2026-01-01T00:00:30Z')).toBe('2026-01-01T00:02:00.000Z');
  expect(next({ cronString: ['0 2 * * *'], endTime: { seconds: Long.fromNumber(Date.UTC(2026, 0, 1) / 1000) } }, '2026-01-01T03:00:00Z')).toBeUndefined();
  expect(() => canonicalSpec({ cronString: ['* *'] })).toThrow(/5-7 fields/);
  expect(() => canonicalSpec({ timezoneName: 'Mars/Base' })).toThrow(/unknown time zone/);
  expect(() => canonicalSpec({ interval: [{ interval: { nanos: 5e8 } }] })).toThrow(/too small/);
});

test('create, describe, list, update, matching times and delete', async () => {
  const h = await schedule({ spec: { intervals: [{ every: '1h' }] }, action: startHello('a'), memo: { team: 'loyalty' } });
  const d = await h.describe();
  expect(d.spec.intervals?.map((i) => i.every)).toEqual([HOUR]);
  expect(d.action).toMatchObject({ type: 'startWorkflow', workflowType: 'hello', args: ['sched'], taskQueue: env.taskQueue });
  expect(d.policies).toEqual({ overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 365 * 24 * HOUR, pauseOnFailure: false });
  expect(d.state.paused).toBe(false);
  expect(d.memo).toEqual({ team: 'loyalty' });
  const next = d.info.nextActionTimes.map((t) => t.getTime());
  expect(next).toHaveLength(10);
  expect(next[0] % HOUR).toBe(0);
  expect(next[1] - next[0]).toBe(HOUR);
  expect(d.info.createdAt.getTime()).toBeLessThanOrEqual(Date.now());

  await expect(env.client.schedule.create({ scheduleId: h.scheduleId, spec: { intervals: [{ every: '1h' }] }, action: startHello('a') })).rejects.toBeInstanceOf(ScheduleAlreadyRunning);
  await expect(env.client.schedule.create({ scheduleId: wid('bad'), spec: { cronExpressions: ['61 * * * *'] }, action: startHello('a') })).rejects.toThrow(/Minute/);

  // Listing goes through visibility on a real server: it may lag a moment.
  const listed = await waitFor(async () => {
    for await (const s of env.client.schedule.list()) if (s.scheduleId === h.scheduleId) return s;
    return undefined;
  });
  expect(listed.action?.workflowType).toBe('hello');
  expect(listed.info.nextActionTimes.length).toBeGreaterThan(0);

  // Cron strings are kept as calendars, read in the spec's time zone.
  await h.update((prev) => ({ ...prev, spec: { cronExpressions: ['0 2 * * *'], timezone: 'America/New_York' } }));
  const u = await h.describe();
  expect(u.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 2, end: 2, step: 1 }], minute: [{ start: 0, end: 0, step: 1 }] });
  expect(u.spec.timezone).toBe('America/New_York');
  expect(u.info.lastUpdatedAt).toBeDefined();
  for (const t of u.info.nextActionTimes) expect([6, 7]).toContain(t.getUTCHours()); // 02:00 EST or EDT

  const from = Date.UTC(2027, 0, 1);
  const times = await env.client.workflowService.listScheduleMatchingTimes({
    namespace: 'default',
    scheduleId: h.scheduleId,
    startTime: { seconds: Long.fromNumber(from / 1000) },
    endTime: { seconds: Long.fromNumber((from + 3 * 24 * HOUR) / 1000) },
  });
  expect(times.startTime?.map((t) => new Date(Number(t.seconds) * 1000).toISOString())).toEqual([
    '2027-01-01T07:00:00.000Z',
    '2027-01-02T07:00:00.000Z',
    '2027-01-03T07:00:00.000Z',
  ]);

  await h.delete();
  await expect(h.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
});

test('an interval schedule starts <workflowId>-<time> with the schedule search attributes', async () => {
  const h = await schedule({ spec: { intervals: [{ every: '1s' }] }, action: startHello('b') });
  const d = await waitFor(async () => {
    const x = await h.describe();
    return x.info.recentActions.length > 0 ? x : undefined;
  });
  const action = d.info.recentActions[0];
  const workflowId = action.action.workflow.workflowId;
  expect(workflowId).toMatch(/^b-wf-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(new Date(workflowId.slice('b-wf-'.length)).getTime()).toBe(action.scheduledAt.getTime());
  await h.pause();

  const run = env.client.workflow.getHandle(workflowId, action.action.workflow.firstExecutionRunId);
  expect(await run.result()).toBe('hello sched');
  const described = await run.describe();
  expect(described.searchAttributes.TemporalScheduledById).toEqual([h.scheduleId]);
  expect(described.searchAttributes.TemporalScheduledStartTime).toEqual([action.scheduledAt]);
  const found = await waitFor(async () => {
    const ids: string[] = [];
    for await (const w of env.client.workflow.list({ query: `TemporalScheduledById = "${h.scheduleId}"` })) ids.push(w.workflowId);
    return ids.includes(workflowId) ? ids : undefined;
  });
  expect(found.every((id) => id.startsWith('b-wf-'))).toBe(true);
  const raw = await waitFor(async () => {
    const x = (await h.describe()).raw.info?.recentActions?.[0];
    return x?.startWorkflowStatus === 2 ? x : undefined; // WORKFLOW_EXECUTION_STATUS_COMPLETED
  });
  expect(raw.startWorkflowResult?.workflowId).toBe(workflowId);
});

test('pause, unpause, trigger and backfill', async () => {
  const h = await schedule({ spec: { intervals: [{ every: '1h' }] }, action: startHello('c'), state: { paused: true, note: 'created paused' } });
  expect((await h.describe()).state).toMatchObject({ paused: true, note: 'created paused' });

  await h.trigger(); // taken even while paused
  const first = await waitFor(async () => (await h.describe()).info.recentActions[0]);
  expect(first.action.workflow.workflowId).toMatch(/^c-wf-/);

  await h.unpause('back on');
  expect((await h.describe()).state).toMatchObject({ paused: false, note: 'back on' });
  await h.pause('off again');
  expect((await h.describe()).state).toMatchObject({ paused: true, note: 'off again' });

  // Three whole hours, both ends included.
  const start = new Date(Math.floor(Date.now() / HOUR) * HOUR - 5 * HOUR);
  await h.backfill({ start, end: new Date(start.getTime() + 2 * HOUR), overlap: ScheduleOverlapPolicy.ALLOW_ALL });
  const d = await waitFor(async () => {
    const x = await h.describe();
    return x.info.numActionsTaken === 4 ? x : undefined;
  });
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  expect(d.info.recentActions.slice(1).map((a) => a.action.workflow.workflowId)).toEqual([0, 1, 2].map((i) => `c-wf-${iso(start.getTime() + i * HOUR)}`));
  expect(d.info.recentActions.slice(1).map((a) => a.scheduledAt.getTime())).toEqual([0, 1, 2].map((i) => start.getTime() + i * HOUR));
});

test('overlap: SKIP waits for the running workflow, ALLOW_ALL starts every time', async () => {
  const action = (id: string) => ({ type: 'startWorkflow' as const, workflowType: wf.sleeper, args: [10_000] as [number], taskQueue: env.taskQueue, workflowId: id });
  const skip = await schedule({ spec: { intervals: [{ every: '1s' }] }, action: action('skip'), policies: { overlap: ScheduleOverlapPolicy.SKIP } });
  const all = await schedule({ spec: { intervals: [{ every: '1s' }] }, action: action('all'), policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL } });
  try {
    await waitFor(async () => (await taken(all)) >= 3, 15_000);
    const s = await waitFor(async () => {
      const x = await skip.describe();
      return x.info.numActionsSkippedOverlap >= 2 ? x : undefined;
    }, 15_000);
    expect(s.info.numActionsTaken).toBe(1);
    expect(s.info.runningActions.map((a) => a.workflow.workflowId)).toEqual([s.info.recentActions[0].action.workflow.workflowId]);
    const a = await all.describe();
    expect(a.info.numActionsSkippedOverlap).toBe(0);
    const running = await Promise.all(a.info.recentActions.map(async (r) => (await env.client.workflow.getHandle(r.action.workflow.workflowId).describe()).status.name));
    expect(running.filter((st) => st === 'RUNNING').length).toBeGreaterThanOrEqual(3);
  } finally {
    await skip.pause();
    await all.pause();
    for (const h of [skip, all]) {
      for (const r of (await h.describe()).info.recentActions) await env.client.workflow.getHandle(r.action.workflow.workflowId).terminate('test over').catch(() => undefined);
    }
  }
});

test('limited actions run out; pause on failure pauses with the failure', async () => {
  const limited = await schedule({ spec: { intervals: [{ every: '1s' }] }, action: startHello('d'), state: { remainingActions: 2 } });
  const failing = await schedule({
    spec: { intervals: [{ every: '1h' }] },
    action: { type: 'startWorkflow', workflowType: wf.failing, args: ['boom'] as [string], taskQueue: env.taskQueue, workflowId: 'e' },
    policies: { pauseOnFailure: true },
  });
  await failing.trigger(ScheduleOverlapPolicy.SKIP); // ALLOW_ALL runs are not watched for failures
  const paused = await waitFor(async () => {
    const x = await failing.describe();
    return x.state.paused ? x : undefined;
  }, 15_000);
  expect(paused.state.note).toMatch(/^paused due to workflow failure: e-.*boom/);

  await waitFor(async () => (await taken(limited)) === 2, 10_000);
  await new Promise((r) => setTimeout(r, 2500));
  const d = await limited.describe();
  expect(d.info.numActionsTaken).toBe(2);
  expect(d.state.remainingActions).toBe(0);
  expect(d.info.nextActionTimes).toEqual([]);
});

test('a restart of the embedded server keeps the schedule firing', async () => {
  const h = await schedule({ spec: { intervals: [{ every: '1s' }] }, action: startHello('f') });
  await waitFor(async () => (await taken(h)) >= 1, 10_000);
  // Compaction at every write: the schedule comes back from the snapshot, not only from the log.
  process.env.TEMPORAL_COMPACT_BYTES = '1';
  await waitFor(async () => (await taken(h)) >= 2, 10_000).finally(() => delete process.env.TEMPORAL_COMPACT_BYTES);
  if (env.dataDir) {
    const snapshot = fs.readFileSync(path.join(env.dataDir, 'snapshot.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(snapshot.filter((r) => r.k === 'sched').map((r) => r.id)).toContain(h.scheduleId);
  }
  await env.restart();
  const before = await taken(h);
  await waitFor(async () => (await taken(h)) >= before + 2, 10_000);
  const d = await h.describe();
  expect(d.info.recentActions.length).toBeGreaterThanOrEqual(3);
  await h.delete();
});

describe('over the HTTP API', () => {
  let http: Env;
  beforeAll(async () => {
    http = await setup({ http: true, startWorker: false });
  });
  afterAll(async () => {
    await http?.close();
  });

  test('the UI routes create, describe, list, patch and delete schedules', async () => {
    const base = `http://${http.httpAddress}/api/v1/namespaces/default/schedules`;
    const call = async (path: string, init?: { method: string; body: object }) => {
      const res = await fetch(base + path, init && { method: init.method, body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const schedule = {
      spec: { cronString: ['30 4 * * mon'], interval: [{ interval: '7200s' }] },
      action: { startWorkflow: { workflowId: 'http-wf', workflowType: { name: 'hello' }, taskQueue: { name: 'http-tq' } } },
    };
    expect((await call('/web', { method: 'POST', body: { scheduleId: 'web', requestId: 'r1', schedule } })).status).toBe(200);
    const d = await call('/web');
    expect(d.status).toBe(200);
    expect(d.body.schedule.spec.interval).toEqual([{ interval: '7200s' }]);
    expect(d.body.schedule.spec.structuredCalendar[0].dayOfWeek).toEqual([{ start: 1, end: 1, step: 1 }]);
    expect(d.body.schedule.policies.overlapPolicy).toBe('SCHEDULE_OVERLAP_POLICY_SKIP');
    expect(d.body.info.futureActionTimes).toHaveLength(10);
    expect(typeof d.body.conflictToken).toBe('string');

    const list = await call('?query=' + encodeURIComponent('ScheduleId = "web"'));
    expect(list.body.schedules.map((s: { scheduleId: string }) => s.scheduleId)).toEqual(['web']);
    expect(list.body.schedules[0].info.workflowType.name).toBe('hello');

    expect((await call('/web/patch', { method: 'POST', body: { patch: { pause: 'from the UI' } } })).status).toBe(200);
    expect((await call('/web')).body.schedule.state).toMatchObject({ paused: true, notes: 'from the UI' });
    const paused = await call('?query=' + encodeURIComponent('TemporalSchedulePaused = true'));
    expect(paused.body.schedules.map((s: { scheduleId: string }) => s.scheduleId)).toEqual(['web']);
    // The UI counts schedules as Temporal keeps them: running workflows of the scheduler's division.
    const count = await fetch(`http://${http.httpAddress}/api/v1/namespaces/default/workflow-count?query=${encodeURIComponent('TemporalNamespaceDivision="TemporalScheduler" AND ExecutionStatus="Running"')}`);
    expect(await count.json()).toEqual({ count: '1' });

    const times = await call('/web/matching-times?startTime=2027-01-04T00:00:00Z&endTime=2027-01-04T05:00:00Z');
    expect(times.body.startTime).toEqual(['2027-01-04T02:00:00Z', '2027-01-04T04:00:00Z', '2027-01-04T04:30:00Z']);

    expect((await fetch(`${base}/web`, { method: 'DELETE' })).status).toBe(200);
    expect((await call('/web')).status).toBe(404);
  });
});
