// Preload (`node --require bench/thread-names.cjs`) that lets the bench tell a process's threads
// apart in /proc/<pid>/task: Node 20 gives every thread the name "node". Plain CommonJS because it
// also runs in each worker thread, where tsx is not registered (src/threads.ts).
// - In a worker thread: renames the thread to `nodew<threadId>` (a thread may write its own comm).
// - In the main thread: wraps worker_threads.Worker to remember each thread's entry file by
//   threadId, read back by bench/threads.ts `threadLabels()`.
const wt = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');

if (!wt.isMainThread) {
  try {
    fs.writeFileSync('/proc/thread-self/comm', `nodew${wt.threadId}`);
  } catch {
    // not Linux: the threads stay unnamed
  }
} else {
  const labels = (globalThis[Symbol.for('bench.threadLabels')] = {});
  const Original = wt.Worker;
  // src/threads.ts evaluates `require("<entry>")` under tsx; the SDK passes a file name.
  const labelOf = (filename, options) => {
    const text = String(filename);
    const entries = options && options.eval ? [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]) : [text];
    return path.basename(entries.at(-1) ?? 'eval').replace(/\.[cm]?[jt]s$/, '');
  };
  wt.Worker = class LabelledWorker extends Original {
    constructor(filename, options) {
      super(filename, options);
      labels[this.threadId] = labelOf(filename, options);
    }
  };
}
