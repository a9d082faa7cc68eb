/**
 * Task queues: match queued tasks with long-polling workers. Tasks are references; each poller
 * decides at dispatch time whether a task is still valid (it may have been cancelled or timed
 * out while queued), so nothing here is persisted: after a restart the engine re-enqueues
 * everything that is scheduled.
 */
export type Dispatch<T, R> = (task: T) => R | undefined;

interface Poller<T, R> {
  dispatch: Dispatch<T, R>;
  resolve: (r: R | undefined) => void;
}

class Queue<T, R> {
  tasks: T[] = [];
  pollers: Poller<T, R>[] = [];
}

export class Matching<T, R> {
  private queues = new Map<string, Queue<T, R>>();

  constructor(private readonly pollTimeoutMs: number) {}

  private q(key: string): Queue<T, R> {
    let q = this.queues.get(key);
    if (!q) {
      q = new Queue<T, R>();
      this.queues.set(key, q);
    }
    return q;
  }

  /** Offers a task: hands it to the longest-waiting poller, otherwise queues it. */
  add(key: string, task: T): void {
    const q = this.q(key);
    const p = q.pollers[0];
    if (p) {
      const r = p.dispatch(task);
      if (r === undefined) return; // stale task: dropped, the poller keeps waiting
      q.pollers.shift();
      p.resolve(r);
      return;
    }
    q.tasks.push(task);
  }

  backlog(key: string): number {
    return this.queues.get(key)?.tasks.length ?? 0;
  }

  /**
   * Long-polls: resolves with the first valid task, or undefined at the poll timeout or when the
   * caller cancels (the worker went away or shut down).
   */
  poll(key: string, dispatch: Dispatch<T, R>, onCancel: (cb: () => void) => void): Promise<R | undefined> {
    const q = this.q(key);
    while (q.tasks.length > 0) {
      const r = dispatch(q.tasks.shift()!);
      if (r !== undefined) return Promise.resolve(r);
    }
    return new Promise((resolve) => {
      let done = false;
      const poller: Poller<T, R> = {
        dispatch,
        resolve: (r) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(r);
        },
      };
      const remove = (): void => {
        const i = q.pollers.indexOf(poller);
        if (i >= 0) q.pollers.splice(i, 1);
        poller.resolve(undefined);
      };
      const timer = setTimeout(remove, this.pollTimeoutMs);
      onCancel(remove);
      q.pollers.push(poller);
    });
  }

  /** Answers every waiting poller with an empty response (server shutdown). */
  drain(): void {
    for (const q of this.queues.values()) {
      const ps = q.pollers;
      q.pollers = [];
      for (const p of ps) p.resolve(undefined);
    }
  }
}
