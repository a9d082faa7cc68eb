// Resident set size (RSS) of the benchmark's processes. Each server child samples its own
// process.memoryUsage.rss() every 100 ms and reports, over IPC, the peak since its previous
// report (so a measured run gets its own peak) and the peak since it started. A child without
// IPC (the Temporal server in BENCH_API_ONLY=1) is sampled by the parent from /proc instead.
// Sampling misses spikes shorter than the interval; on Linux the kernel's own high-water mark
// (VmHWM in /proc/<pid>/status) is exact and printed next to it.
import { readFileSync } from 'node:fs';

export const RSS_SAMPLE_MS = 100;

export interface MemoryStats {
  /** RSS in bytes when asked. */
  rss: number;
  /** Peak sampled RSS since the previous report (the measured run, when asked before and after it). */
  peakRss: number;
  /** Peak sampled RSS since the process started. */
  peakRssTotal: number;
}

export class RssSampler {
  private window = 0;
  private total = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly read: () => number | undefined = () => process.memoryUsage.rss(), intervalMs = RSS_SAMPLE_MS) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): number {
    const rss = this.read() ?? 0;
    if (rss > this.window) this.window = rss;
    if (rss > this.total) this.total = rss;
    return rss;
  }

  /** Current, window peak (then restarts the window) and overall peak. */
  report(): MemoryStats {
    const rss = this.sample();
    const out = { rss, peakRss: this.window, peakRssTotal: this.total };
    this.window = rss;
    return out;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** A field of /proc/<pid>/status in bytes (VmRSS: now, VmHWM: peak); undefined off Linux or once the process is gone. */
export function procStatusBytes(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const CLOCK_TICKS_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process (or of one of its threads) in ms, from /proc (undefined when gone or not Linux). */
export function procCpuMs(pid: number, tid?: number): number | undefined {
  const fields = procStat(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  return fields && (Number(fields[11]) + Number(fields[12])) * CLOCK_TICKS_MS;
}

/** The fields of a /proc stat file after the command name (field 3 of proc(5) is index 0). */
export function procStat(file: string): string[] | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function mb(bytes: number | undefined): string {
  return bytes === undefined || !Number.isFinite(bytes) ? '-' : (bytes / 1024 / 1024).toFixed(0);
}
