/**
 * Parent, child and grandchild (what the UI's Relationships tab draws): root and parent
 * executions in describe, in list items and in the workers' workflow info; `RootWorkflowId`,
 * `RootRunId`, `ParentWorkflowId`, `ParentRunId` in list queries; roots kept across a restart,
 * and runs persisted before roots were kept read as their own root.
 */
import * as fs from 'fs';
import * as path from 'path';
import { temporal } from '@temporalio/proto';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { Env, setup, wid, waitFor } from './helpers';
import * as wf from './workflows';

type Execution = { workflowId: string; runId: string };

async function list(env: Env, query: string): Promise<WorkflowExecutionInfo[]> {
  const out: WorkflowExecutionInfo[] = [];
  for await (const w of env.client.workflow.list({ query })) out.push(w);
  return out;
}

/** Workflow ids of the runs a query lists, sorted; waits for them, as real servers index asynchronously. */
async function expectList(env: Env, query: string, expected: string[]): Promise<void> {
  const want = [...expected].sort();
  let listed: string[] = [];
  const same = async () => JSON.stringify((listed = (await list(env, query)).map((w) => w.workflowId).sort())) === JSON.stringify(want);
  await waitFor(same).catch(() => undefined);
  expect({ query, listed }).toEqual({ query, listed: want });
}

/** A closed run's record in its segment (store/segments.ts): its state and events. */
function wholeRun(dir: string, at: { seg: number; off: number; len: number }): { s: unknown; ev: string[] } {
  const bytes = fs.readFileSync(path.join(dir, 'closed', `${String(at.seg).padStart(6, '0')}.jsonl`)).subarray(at.off, at.off + at.len);
  return JSON.parse(bytes.toString('utf8'));
}

const describeRun = (env: Env, { workflowId, runId }: Partial<Execution> & { workflowId: string }) => env.client.workflow.getHandle(workflowId, runId).describe();

describe('a parent with a child with a grandchild', () => {
  let env: Env;
  const root = wid('family');
  const child = `${root}-child`;
  const grandchild = `${child}-child`;
  let result: string[];
  let rootRun: Execution;
  let childRun: Execution;
  /** The grandchild continued as new once: its first run and the one that completed. */
  let grandchildRuns: Execution[];

  beforeAll(async () => {
    env = await setup();
    const handle = await env.client.workflow.start(wf.family, { taskQueue: env.taskQueue, workflowId: root, args: [2] });
    result = await handle.result();
    rootRun = { workflowId: root, runId: handle.firstExecutionRunId };
    childRun = { workflowId: child, runId: (await describeRun(env, { workflowId: child })).runId };
    const last = await describeRun(env, { workflowId: grandchild });
    grandchildRuns = [{ workflowId: grandchild, runId: last.raw.workflowExecutionInfo!.firstRunId! }, { workflowId: grandchild, runId: last.runId }];
  });
  afterAll(async () => {
    await env?.close();
  });

  test('each generation is told its root when it starts (the continued run too)', () => {
    expect(result).toEqual([`${root} root itself`, `${child} root ${root}`, `${grandchild} root ${root}`]);
    expect(grandchildRuns[0].runId).not.toBe(grandchildRuns[1].runId);
  });

  test('describe answers the root and the parent', async () => {
    const top = await describeRun(env, rootRun);
    expect([top.rootExecution, top.parentExecution]).toEqual([rootRun, undefined]);
    const mid = await describeRun(env, childRun);
    expect([mid.rootExecution, mid.parentExecution]).toEqual([rootRun, rootRun]);
    const ns = await env.client.workflowService.describeNamespace({ namespace: 'default' });
    expect(mid.raw.workflowExecutionInfo!.parentNamespaceId).toBe(ns.namespaceInfo!.id);
    for (const run of grandchildRuns) {
      const low = await describeRun(env, run);
      expect([low.rootExecution, low.parentExecution]).toEqual([rootRun, childRun]);
    }
  });

  test('RootWorkflowId lists the whole family, ParentWorkflowId the children', async () => {
    await expectList(env, `RootWorkflowId = "${root}"`, [root, child, grandchild, grandchild]);
    await expectList(env, `RootWorkflowId = "${root}" AND RootRunId = "${rootRun.runId}"`, [root, child, grandchild, grandchild]);
    await expectList(env, `ParentWorkflowId = "${root}"`, [child]);
    await expectList(env, `ParentWorkflowId = "${child}" AND ParentRunId = "${childRun.runId}"`, [grandchild, grandchild]);
    await expectList(env, `RootWorkflowId = "${root}" AND ParentWorkflowId IS NULL`, [root]);
    const items = await list(env, `RootWorkflowId = "${root}"`);
    const low = items.find((w) => w.runId === grandchildRuns[1].runId)!;
    expect([low.rootExecution, low.parentExecution]).toEqual([rootRun, childRun]);
    const top = items.find((w) => w.workflowId === root)!;
    expect([top.rootExecution, top.parentExecution]).toEqual([rootRun, undefined]);
  });

  test('a workflow without a parent that continues as new starts a tree of its own', async () => {
    const workflowId = wid('countdown');
    const handle = await env.client.workflow.start(wf.countdown, { taskQueue: env.taskQueue, workflowId, args: [1] });
    await handle.result();
    const last = await describeRun(env, { workflowId });
    const first: Execution = { workflowId, runId: handle.firstExecutionRunId };
    expect(last.runId).not.toBe(first.runId);
    expect([last.rootExecution, last.parentExecution]).toEqual([{ workflowId, runId: last.runId }, undefined]);
    expect((await describeRun(env, first)).rootExecution).toEqual(first);
    await expectList(env, `RootWorkflowId = "${workflowId}"`, [workflowId, workflowId]);
    await expectList(env, `RootRunId = "${first.runId}"`, [workflowId]);
  });

  test('ListSearchAttributes lists the four as Keyword system attributes', async () => {
    const res = await env.client.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    for (const name of ['ParentWorkflowId', 'ParentRunId', 'RootWorkflowId', 'RootRunId']) expect([name, res.systemAttributes[name]]).toEqual([name, keyword]);
  });
});

describe('roots on disk', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup({ durable: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  test('are kept across a restart; runs persisted before roots were kept are their own root', async () => {
    if (!env.embedded) return; // restarts and data directories are the embedded server's
    const root = wid('kept');
    const child = `${root}-child`; // two runs: it continues as new once
    const handle = await env.client.workflow.start(wf.family, { taskQueue: env.taskQueue, workflowId: root, args: [1] });
    await handle.result();
    const rootRun = { workflowId: root, runId: handle.firstExecutionRunId };

    await env.restart();
    const kept = await describeRun(env, { workflowId: child });
    expect([kept.rootExecution, kept.parentExecution]).toEqual([rootRun, rootRun]);

    // An older server wrote the same runs without `root`, and kept closed runs whole in its log.
    await env.restart(() => {
      const dir = env.dataDir!;
      for (const file of ['log.jsonl', 'snapshot.jsonl'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f))) {
        const lines = fs.readFileSync(file, 'utf8').split('\n').map((line) => {
          if (!line) return line;
          let rec = JSON.parse(line);
          if (rec.k === 'closed') rec = { k: 'run', ns: rec.ns, runId: rec.runId, ...wholeRun(dir, rec.at), from: 1, q: rec.q };
          if (rec.s) delete rec.s.root;
          return JSON.stringify(rec);
        });
        fs.writeFileSync(file, lines.join('\n'));
      }
      fs.rmSync(path.join(dir, 'closed'), { recursive: true, force: true });
    });
    const old = await describeRun(env, { workflowId: child });
    expect([old.rootExecution, old.parentExecution]).toEqual([{ workflowId: child, runId: old.runId }, rootRun]);
    await expectList(env, `RootWorkflowId = "${root}"`, [root]);
    await expectList(env, `ParentWorkflowId = "${root}"`, [child, child]);
    // The worker still reads the old runs' histories; new work runs as before.
    expect(await env.client.workflow.execute(wf.hello, { taskQueue: env.taskQueue, workflowId: wid('after'), args: ['after'] })).toBe('hello after');
  });
});
