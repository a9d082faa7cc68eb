/**
 * Closed runs leave memory for disk (store/segments.ts) and are served from there: history,
 * describe, queries, list/count and id reuse, after a restart, after log compaction (when only the
 * segment still has the history), after SIGKILL, and until retention deletes them from disk too.
 * Against an external server (TEMPORAL_ADDRESS) the same calls run; the checks of the data
 * directory and the restarts are then skipped.
 */
import * as fs from 'fs';
import * as path from 'path';
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

type Rec = { k: string; runId?: string; s?: { closeTime?: number }; v?: { closeTime: number } };

/** The log and snapshot records of a data directory, or of one of its files. */
function records(dir: string, files = ['snapshot.jsonl', 'log.jsonl']): Rec[] {
  return files
    .map((f) => path.join(dir, f))
    .filter((f) => fs.existsSync(f))
    .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec));
}

/** The run's location on disk is in the log: it left memory. */
const onDisk = (dir: string, runId: string): boolean => records(dir).some((r) => r.k === 'closed' && r.runId === runId);

/** Segment files holding a record of the run. */
function segmentsWith(dir: string, runId: string): string[] {
  const closed = path.join(dir, 'closed');
  if (!fs.existsSync(closed)) return [];
  return fs.readdirSync(closed).filter((f) => fs.readFileSync(path.join(closed, f), 'utf8').includes(runId));
}

async function listed(env: Env, query: string): Promise<string[]> {
  const out: string[] = [];
  for await (const w of env.client.workflow.list({ query })) out.push(`${w.workflowId} ${w.status.name}`);
  return out;
}

/** A finished accumulator (a query handler, signals in its history) and what it answered while in memory. */
async function finished(env: Env, total: number): Promise<{ h: WorkflowHandle<typeof wf.accumulator>; runId: string; history: unknown; historyLength: number }> {
  const h = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('closed') });
  await h.signal(wf.addSignal, total);
  await h.signal(wf.finishSignal);
  expect(await h.result()).toBe(total);
  const d = await h.describe();
  const history = await h.fetchHistory();
  return { h, runId: d.runId, history, historyLength: d.historyLength };
}

/** Everything a client can ask of a closed run, as it answered before the run left memory. */
async function expectServed(env: Env, run: Awaited<ReturnType<typeof finished>>, total: number): Promise<void> {
  expect(await run.h.fetchHistory()).toEqual(run.history);
  const d = await run.h.describe();
  expect({ status: d.status.name, runId: d.runId, historyLength: d.historyLength }).toEqual({ status: 'COMPLETED', runId: run.runId, historyLength: run.historyLength });
  expect(await env.client.workflow.getHandle(run.h.workflowId, run.runId).result()).toBe(total);
  // A query still goes to a worker, with the history read back from disk.
  expect(await run.h.query(wf.totalQuery)).toBe(total);
  const query = `WorkflowId = "${run.h.workflowId}"`;
  await waitFor(async () => (await listed(env, query)).length === 1);
  expect(await listed(env, `${query} AND ExecutionStatus = "Completed"`)).toEqual([`${run.h.workflowId} COMPLETED`]);
  expect((await env.client.workflow.count(query)).count).toBe(1);
}

describe('closed runs on disk', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true });
  });
  afterAll(async () => {
    delete process.env.TEMPORAL_COMPACT_BYTES;
    await env?.close();
  });

  test("a closed run's history, describe, result, queries and list are served once it left memory", async () => {
    const run = await finished(env, 4);
    if (env.dataDir) {
      await waitFor(() => onDisk(env.dataDir!, run.runId));
      expect(segmentsWith(env.dataDir, run.runId)).toHaveLength(1);
    }
    await expectServed(env, run, 4);
    // Id reuse policies read the closed run's status from disk.
    const opts = { taskQueue: env.taskQueue, workflowId: run.h.workflowId, args: ['again'] as [string] };
    await expect(env.client.workflow.start(wf.hello, { ...opts, workflowIdReusePolicy: 'REJECT_DUPLICATE' })).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
    await expect(env.client.workflow.start(wf.hello, { ...opts, workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' })).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
    const again = await env.client.workflow.start(wf.hello, opts);
    expect(await again.result()).toBe('hello again');
    expect(again.firstExecutionRunId).not.toBe(run.runId);
    // The first run is still there by its run id.
    expect((await env.client.workflow.getHandle(run.h.workflowId, run.runId).describe()).status.name).toBe('COMPLETED');
  });

  test('after a restart', async () => {
    const run = await finished(env, 5);
    if (env.dataDir) await waitFor(() => onDisk(env.dataDir!, run.runId));
    await env.restart();
    await expectServed(env, run, 5);
  });

  test('after log compaction, from the segment alone', async () => {
    const run = await finished(env, 6);
    if (env.dataDir) await waitFor(() => onDisk(env.dataDir!, run.runId));
    process.env.TEMPORAL_COMPACT_BYTES = '1'; // the next write compacts
    try {
      await finished(env, 1);
    } finally {
      delete process.env.TEMPORAL_COMPACT_BYTES;
    }
    if (env.dataDir) {
      const snapshot = records(env.dataDir, ['snapshot.jsonl']);
      expect(snapshot.filter((r) => r.runId === run.runId).map((r) => r.k)).toEqual(['closed']);
      // Neither the snapshot nor the log has the run's history any more: only its segment does.
      expect(records(env.dataDir).some((r) => r.k === 'run' && r.runId === run.runId)).toBe(false);
    }
    await env.restart();
    await expectServed(env, run, 6);
  });
});

describe('closed runs after SIGKILL', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true, childProcess: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  test('runs that closed just before the kill are served, and reach disk after the restart', async () => {
    const ids = Array.from({ length: 20 }, () => wid('killed'));
    const results = await Promise.all(ids.map((workflowId, i) => env.client.workflow.execute(wf.hello, { taskQueue: env.taskQueue, workflowId, args: [String(i)] })));
    expect(results).toEqual(ids.map((_, i) => `hello ${i}`));
    const runIds = await Promise.all(ids.map(async (id) => (await env.client.workflow.getHandle(id).describe()).runId));
    await env.restart(); // SIGKILL: some closed runs were on their way to disk
    for (const [i, id] of ids.entries()) {
      const h = env.client.workflow.getHandle(id);
      expect(await h.result()).toBe(`hello ${i}`);
      expect((await h.fetchHistory()).events!.at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
    }
    // main.ts keeps its store in DATA_DIR/temporal.
    if (env.dataDir) await waitFor(() => runIds.every((r) => onDisk(path.join(env.dataDir!, 'temporal'), r)));
    const query = ids.map((id) => `WorkflowId = "${id}"`).join(' OR ');
    await waitFor(async () => (await env.client.workflow.count(query)).count === ids.length);
  });
});

describe('retention', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Moves every closed run's close time back by two days: past the default retention of one day. */
  function age(dir: string): void {
    const twoDays = 2 * 86400_000;
    for (const f of ['snapshot.jsonl', 'log.jsonl'].map((n) => path.join(dir, n)).filter((p) => fs.existsSync(p))) {
      const lines = fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => {
        const r = JSON.parse(l) as Rec;
        if (r.k === 'closed' && r.v) r.v.closeTime -= twoDays;
        if (r.k === 'run' && r.s?.closeTime) r.s.closeTime -= twoDays;
        return JSON.stringify(r);
      });
      fs.writeFileSync(f, lines.map((l) => l + '\n').join(''));
    }
  }

  test('deletes a closed run from disk: its segment goes, and it stays deleted', async () => {
    if (!env.dataDir) return; // a real server's retention cannot be aged from here
    const run = await finished(env, 7);
    const open = await env.client.workflow.start(wf.accumulator, { taskQueue: env.taskQueue, workflowId: wid('open') });
    await waitFor(() => onDisk(env.dataDir!, run.runId));
    expect(segmentsWith(env.dataDir, run.runId)).toHaveLength(1);
    await env.restart(() => age(env.dataDir!)); // the sweep at startup finds it expired
    await waitFor(() => records(env.dataDir!, ['log.jsonl']).some((r) => r.k === 'del' && r.runId === run.runId));
    await expect(run.h.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    await waitFor(() => segmentsWith(env.dataDir!, run.runId).length === 0);
    expect(fs.readdirSync(path.join(env.dataDir, 'closed'))).toEqual([]);
    expect(await listed(env, `WorkflowId = "${run.h.workflowId}"`)).toEqual([]);
    await env.restart();
    await expect(run.h.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    // A running workflow is not touched by retention.
    await open.signal(wf.addSignal, 2);
    await open.signal(wf.finishSignal);
    expect(await open.result()).toBe(2);
  });
});
