/** The full current state as log records, written by compaction as the new snapshot. */
import type { LogRecord } from './log';
import type { Engine } from '../engine/engine';
import type { RunState } from '../engine/state';

export function* snapshotRecords(engine: Engine): Iterable<LogRecord<RunState>> {
  for (const n of engine.namespaces.all()) yield n;
  for (const run of engine.runs.values()) {
    yield { k: 'run', ns: run.ns, runId: run.s.runId, s: run.s, from: 1, ev: run.encodedEvents() };
  }
}
