// CPU of each thread of a process, from /proc/<pid>/task/<tid>/stat, named by
// /proc/<pid>/task/<tid>/comm: the main thread (tid = pid), worker threads renamed by the
// bench/thread-names.cjs preload (`nodew<threadId>`, resolved to their entry file through
// `threadLabels()` of that process), and the runtime's own threads by the names they carry
// (libuv's pool, V8's platform workers, the Temporal SDK core's tokio threads).
import { readdirSync, readFileSync } from 'node:fs';
import { procCpuMs } from './rss';

/** threadId → entry file name of each worker thread this process started (empty without the preload). */
export function threadLabels(): Record<string, string> {
  return ((globalThis as Record<symbol, unknown>)[Symbol.for('bench.threadLabels')] as Record<string, string> | undefined) ?? {};
}

/** CPU ms per thread name of `pid` (threads of the same name summed); {} once the process is gone. */
export function threadCpuMs(pid: number, labels: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const ms = procCpuMs(pid, Number(tid));
    if (ms === undefined) continue;
    const name = tid === String(pid) ? 'main' : nameOf(pid, tid, labels);
    out[name] = (out[name] ?? 0) + ms;
  }
  return out;
}

function nameOf(pid: number, tid: string, labels: Record<string, string>): string {
  let comm: string;
  try {
    comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return 'gone';
  }
  const worker = /^nodew(\d+)$/.exec(comm);
  return worker ? (labels[worker[1]] ?? comm) : comm;
}
