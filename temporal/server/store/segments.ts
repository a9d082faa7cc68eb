/**
 * Closed runs on disk: once a run has closed, its full record (state and history, one JSON line)
 * is appended to a segment file, `dataDir/closed/<n>.jsonl`, and leaves memory; the engine keeps
 * its location and what list/count queries need (engine/closed.ts), and reads it back with one
 * positioned read when asked. Records written together share one fdatasync (group commit, as
 * in the log), and a location is handed out only after it, so a location the log records always
 * points at durable bytes. A segment is deleted once no record in it is referenced any more
 * (retention deleted its runs, or newer copies replaced them); at startup, so is every segment
 * nothing references (records written just before a crash are written again from the log).
 */
import * as fs from 'fs';
import * as path from 'path';
import { fsyncDir, writeAll } from './log';

export interface Location {
  seg: number;
  off: number;
  len: number;
}

/** Size at which the next record starts a new segment (overridable for tests). */
const segmentBytes = (): number => Number(process.env.TEMPORAL_SEGMENT_BYTES) || 64 * 1024 * 1024;

interface Pending {
  text: string;
  done: (at: Location) => void;
  fail: (e: Error) => void;
}

export class Segments {
  /** Referenced records per segment. */
  private readonly live = new Map<number, number>();
  private readonly readers = new Map<number, number>();
  private active?: { seg: number; fd: number; size: number };
  private next = 1;
  private queue: Pending[] = [];
  private writing = false;
  private idle: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly dir: string,
    referenced: Iterable<Location>,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    for (const at of referenced) this.live.set(at.seg, (this.live.get(at.seg) ?? 0) + 1);
    for (const name of fs.readdirSync(dir)) {
      const seg = Number(/^(\d+)\.jsonl$/.exec(name)?.[1]);
      if (!seg) continue;
      this.next = Math.max(this.next, seg + 1);
      if (!this.live.has(seg)) fs.unlinkSync(path.join(dir, name));
    }
  }

  /** Appends one record; resolves with its location once it is on disk. */
  append(text: string): Promise<Location> {
    if (this.closed) return Promise.reject(new Error('closed-run segments are closed'));
    return new Promise((done, fail) => {
      this.queue.push({ text, done, fail });
      if (!this.writing) void this.drain();
    });
  }

  /** Writes batches until the queue is empty (every error is caught per batch, so the flag always clears). */
  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let seg: number | undefined;
      try {
        const a = this.writable();
        seg = a.seg;
        const at: Location[] = [];
        let off = a.size;
        for (const p of batch) {
          const len = Buffer.byteLength(p.text);
          at.push({ seg: a.seg, off, len });
          off += len + 1;
        }
        // Counted before the write, so a release meanwhile never deletes the segment under it.
        this.live.set(a.seg, (this.live.get(a.seg) ?? 0) + batch.length);
        await writeAll(a.fd, Buffer.from(batch.map((p) => p.text + '\n').join(''), 'utf8'));
        await new Promise<void>((res, rej) => fs.fdatasync(a.fd, (e) => (e ? rej(e) : res())));
        a.size = off;
        batch.forEach((p, i) => p.done(at[i]));
      } catch (e) {
        // The segment may hold a partial write now: later records go to a new one.
        if (seg !== undefined) {
          this.live.set(seg, (this.live.get(seg) ?? batch.length) - batch.length);
          this.retireActive();
          this.unlinkIfDead(seg);
        }
        for (const p of batch) p.fail(e as Error);
      }
    }
    // No await between the last check of the queue and here: an append meanwhile cannot be missed.
    this.writing = false;
    for (const f of this.idle.splice(0)) f();
  }

  /** The segment being appended to, starting a new one when it is full. */
  private writable(): { seg: number; fd: number; size: number } {
    if (this.active && this.active.size >= segmentBytes()) {
      const full = this.active.seg;
      this.retireActive();
      this.unlinkIfDead(full);
    }
    if (!this.active) {
      const seg = this.next++;
      const fd = fs.openSync(this.file(seg), 'a');
      fsyncDir(this.dir);
      this.active = { seg, fd, size: 0 };
    }
    return this.active;
  }

  private retireActive(): void {
    if (!this.active) return;
    fs.closeSync(this.active.fd);
    this.active = undefined;
  }

  /** Reads one record back (synchronously: a positioned read of a few KB, mostly from the page cache). */
  read(at: Location): string {
    let fd = this.readers.get(at.seg);
    if (fd === undefined) {
      fd = fs.openSync(this.file(at.seg), 'r');
      this.readers.set(at.seg, fd);
    }
    const buf = Buffer.allocUnsafe(at.len);
    let n = 0;
    while (n < at.len) {
      const got = fs.readSync(fd, buf, n, at.len - n, at.off + n);
      if (got === 0) throw new Error(`closed-run segment ${at.seg} is shorter than expected`);
      n += got;
    }
    return buf.toString('utf8');
  }

  /**
   * A record is no longer referenced (its run was deleted, or a newer copy replaced it). Call it
   * only once the log says so durably: the segment may be deleted at once.
   */
  release(at: Location): void {
    const n = (this.live.get(at.seg) ?? 0) - 1;
    this.live.set(at.seg, n);
    this.unlinkIfDead(at.seg);
  }

  private unlinkIfDead(seg: number): void {
    if ((this.live.get(seg) ?? 0) > 0) return;
    this.live.delete(seg);
    if (this.active?.seg === seg) this.retireActive();
    const fd = this.readers.get(seg);
    if (fd !== undefined) fs.closeSync(fd);
    this.readers.delete(seg);
    fs.rmSync(this.file(seg), { force: true });
  }

  /** Waits for the writes under way, then closes every file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.writing) await new Promise<void>((r) => this.idle.push(r));
    this.retireActive();
    for (const fd of this.readers.values()) fs.closeSync(fd);
    this.readers.clear();
  }

  private file(seg: number): string {
    return path.join(this.dir, `${String(seg).padStart(6, '0')}.jsonl`);
  }
}
