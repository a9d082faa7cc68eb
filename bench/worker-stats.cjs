// The at-scale workers' preload (`node --require bench/worker-stats.cjs`, bench/engine.ts): loads
// bench/worker-stats.ts in the main thread only. Preloads also run in every worker thread, where
// tsx is not registered (src/threads.ts), so this shim is plain CommonJS.
if (require('node:worker_threads').isMainThread) {
  if (!require.extensions['.ts']) require('tsx/cjs');
  require('./worker-stats.ts');
}
