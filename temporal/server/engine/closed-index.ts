/**
 * The packed index of one namespace's closed runs on disk. Each run is one record of a few dozen
 * bytes in a single growable buffer, outside V8's heap: no object, string or Map entry per run.
 * Such objects cost ~400 bytes a run, and V8 sizes its heap as a multiple of what is live, so the
 * process grew ~1.7 KB per closed run (docs/benchmarks.md "Embedded Temporal: soak"). Runs are
 * found by workflow id through an open-addressing hash table of chain heads (a chain links a
 * workflow id's runs, newest first), and decoded into ClosedRun objects only when asked.
 *
 * Record layout (little-endian), then the workflow id (UTF-8) and the extra JSON (parent, root,
 * search attributes and their types, when the run has them).
 */
import type { ClosedRun, ClosedSummary } from './closed';
import type { Location } from '../store/segments';
import { EXECUTION_STATUSES } from '../visibility/types';

const PREV = 0; // u32: record of the next older run of the workflow id (0: none)
const SEG = 4; // u32
const OFF = 8; // u32
const LEN = 12; // u32
const START = 16; // f64
const CLOSE = 24; // f64
const EXEC = 32; // f64 (NaN: unset)
const TYPE = 40; // u32: code of the workflow type
const QUEUE = 44; // u32: code of the task queue
const STATUS = 48; // u8: index of the status in EXECUTION_STATUSES
const FLAGS = 49; // u8
const WF_LEN = 50; // u16
const EXTRA_LEN = 52; // u32
const RUN_ID = 56; // 16 bytes: the run id (a UUID) in binary
const HEADER = 72;

const LIVE = 1;
/** The run id is not a lowercase UUID (never from this server, but accepted): it is in the extra JSON. */
const RUN_ID_IN_EXTRA = 2;

/** Table values: 0 is an empty slot, 1 a deleted one; record offsets start at 8. */
const EMPTY = 0;
const DELETED = 1;
const FIRST = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Extra {
  parent?: ClosedSummary['parent'];
  root?: ClosedSummary['root'];
  sa?: ClosedSummary['sa'];
  saTypes?: ClosedSummary['saTypes'];
  runId?: string;
}

/** Strings that repeat across runs (workflow types, task queues), stored once and named by number. */
export class Codes {
  private readonly byText = new Map<string, number>();
  private readonly texts: string[] = [];

  code(text: string): number {
    let n = this.byText.get(text);
    if (n === undefined) {
      n = this.texts.push(text) - 1;
      this.byText.set(text, n);
    }
    return n;
  }

  text(code: number): string {
    return this.texts[code];
  }
}

function live(h: Buffer, o: number): boolean {
  return (h.readUInt8(o + FLAGS) & LIVE) !== 0;
}

function sizeAt(h: Buffer, o: number): number {
  return HEADER + h.readUInt16LE(o + WF_LEN) + h.readUInt32LE(o + EXTRA_LEN);
}

/** FNV-1a over the bytes. */
function hash(b: Buffer): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h >>> 0;
}

export class ClosedIndex {
  private heap = Buffer.alloc(64 * 1024);
  private used = FIRST;
  private dead = 0;
  /** Chain heads by workflow id. */
  private table = new Uint32Array(1024);
  /** Slots not empty (heads and deleted ones). */
  private filled = 0;

  constructor(
    readonly ns: string,
    private readonly codes: Codes,
    private readonly view: (ns: string, runId: string, v: ClosedSummary, at: Location) => ClosedRun,
  ) {}

  add(c: ClosedRun): void {
    const wf = Buffer.from(c.workflowId, 'utf8');
    const uuid = UUID.test(c.runId);
    const extra: Extra = { parent: c.parent, root: c.root, sa: c.sa, saTypes: c.saTypes, runId: uuid ? undefined : c.runId };
    const extraText = extra.parent || extra.root || extra.sa || extra.saTypes || extra.runId ? JSON.stringify(extra) : '';
    const extraLen = Buffer.byteLength(extraText);
    const size = HEADER + wf.length + extraLen;
    this.reserve(size);
    const h = this.heap;
    const o = this.used;
    h.fill(0, o, o + HEADER);
    h.writeUInt32LE(c.at.seg, o + SEG);
    h.writeUInt32LE(c.at.off, o + OFF);
    h.writeUInt32LE(c.at.len, o + LEN);
    h.writeDoubleLE(c.startTime, o + START);
    h.writeDoubleLE(c.closeTime, o + CLOSE);
    h.writeDoubleLE(c.executionTime ?? NaN, o + EXEC);
    h.writeUInt32LE(this.codes.code(c.type), o + TYPE);
    h.writeUInt32LE(this.codes.code(c.taskQueue), o + QUEUE);
    h.writeUInt8(EXECUTION_STATUSES.indexOf(c.status), o + STATUS);
    h.writeUInt8(LIVE | (uuid ? 0 : RUN_ID_IN_EXTRA), o + FLAGS);
    h.writeUInt16LE(wf.length, o + WF_LEN);
    h.writeUInt32LE(extraLen, o + EXTRA_LEN);
    if (uuid) h.write(c.runId.replace(/-/g, ''), o + RUN_ID, 16, 'hex');
    wf.copy(h, o + HEADER);
    if (extraLen) h.write(extraText, o + HEADER + wf.length, extraLen, 'utf8');
    this.used += size;
    this.link(wf, o, c.startTime);
  }

  /** The newest closed run of the workflow id. */
  current(workflowId: string): ClosedRun | undefined {
    const head = this.head(Buffer.from(workflowId, 'utf8'));
    return head ? this.decode(head) : undefined;
  }

  get(workflowId: string, runId: string): ClosedRun | undefined {
    const o = this.find(Buffer.from(workflowId, 'utf8'), runId)?.at;
    return o ? this.decode(o) : undefined;
  }

  delete(workflowId: string, runId: string): boolean {
    const wf = Buffer.from(workflowId, 'utf8');
    const found = this.find(wf, runId);
    if (!found) return false;
    const { at, before } = found;
    const prev = this.heap.readUInt32LE(at + PREV);
    if (before) this.heap.writeUInt32LE(prev, before + PREV);
    else this.setHead(wf, prev);
    this.heap.writeUInt8(this.heap.readUInt8(at + FLAGS) & ~LIVE, at + FLAGS);
    this.dead += sizeAt(this.heap, at);
    if (this.dead > 1 << 20 && this.dead * 2 > this.used) this.compact();
    return true;
  }

  /** Every run, decoded one at a time (not to be deleted from meanwhile: a deletion may compact the buffer). */
  *entries(): Iterable<ClosedRun> {
    for (let o = FIRST; o < this.used; o += sizeAt(this.heap, o)) if (live(this.heap, o)) yield this.decode(o);
  }

  /**
   * Every run as it is now, decoded lazily from a copy of the buffer (a few dozen bytes a run):
   * compaction writes its snapshot in chunks while runs keep changing.
   */
  frozen(): Iterable<ClosedRun> {
    const heap = Buffer.from(this.heap.subarray(0, this.used));
    const decode = (o: number): ClosedRun => this.decode(o, heap);
    return (function* () {
      for (let o = FIRST; o < heap.length; o += sizeAt(heap, o)) if (live(heap, o)) yield decode(o);
    })();
  }

  /** Runs closed before `t` (only those are decoded). */
  closedBefore(t: number): ClosedRun[] {
    const out: ClosedRun[] = [];
    for (let o = FIRST; o < this.used; o += sizeAt(this.heap, o)) {
      if (live(this.heap, o) && this.heap.readDoubleLE(o + CLOSE) <= t) out.push(this.decode(o));
    }
    return out;
  }

  // ------------------------------------------------------------------ records

  private decode(o: number, h = this.heap): ClosedRun {
    const wfLen = h.readUInt16LE(o + WF_LEN);
    const extraLen = h.readUInt32LE(o + EXTRA_LEN);
    const extra: Extra = extraLen ? JSON.parse(h.toString('utf8', o + HEADER + wfLen, o + HEADER + wfLen + extraLen)) : {};
    let runId = extra.runId;
    if (!(h.readUInt8(o + FLAGS) & RUN_ID_IN_EXTRA)) {
      const hex = h.toString('hex', o + RUN_ID, o + RUN_ID + 16);
      runId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    const exec = h.readDoubleLE(o + EXEC);
    const v: ClosedSummary = {
      workflowId: h.toString('utf8', o + HEADER, o + HEADER + wfLen),
      type: this.codes.text(h.readUInt32LE(o + TYPE)),
      taskQueue: this.codes.text(h.readUInt32LE(o + QUEUE)),
      status: EXECUTION_STATUSES[h.readUInt8(o + STATUS)],
      startTime: h.readDoubleLE(o + START),
      closeTime: h.readDoubleLE(o + CLOSE),
      executionTime: Number.isNaN(exec) ? undefined : exec,
      parent: extra.parent,
      root: extra.root,
      sa: extra.sa,
      saTypes: extra.saTypes,
    };
    const at = { seg: h.readUInt32LE(o + SEG), off: h.readUInt32LE(o + OFF), len: h.readUInt32LE(o + LEN) };
    return this.view(this.ns, runId!, v, at);
  }

  private runIdIs(o: number, runId: string): boolean {
    if (this.heap.readUInt8(o + FLAGS) & RUN_ID_IN_EXTRA) return this.decode(o).runId === runId;
    return UUID.test(runId) && this.heap.toString('hex', o + RUN_ID, o + RUN_ID + 16) === runId.replace(/-/g, '');
  }

  private reserve(size: number): void {
    if (this.used + size <= this.heap.length) return;
    const next = Buffer.alloc(Math.max(this.heap.length * 2, this.used + size));
    this.heap.copy(next, 0, 0, this.used);
    this.heap = next;
  }

  /** Copies the live records into a new buffer (deleted ones leave holes) and rebuilds the table. */
  private compact(): void {
    const old = this.heap;
    const moved = new Map<number, number>();
    this.heap = Buffer.alloc(Math.max(64 * 1024, (this.used - this.dead) * 2));
    let n = FIRST;
    for (let o = FIRST; o < this.used; ) {
      const size = sizeAt(old, o);
      if (live(old, o)) {
        old.copy(this.heap, n, o, o + size);
        moved.set(o, n);
        n += size;
      }
      o += size;
    }
    this.used = n;
    this.dead = 0;
    for (let o = FIRST; o < this.used; o += sizeAt(this.heap, o)) this.heap.writeUInt32LE(moved.get(this.heap.readUInt32LE(o + PREV)) ?? 0, o + PREV);
    const heads = [...this.table].filter((v) => v > DELETED).map((v) => moved.get(v)!);
    this.rebuildTable(heads, this.table.length);
  }

  // ------------------------------------------------------------------ chains by workflow id

  private wfIs(o: number, wf: Buffer): boolean {
    const len = this.heap.readUInt16LE(o + WF_LEN);
    return len === wf.length && this.heap.compare(wf, 0, wf.length, o + HEADER, o + HEADER + len) === 0;
  }

  /** The table slot holding the workflow id's chain head, or -1. */
  private slot(wf: Buffer): number {
    const mask = this.table.length - 1;
    for (let i = hash(wf) & mask; ; i = (i + 1) & mask) {
      const v = this.table[i];
      if (v === EMPTY) return -1;
      if (v !== DELETED && this.wfIs(v, wf)) return i;
    }
  }

  private head(wf: Buffer): number {
    const i = this.slot(wf);
    return i < 0 ? 0 : this.table[i];
  }

  /** The record of a run and the newer record of its chain that points at it (none: it is the head). */
  private find(wf: Buffer, runId: string): { at: number; before: number } | undefined {
    let before = 0;
    for (let o = this.head(wf); o; before = o, o = this.heap.readUInt32LE(o + PREV)) {
      if (this.runIdIs(o, runId)) return { at: o, before };
    }
    return undefined;
  }

  /** Puts a new record into its workflow id's chain, newest first. */
  private link(wf: Buffer, o: number, startTime: number): void {
    let before = 0;
    let next = this.head(wf);
    while (next && this.heap.readDoubleLE(next + START) > startTime) {
      before = next;
      next = this.heap.readUInt32LE(next + PREV);
    }
    this.heap.writeUInt32LE(next, o + PREV);
    if (before) this.heap.writeUInt32LE(o, before + PREV);
    else this.setHead(wf, o);
  }

  private setHead(wf: Buffer, o: number): void {
    const i = this.slot(wf);
    if (i >= 0) {
      this.table[i] = o || DELETED;
      return;
    }
    if (!o) return;
    if ((this.filled + 1) * 2 > this.table.length) {
      const heads = [...this.table].filter((v) => v > DELETED);
      this.rebuildTable(heads, heads.length * 4 > this.table.length ? this.table.length * 2 : this.table.length);
    }
    const mask = this.table.length - 1;
    let i2 = hash(wf) & mask;
    while (this.table[i2] > DELETED) i2 = (i2 + 1) & mask;
    if (this.table[i2] === EMPTY) this.filled++;
    this.table[i2] = o;
  }

  private rebuildTable(heads: number[], length: number): void {
    this.table = new Uint32Array(length);
    this.filled = 0;
    const mask = length - 1;
    for (const o of heads) {
      const wf = this.heap.subarray(o + HEADER, o + HEADER + this.heap.readUInt16LE(o + WF_LEN));
      let i = hash(wf) & mask;
      while (this.table[i] !== EMPTY) i = (i + 1) & mask;
      this.table[i] = o;
      this.filled++;
    }
  }
}
