/** The full current state as log records, written by compaction as the new snapshot. */
import type { LogRecord } from './log';
import type { Engine } from '../engine/engine';
import type { RunState } from '../engine/state';
import type { Schedules } from '../schedules/scheduler';

export function* snapshotRecords(engine: Engine, schedules?: Schedules): Iterable<LogRecord<RunState>> {
  // Taken at once (the snapshot is written in chunks): a run moving to disk meanwhile must be in
  // it exactly once, whole or as its location. Closed runs are read from a copy of their packed
  // index, not decoded all at once.
  const runs = [...engine.runs.values()];
  const closed = engine.closedRuns.frozen();
  for (const n of engine.namespaces.all()) yield n;
  for (const run of runs) {
    yield { k: 'run', ns: run.ns, runId: run.s.runId, s: run.s, from: 1, ev: run.encodedEvents() };
  }
  for (const c of closed) yield c.record();
  if (schedules) yield* schedules.records();
}
