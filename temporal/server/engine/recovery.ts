/**
 * Startup after a restart (or a crash): rebuilds the in-memory indexes from the loaded runs and
 * closed runs on disk, and hands out again whatever was outstanding. Tasks held by workers were
 * never persisted, so they are simply dispatched anew; closed runs the log still holds whole (a
 * crash came before their record reached disk) go to disk now.
 */
import type { Engine } from './engine';
import type { ClosedRecord, LoadedRun } from '../store/log';
import { Run, RunState } from './state';
import { runTransfer } from './transfers';
import { resumeFamily } from './children';

export function recover(engine: Engine, loaded: { runs: LoadedRun<RunState>[]; closed: ClosedRecord[] }): void {
  for (const c of loaded.closed) engine.closedRuns.set(engine.closedRuns.entry(c.ns, c.runId, c.v, c.at));
  for (const l of loaded.runs) {
    // Runs persisted before roots were kept: each is its own root (state.ts).
    l.state.root ??= { workflowId: l.state.workflowId, runId: l.state.runId };
    const run = new Run(l.ns, l.state);
    run.load(l.events);
    run.flushed = run.length;
    engine.runs.set(engine.key(l.ns, l.state.runId), run);
  }
  // The latest run of a workflow id is current, but a running one always wins; runs in memory
  // compete with the newest closed run on disk (the index knows that one).
  for (const run of [...engine.runs.values()].sort((a, b) => a.s.startTime - b.s.startTime)) {
    const cur = engine.currentInMemory(run.ns, run.s.workflowId);
    if (cur?.running && !run.running) continue;
    const newest = engine.closedRuns.current(run.ns, run.s.workflowId);
    if (run.running || !newest || newest.startTime <= run.s.startTime) engine.setCurrent(run);
  }
  for (const run of engine.runs.values()) {
    if (!run.running) {
      engine.retire(run);
      continue;
    }
    engine.deadlines.arm(run);
    // A task that was in flight when the server stopped is simply handed out again; events
    // buffered behind it can enter the history now.
    if (run.s.buffered.length > 0) {
      void engine.run((tx) => {
        engine.flushBuffered(tx, run);
        if (!run.s.wftRetry) engine.ensureWft(tx, run);
      });
    }
    engine.enqueueWft(run);
    for (const iid of [...(run.s.transfers ?? [])]) runTransfer(engine, run, iid);
    resumeFamily(engine, run);
    for (const a of Object.values(run.s.acts)) {
      if (a.retryAt && a.retryAt > Date.now()) continue;
      engine.enqueueActivity(run, a.sid, a.attempt);
    }
  }
}
