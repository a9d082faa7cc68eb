/**
 * Closed runs once their full record is on disk (store/segments.ts). What stays in memory per run
 * is its location and what list and count queries filter on: ids, type, task queue, status,
 * times, parent and root, and its search attribute values, packed in a buffer
 * (engine/closed-index.ts). Everything else (state, history, memo) is read back from its segment
 * when a call asks for it (Engine.find).
 */
import type { Location } from '../store/segments';
import type { ClosedRecord } from '../store/log';
import type { Run, RunStatus } from './state';
import { decodeFields } from './fields';
import { ClosedIndex, Codes } from './closed-index';

export interface ExecutionRef {
  workflowId: string;
  runId: string;
}

/** Kept with the location in the log (ClosedRecord.v), so startup reads no segment. */
export interface ClosedSummary {
  workflowId: string;
  type: string;
  taskQueue: string;
  status: RunStatus;
  startTime: number;
  closeTime: number;
  executionTime?: number;
  parent?: ExecutionRef;
  /** Unset: the run is its own root. */
  root?: ExecutionRef;
  /** Search attribute values as list queries compare them (JSON payloads, decoded). */
  sa?: Record<string, unknown>;
  /** The types its search attribute payloads declared (engine/search-attributes.ts). */
  saTypes?: Record<string, string>;
}

/** A closed run on disk as the index describes it (decoded from engine/closed-index.ts when asked). */
export class ClosedRun {
  readonly workflowId: string;
  readonly type: string;
  readonly taskQueue: string;
  readonly status: RunStatus;
  readonly startTime: number;
  readonly closeTime: number;
  readonly executionTime: number | undefined;
  readonly parent: ExecutionRef | undefined;
  readonly root: ExecutionRef | undefined;
  readonly sa: Record<string, unknown> | undefined;
  readonly saTypes: Record<string, string> | undefined;

  constructor(
    readonly ns: string,
    readonly runId: string,
    v: ClosedSummary,
    readonly at: Location,
  ) {
    this.workflowId = v.workflowId;
    this.type = v.type;
    this.taskQueue = v.taskQueue;
    this.status = v.status;
    this.startTime = v.startTime;
    this.closeTime = v.closeTime;
    this.executionTime = v.executionTime;
    this.parent = v.parent;
    this.root = v.root;
    this.sa = v.sa;
    this.saTypes = v.saTypes;
  }

  record(): ClosedRecord {
    const v: ClosedSummary = {
      workflowId: this.workflowId,
      type: this.type,
      taskQueue: this.taskQueue,
      status: this.status,
      startTime: this.startTime,
      closeTime: this.closeTime,
      executionTime: this.executionTime,
      parent: this.parent,
      root: this.root,
      sa: this.sa,
      saTypes: this.saTypes,
    };
    return { k: 'closed', ns: this.ns, runId: this.runId, at: this.at, v };
  }
}

/** What a closed run keeps in memory, taken from its state when it goes to disk. */
export function summarise(run: Run): ClosedSummary {
  const s = run.s;
  const sa: Record<string, unknown> = {};
  const saTypes: Record<string, string> = {};
  for (const [k, p] of Object.entries(decodeFields(s.sa))) {
    const type = p.metadata?.type ? Buffer.from(p.metadata.type).toString('utf8') : '';
    if (type) saTypes[k] = type;
    try {
      sa[k] = JSON.parse(Buffer.from(p.data ?? []).toString('utf8'));
    } catch {
      /* not JSON: not searchable */
    }
  }
  const ownRoot = s.root.workflowId === s.workflowId && s.root.runId === s.runId;
  return {
    workflowId: s.workflowId,
    type: s.type,
    taskQueue: s.taskQueue,
    status: s.status,
    startTime: s.startTime,
    closeTime: s.closeTime ?? s.startTime,
    executionTime: s.executionTime,
    parent: s.parent && { workflowId: s.parent.workflowId, runId: s.parent.runId },
    root: ownRoot ? undefined : { workflowId: s.root.workflowId, runId: s.root.runId },
    sa: Object.keys(sa).length ? sa : undefined,
    saTypes: Object.keys(saTypes).length ? saTypes : undefined,
  };
}

/** Closed runs on disk of every namespace: one packed index each (engine/closed-index.ts). */
export class ClosedRuns {
  private readonly byNs = new Map<string, ClosedIndex>();
  private readonly codes = new Codes();

  entry(ns: string, runId: string, v: ClosedSummary, at: Location): ClosedRun {
    return new ClosedRun(ns, runId, v, at);
  }

  private index(ns: string): ClosedIndex {
    let i = this.byNs.get(ns);
    if (!i) this.byNs.set(ns, (i = new ClosedIndex(ns, this.codes, (n, runId, v, at) => new ClosedRun(n, runId, v, at))));
    return i;
  }

  /** Adds a run (replacing an entry of the same run). */
  set(c: ClosedRun): void {
    const i = this.index(c.ns);
    i.delete(c.workflowId, c.runId);
    i.add(c);
  }

  get(ns: string, workflowId: string, runId: string): ClosedRun | undefined {
    return this.byNs.get(ns)?.get(workflowId, runId);
  }

  /** The newest closed run of a workflow id. */
  current(ns: string, workflowId: string): ClosedRun | undefined {
    return this.byNs.get(ns)?.current(workflowId);
  }

  delete(c: ClosedRun): void {
    this.byNs.get(c.ns)?.delete(c.workflowId, c.runId);
  }

  inNamespace(ns: string): Iterable<ClosedRun> {
    return this.byNs.get(ns)?.entries() ?? [];
  }

  *all(): Iterable<ClosedRun> {
    for (const i of this.byNs.values()) yield* i.entries();
  }

  /** Every run as it is now, read lazily from a copy (ClosedIndex.frozen). */
  frozen(): Iterable<ClosedRun> {
    const parts = [...this.byNs.values()].map((i) => i.frozen());
    return (function* () {
      for (const p of parts) yield* p;
    })();
  }

  /** Runs closed before their namespace's cutoff time. */
  closedBefore(cutoff: (ns: string) => number): ClosedRun[] {
    return [...this.byNs.values()].flatMap((i) => i.closedBefore(cutoff(i.ns)));
  }

}
