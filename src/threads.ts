// The service's own worker threads (the embedded database, the embedded Temporal server: issue 23
// part 2) start from an entry file next to the code that starts them.
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A Worker running `<dir>/<name>.js` compiled (npm start, dist/), or `<dir>/<name>.ts` under tsx
 * (tests, benches, dev). Node 20 does not apply `--import tsx` to a worker's main file, so under
 * tsx the thread registers tsx's CommonJS hook itself before it requires the entry.
 */
export function startThread(dir: string, name: string, workerData: unknown): Worker {
  const ext = path.extname(__filename);
  const entry = path.join(dir, `${name}${ext}`);
  if (ext !== '.ts') return new Worker(entry, { workerData });
  const tsx = require.resolve('tsx/cjs');
  return new Worker(`require.extensions['.ts'] || require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, { eval: true, workerData });
}
