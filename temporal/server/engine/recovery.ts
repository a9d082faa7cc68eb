/**
 * Startup after a restart (or a crash): rebuilds the in-memory indexes from the loaded runs and
 * hands out again whatever was outstanding. Tasks held by workers were never persisted, so they
 * are simply dispatched anew.
 */
import type { Engine } from './engine';
import { Run, RunState } from './state';
import { runTransfer } from './transfers';
import { resumeFamily } from './children';

export function recover(engine: Engine, loaded: { ns: string; state: RunState; events: string[] }[]): void {
  const sorted = [...loaded].sort((a, b) => a.state.startTime - b.state.startTime);
  for (const l of sorted) {
    // Runs persisted before roots were kept: each is its own root (state.ts).
    l.state.root ??= { workflowId: l.state.workflowId, runId: l.state.runId };
    const run = new Run(l.ns, l.state);
    run.load(l.events);
    run.flushed = run.length;
    engine.runs.set(engine.key(l.ns, l.state.runId), run);
    const curKey = `${l.ns}/${l.state.workflowId}`;
    // Runs come oldest first: the latest one is current, but a running one always wins.
    const cur = engine.current.get(curKey);
    if (!cur || !cur.running || run.running) engine.current.set(curKey, run);
  }
  for (const run of engine.runs.values()) {
    if (!run.running) continue;
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
