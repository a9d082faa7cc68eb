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

  at(when: number, fn: () => void): TimerHandle {
    const e: Entry = { at: when, seq: this.seq++, fn, cancelled: false };
    this.push(e);
    this.arm();
    return { cancel: () => void (e.cancelled = true) };
  }

  stop(): void {
    this.stopped = true;
    if (this.handle) clearTimeout(this.handle);
    this.heap = [];
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
      if (e.cancelled) continue;
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
