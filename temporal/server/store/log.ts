/**
 * Durable store: an append-only JSON-lines log plus a snapshot file, in one data directory.
 *
 * Every accepted change is written as one record; `append` resolves only after the bytes are
 * fsynced, so callers acknowledge a request only once it survives a crash (even SIGKILL).
 * Appends that arrive while an fsync is running are written together by the next one (group
 * commit), which keeps throughput high with few disk flushes.
 *
 * Every log line carries a sequence number and the snapshot records the last one it covers,
 * so a crash between writing a snapshot and truncating the log replays nothing twice: that is
 * what makes compaction crash-safe.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ScheduleState } from '../schedules/state';
import type { ClosedSummary } from '../engine/closed';
import type { Location } from './segments';

export interface NamespaceRecord {
  k: 'ns';
  name: string;
  id: string;
  description: string;
  ownerEmail: string;
  retentionDays: number;
  data: Record<string, string>;
  /** Custom search attributes registered through the OperatorService: name → type (e.g. 'Datetime'). */
  searchAttributes?: Record<string, string>;
}

export interface RunRecord<S> {
  k: 'run';
  ns: string;
  runId: string;
  /** Full state of the run after the change. */
  s: S;
  /** Event id of the first event in `ev`. */
  from: number;
  /** Base64 protobuf-encoded history events added by the change. */
  ev: string[];
}

/** A closed run dropped after the namespace's retention period. */
export interface DeleteRecord {
  k: 'del';
  ns: string;
  runId: string;
}

/** A schedule's full state after a change (schedules/); `s: null` deletes it. */
export interface ScheduleRecord {
  k: 'sched';
  ns: string;
  id: string;
  s: ScheduleState | null;
}

/**
 * A closed run whose full record moved to a segment file (store/segments.ts): where it is, and
 * what the engine keeps of it in memory (engine/closed.ts). Earlier run records of the run no
 * longer matter; a later one (the run changed again) replaces it.
 */
export interface ClosedRecord {
  k: 'closed';
  ns: string;
  runId: string;
  at: Location;
  v: ClosedSummary;
}

export type LogRecord<S> = NamespaceRecord | RunRecord<S> | DeleteRecord | ScheduleRecord | ClosedRecord;

export interface LoadedRun<S> {
  ns: string;
  runId: string;
  state: S;
  events: string[];
}

export interface Loaded<S> {
  namespaces: NamespaceRecord[];
  runs: LoadedRun<S>[];
  /** Closed runs on disk (segments), by their latest record. */
  closed: ClosedRecord[];
  schedules: ScheduleRecord[];
}

/** Log size that triggers compaction (overridable for tests). */
const compactBytes = (): number => Number(process.env.TEMPORAL_COMPACT_BYTES) || 128 * 1024 * 1024;

interface SeqLine {
  /** Sequence number of a log line; a snapshot header carries the last one it includes. */
  q?: number;
  k: string;
}

export class Store<S> {
  private fd: number | undefined;
  private pending: string[] = [];
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing = false;
  private logBytes = 0;
  private closed = false;
  private lockFd: number | undefined;
  private seq = 0;

  private constructor(
    private readonly dir: string | undefined,
    private readonly snapshotProvider: () => Iterable<LogRecord<S>>,
  ) {}

  /** Opens (or creates) the store; without a directory it keeps nothing (in-memory mode). */
  static open<S>(
    dir: string | undefined,
    snapshotProvider: () => Iterable<LogRecord<S>>,
  ): { store: Store<S>; loaded: Loaded<S> } {
    const store = new Store<S>(dir, snapshotProvider);
    const loaded: Loaded<S> = { namespaces: [], runs: [], closed: [], schedules: [] };
    if (!dir) return { store, loaded };
    fs.mkdirSync(dir, { recursive: true });
    store.lock(dir);
    const nsByName = new Map<string, NamespaceRecord>();
    const runs = new Map<string, LoadedRun<S>>();
    const closed = new Map<string, ClosedRecord>();
    const schedules = new Map<string, ScheduleRecord>();
    let covered = 0;
    const apply = (rec: LogRecord<S>): void => {
      if (rec.k === 'ns') {
        nsByName.set(rec.name, rec);
        return;
      }
      if (rec.k === 'del') {
        runs.delete(`${rec.ns}/${rec.runId}`);
        closed.delete(`${rec.ns}/${rec.runId}`);
        return;
      }
      if (rec.k === 'closed') {
        runs.delete(`${rec.ns}/${rec.runId}`);
        closed.set(`${rec.ns}/${rec.runId}`, rec);
        return;
      }
      if (rec.k === 'sched') {
        if (rec.s) schedules.set(`${rec.ns}/${rec.id}`, rec);
        else schedules.delete(`${rec.ns}/${rec.id}`);
        return;
      }
      const key = `${rec.ns}/${rec.runId}`;
      // A run changed after it went to disk: the engine then writes it whole (from event 1).
      closed.delete(key);
      let run = runs.get(key);
      if (!run) {
        run = { ns: rec.ns, runId: rec.runId, state: rec.s, events: [] };
        runs.set(key, run);
      }
      run.state = rec.s;
      // Skip events already present (a log replayed over a newer snapshot).
      const skip = run.events.length + 1 - rec.from;
      for (let i = Math.max(0, skip); i < rec.ev.length; i++) run.events.push(rec.ev[i]);
    };
    for (const file of ['snapshot.jsonl', 'log.jsonl']) {
      const p = path.join(dir, file);
      if (!fs.existsSync(p)) continue;
      const text = fs.readFileSync(p, 'utf8');
      for (const line of text.split('\n')) {
        if (!line) continue;
        let rec: LogRecord<S> & SeqLine;
        try {
          rec = JSON.parse(line) as LogRecord<S> & SeqLine;
        } catch {
          continue; // a torn final line from a crash mid-write was never acknowledged
        }
        if ((rec.k as string) === 'hdr') {
          covered = rec.q ?? 0;
          store.seq = Math.max(store.seq, covered);
          continue;
        }
        if (file === 'log.jsonl' && rec.q !== undefined) {
          if (rec.q <= covered) continue; // already in the snapshot
          store.seq = Math.max(store.seq, rec.q);
        }
        apply(rec);
      }
    }
    loaded.namespaces = [...nsByName.values()];
    loaded.runs = [...runs.values()];
    loaded.closed = [...closed.values()];
    loaded.schedules = [...schedules.values()];
    const logPath = path.join(dir, 'log.jsonl');
    truncateTornTail(logPath);
    store.fd = fs.openSync(logPath, 'a');
    store.logBytes = fs.fstatSync(store.fd).size;
    return { store, loaded };
  }

  /** Refuses a second server on the same directory: two writers would corrupt the log. */
  private lock(dir: string): void {
    const lockPath = path.join(dir, 'LOCK');
    try {
      const pid = Number(fs.readFileSync(lockPath, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(`Temporal data directory ${dir} is in use by process ${pid}`);
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    fs.writeFileSync(lockPath, String(process.pid));
    this.lockFd = 1;
  }

  get durable(): boolean {
    return this.dir !== undefined;
  }

  append(records: LogRecord<S>[]): Promise<void> {
    if (!this.dir || records.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('store closed'));
    let text = '';
    for (const r of records) text += JSON.stringify({ ...r, q: ++this.seq }) + '\n';
    this.pending.push(text);
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.flushing) void this.flush();
    return p;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const chunk = this.pending.join('');
        const waiters = this.waiters;
        this.pending = [];
        this.waiters = [];
        try {
          if (this.logBytes > compactBytes()) await this.compact();
          await writeAll(this.fd!, Buffer.from(chunk, 'utf8'));
          await new Promise<void>((res, rej) => fs.fdatasync(this.fd!, (e) => (e ? rej(e) : res())));
          this.logBytes += Buffer.byteLength(chunk);
          for (const w of waiters) w.resolve();
        } catch (e) {
          for (const w of waiters) w.reject(e as Error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Writes the whole current state to a new snapshot, then starts an empty log. */
  private async compact(): Promise<void> {
    const dir = this.dir!;
    const tmp = path.join(dir, 'snapshot.tmp');
    const fd = fs.openSync(tmp, 'w');
    try {
      // Everything appended so far (even still unwritten) is already in the in-memory state.
      let buf = JSON.stringify({ k: 'hdr', q: this.seq }) + '\n';
      for (const rec of this.snapshotProvider()) {
        buf += JSON.stringify(rec) + '\n';
        if (buf.length > 1 << 20) {
          await writeAll(fd, Buffer.from(buf, 'utf8'));
          buf = '';
        }
      }
      await writeAll(fd, Buffer.from(buf, 'utf8'));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path.join(dir, 'snapshot.jsonl'));
    fsyncDir(dir);
    fs.closeSync(this.fd!);
    this.fd = fs.openSync(path.join(dir, 'log.jsonl'), 'w');
    fsyncDir(dir);
    this.logBytes = 0;
  }

  async close(): Promise<void> {
    while (this.flushing || this.pending.length > 0) await new Promise((r) => setTimeout(r, 5));
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    if (this.dir && this.lockFd !== undefined) {
      try {
        fs.unlinkSync(path.join(this.dir, 'LOCK'));
      } catch {
        /* already gone */
      }
    }
  }
}

/**
 * A crash mid-write can leave a partial last line (never acknowledged). Cut it off, or the next
 * append would be glued to it and lost on the following load.
 */
function truncateTornTail(p: string): void {
  if (!fs.existsSync(p)) return;
  const size = fs.statSync(p).size;
  if (size === 0) return;
  const fd = fs.openSync(p, 'r+');
  try {
    const chunk = Buffer.alloc(Math.min(size, 1 << 20));
    let end = size;
    // Scan backwards for the last newline.
    for (;;) {
      const start = Math.max(0, end - chunk.length);
      const n = fs.readSync(fd, chunk, 0, end - start, start);
      const i = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (i >= 0) {
        const keep = start + i + 1;
        if (keep !== size) fs.ftruncateSync(fd, keep);
        return;
      }
      if (start === 0) {
        fs.ftruncateSync(fd, 0);
        return;
      }
      end = start;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A live process with this pid that is a Node process (a recycled pid after a reboot is not). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc (not Linux): trust the pid
  }
}

export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function writeAll(fd: number, buf: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (off: number): void => {
      if (off >= buf.length) return resolve();
      fs.write(fd, buf, off, buf.length - off, null, (err, n) => (err ? reject(err) : step(off + n)));
    };
    step(0);
  });
}
