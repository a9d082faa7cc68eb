/**
 * Who polled each task queue lately, for DescribeTaskQueue (the UI's "Workers" tab). Like
 * Temporal, a poller is remembered for 5 minutes after its last poll; nothing is persisted.
 */
const TTL_MS = 5 * 60_000;

/** What Temporal reports as a queue's (and a poller's) rate when the worker sets no limit. */
export const DEFAULT_RATE_PER_SECOND = 100_000;

export interface PollerSeen<C> {
  identity: string;
  lastAccessMs: number;
  ratePerSecond: number;
  capabilities?: C;
}

export class Pollers<C> {
  private byQueue = new Map<string, Map<string, PollerSeen<C>>>();

  record(queueKey: string, seen: Omit<PollerSeen<C>, 'lastAccessMs'>): void {
    let q = this.byQueue.get(queueKey);
    if (!q) this.byQueue.set(queueKey, (q = new Map()));
    q.set(seen.identity, { ...seen, lastAccessMs: Date.now() });
  }

  /** Recent pollers, most recent first; forgets the expired ones. */
  list(queueKey: string, now = Date.now()): PollerSeen<C>[] {
    const q = this.byQueue.get(queueKey);
    if (!q) return [];
    for (const [id, p] of q) if (now - p.lastAccessMs > TTL_MS) q.delete(id);
    if (q.size === 0) this.byQueue.delete(queueKey);
    return [...q.values()].sort((a, b) => b.lastAccessMs - a.lastAccessMs);
  }
}
