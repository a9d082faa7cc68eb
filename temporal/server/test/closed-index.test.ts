/** The packed index of closed runs on its own: lookups, chains per workflow id, deletion, growth. (No Temporal needed.) */
import { randomUUID } from 'crypto';
import { ClosedRun, ClosedRuns, type ClosedSummary } from '../engine/closed';

const summary = (workflowId: string, startTime: number, extra: Partial<ClosedSummary> = {}): ClosedSummary => ({
  workflowId,
  type: 'hello',
  taskQueue: 'tq',
  status: 'Completed',
  startTime,
  closeTime: startTime + 5,
  ...extra,
});

function run(runs: ClosedRuns, workflowId: string, startTime: number, extra: Partial<ClosedSummary> = {}, runId: string = randomUUID()): ClosedRun {
  const c = runs.entry('ns', runId, summary(workflowId, startTime, extra), { seg: 1, off: startTime * 10, len: 42 });
  runs.set(c);
  return c;
}

/** Every field a ClosedRun has, for comparison. */
const fields = (c: ClosedRun | undefined) => c && { ...c, ...c.record() };

test('a run comes back whole: ids, times, location, parent, root, search attributes and their types', () => {
  const runs = new ClosedRuns();
  const c = run(runs, 'wf-é', 1000, {
    status: 'Failed',
    executionTime: 1500,
    parent: { workflowId: 'p', runId: randomUUID() },
    root: { workflowId: 'r', runId: randomUUID() },
    sa: { CustomKeywordField: 'x', Count: 3 },
    saTypes: { CustomKeywordField: 'Keyword' },
  });
  expect(fields(runs.get('ns', 'wf-é', c.runId))).toEqual(fields(c));
  expect(fields(runs.current('ns', 'wf-é'))).toEqual(fields(c));
  expect(runs.get('ns', 'wf-é', randomUUID())).toBeUndefined();
  expect(runs.get('other', 'wf-é', c.runId)).toBeUndefined();
  // A run id that is not a UUID (never made here, but accepted) is kept as it is.
  const odd = run(runs, 'wf-odd', 7, {}, 'not-a-uuid');
  expect(runs.get('ns', 'wf-odd', 'not-a-uuid')?.runId).toBe('not-a-uuid');
  expect(fields(runs.get('ns', 'wf-odd', 'not-a-uuid'))).toEqual(fields(odd));
});

test('types and task queues are stored once each, however many there are', () => {
  const runs = new ClosedRuns();
  const all = Array.from({ length: 300 }, (_, i) => run(runs, `wf-${i}`, i, { type: `type-${i}`, taskQueue: `tq-${i}` }));
  all.push(run(runs, 'wf-late', 300, { status: 'TimedOut' })); // a status first seen after them
  for (const c of all) expect(fields(runs.get('ns', c.workflowId, c.runId))).toEqual(fields(c));
});

test("a workflow id's runs are chained newest first, whatever order they arrive in; deleting keeps the chain", () => {
  const runs = new ClosedRuns();
  const second = run(runs, 'wf', 200);
  const first = run(runs, 'wf', 100); // written late (after a crash)
  const third = run(runs, 'wf', 300);
  expect(runs.current('ns', 'wf')?.runId).toBe(third.runId);
  for (const c of [first, second, third]) expect(runs.get('ns', 'wf', c.runId)?.startTime).toBe(c.startTime);
  runs.delete(second);
  expect(runs.get('ns', 'wf', second.runId)).toBeUndefined();
  expect(runs.get('ns', 'wf', first.runId)?.runId).toBe(first.runId);
  runs.delete(third);
  expect(runs.current('ns', 'wf')?.runId).toBe(first.runId);
  runs.delete(first);
  expect(runs.current('ns', 'wf')).toBeUndefined();
  expect([...runs.all()]).toEqual([]);
  // Setting a run again replaces its entry.
  const again = run(runs, 'wf', 400);
  runs.set(runs.entry('ns', again.runId, summary('wf', 400, { status: 'Terminated' }), again.at));
  expect([...runs.inNamespace('ns')].map((c) => c.status)).toEqual(['Terminated']);
});

test('many runs: lookups after the table and the buffer grew, and after deletions compacted it', () => {
  const runs = new ClosedRuns();
  const all = Array.from({ length: 30_000 }, (_, i) => run(runs, `wf-${i % 20_000}`, i, i % 3 ? {} : { sa: { N: i } }));
  for (const c of all.filter((_, i) => i % 997 === 0)) expect(fields(runs.get('ns', c.workflowId, c.runId))).toEqual(fields(c));
  expect(runs.current('ns', 'wf-5')?.startTime).toBe(20_005);
  // Retention: the oldest two thirds go (enough to compact the buffer).
  const expired = runs.closedBefore(() => 20_000);
  expect(expired).toHaveLength(19_996);
  for (const c of expired) runs.delete(c);
  const kept = all.filter((c) => c.closeTime > 20_000);
  expect([...runs.all()].map((c) => c.runId).sort()).toEqual(kept.map((c) => c.runId).sort());
  for (const c of kept.filter((_, i) => i % 97 === 0)) expect(fields(runs.get('ns', c.workflowId, c.runId))).toEqual(fields(c));
  expect(runs.current('ns', 'wf-5')?.startTime).toBe(20_005);
  expect(runs.current('ns', 'wf-19990')).toBeUndefined();
});

test('a frozen view (what compaction writes) keeps the runs of its moment while the index changes', () => {
  const runs = new ClosedRuns();
  const before = [run(runs, 'a', 1), run(runs, 'b', 2)];
  const frozen = runs.frozen();
  runs.delete(before[0]);
  run(runs, 'c', 3);
  expect([...frozen].map((c) => c.workflowId)).toEqual(['a', 'b']);
  expect([...runs.all()].map((c) => c.workflowId)).toEqual(['b', 'c']);
});
