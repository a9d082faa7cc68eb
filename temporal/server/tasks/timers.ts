/**
 * One process-wide timer heap driving every deadline (user timers, task timeouts, retry
 * backoffs): thousands of pending deadlines cost one Node timer, and cancelling is O(1)
 * (a cancelled entry is skipped when it reaches the top).
 */
export interface TimerHandle {
  cancel(): void;
}

interface Entry {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class TimerHeap {
  private heap: Entry[] = [];
  private seq = 0;
  private handle: NodeJS.Timeout | undefined;
  private armedAt = Infinity;
  private stopped = false;
  /** Cancelled entries still in the heap. */
  private cancelled = 0;

  at(when: number, fn: () => void): TimerHandle {
    const e: Entry = { at: when, seq: this.seq++, fn, cancelled: false };
    this.push(e);
    this.arm();
    return { cancel: () => this.cancel(e) };
  }

  /**
   * A cancelled entry lets go of its callback at once (it holds a run, and a long deadline would
   * keep a closed run in memory until it was due); the heap drops such entries when they are most
   * of it.
   */
  private cancel(e: Entry): void {
    if (e.cancelled) return;
    e.cancelled = true;
    e.fn = noop;
    if (++this.cancelled > 1024 && this.cancelled * 2 > this.heap.length) {
      // A sorted array is a heap.
      this.heap = this.heap.filter((x) => !x.cancelled).sort((a, b) => a.at - b.at || a.seq - b.seq);
      this.cancelled = 0;
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.handle) clearTimeout(this.handle);
    this.heap = [];
    this.cancelled = 0;
  }

  private arm(): void {
    if (this.stopped) return;
    const top = this.heap[0];
    if (!top) return;
    if (this.handle && this.armedAt <= top.at) return;
    if (this.handle) clearTimeout(this.handle);
    this.armedAt = top.at;
    // setTimeout caps at ~24.8 days; a long deadline simply re-arms when it wakes early.
    const delay = Math.min(Math.max(0, top.at - Date.now()), 2 ** 31 - 1);
    this.handle = setTimeout(() => this.run(), delay);
  }

  private run(): void {
    this.handle = undefined;
    this.armedAt = Infinity;
    const now = Date.now();
    while (this.heap.length > 0 && this.heap[0].at <= now) {
      const e = this.pop()!;
      if (e.cancelled) {
        this.cancelled--;
        continue;
      }
      try {
        e.fn();
      } catch {
        // A failing callback must not stop other deadlines; callbacks log their own errors.
      }
    }
    this.arm();
  }

  private less(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(e: Entry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function noop(): void {}
