import type { LoadResult } from './load';
import { mb } from './rss';

/** What a scenario is measured against. */
export interface Baselines {
  ceiling?: number;
  peer?: LoadResult;
}

export interface Aim {
  scenario: string;
  text: string;
  met: (r: LoadResult, against: Baselines) => boolean;
}

/** The targets of issue 6 ("Platform before growth", part 7), stated for PostgreSQL. */
export const AIMS: Aim[] = [
  {
    scenario: 'GET /contacts/{id}',
    text: 'GET /contacts/{id} at 50 connections >= 80% of the peer\'s req/s and <= 0.3 ms server CPU per request',
    met: (r, { peer }) => peer !== undefined && r.perSecond >= 0.8 * peer.perSecond && (r.cpuMsPerRequest ?? Infinity) <= 0.3,
  },
  { scenario: 'GET /name_display_settings (auth + 1 query)', text: 'authentication plus one query <= 0.2 ms server CPU per request', met: (r) => (r.cpuMsPerRequest ?? Infinity) <= 0.2 },
  { scenario: 'GET /contacts?search_value= (10 connections)', text: 'search p95 < 50 ms at 100,000 contacts and 10 connections', met: (r) => r.p95 < 50 },
  { scenario: 'POST /contacts', text: 'POST /contacts >= 500 requests/s at 50 connections', met: (r) => r.perSecond >= 500 },
  { scenario: 'POST /purchases (1 spend + 1 award)', text: 'purchases with one award and one spend >= 300/s at 50 connections with p99 < 200 ms', met: (r) => r.perSecond >= 300 && r.p99 < 200 },
];

/**
 * A Markdown table, so a run can be pasted into docs/benchmarks.md as is. "req/s per server
 * core" is 1000 / (server CPU ms per request): what one fully available core would sustain if
 * the server were CPU-bound, a figure that survives a busy machine better than req/s does
 * (it excludes PostgreSQL's own CPU, which runs in other processes).
 */
export function printTable(results: LoadResult[], against: Baselines, postgres: boolean, log: (line: string) => void): void {
  const { ceiling } = against;
  log('| scenario | req/s | p50 ms | p95 ms | p99 ms | errors | non-2xx | SQL/req | server CPU ms/req | req/s per server core | server peak RSS MB | vs ceiling | aim |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    const ratio = ceiling ? r.perSecond / ceiling : undefined;
    const aim = AIMS.find((a) => a.scenario === r.name);
    const verdict = aim ? `${aim.met(r, against) ? 'met' : 'MISSED'}${postgres ? '' : ' (aim is for PostgreSQL)'}: ${aim.text}` : '';
    const codes = r.non2xx ? ` (${Object.entries(r.statusCodes).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${c}: ${n}`).join(', ')})` : '';
    log(
      `| ${r.name} | ${Math.round(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.errors} | ${r.non2xx}${codes} | ${r.statementsPerRequest === undefined ? '-' : r.statementsPerRequest.toFixed(1)} | ${r.cpuMsPerRequest === undefined ? '-' : r.cpuMsPerRequest.toFixed(2)} | ${r.cpuMsPerRequest ? Math.round(1000 / r.cpuMsPerRequest) : '-'} | ${mb(r.peakRssBytes)} | ${ratio === undefined ? '-' : `${Math.round(ratio * 100)}%`} | ${verdict} |`,
    );
  }
}

/**
 * The hand-written peer against the service on the same ids and connections, measured one
 * right after the other: service/peer for each column (req/s below 1 and CPU above 1 is what
 * the service's stack costs over node:https + pg).
 */
export function printComparison(peer: LoadResult, service: LoadResult, log: (line: string) => void): void {
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !b || !Number.isFinite(a) || !Number.isFinite(b) ? '-' : `${(a / b).toFixed(2)}x`);
  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${Math.round(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors + r.non2xx} | ${r.statementsPerRequest === undefined ? '-' : r.statementsPerRequest.toFixed(1)} | ${r.cpuMsPerRequest === undefined ? '-' : r.cpuMsPerRequest.toFixed(2)} | ${mb(r.peakRssBytes)} |`;
  log('| GET /contacts/{id} | req/s | p50 ms | p99 ms | errors + non-2xx | SQL/req | server CPU ms/req | server peak RSS MB |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|');
  log(row('peer: node:https + pg', peer));
  log(row('service', service));
  log(
    `| service / peer | ${ratio(service.perSecond, peer.perSecond)} | ${ratio(service.p50, peer.p50)} | ${ratio(service.p99, peer.p99)} | | ${ratio(service.statementsPerRequest, peer.statementsPerRequest)} | ${ratio(service.cpuMsPerRequest, peer.cpuMsPerRequest)} | ${ratio(service.peakRssBytes, peer.peakRssBytes)} |`,
  );
}

export interface ProcessMemory {
  name: string;
  pid: number | undefined;
  /** RSS when it was last asked, before it stopped. */
  rss?: number;
  /** Peak of the 100 ms samples over its life. */
  peakRss?: number;
  /** The kernel's high-water mark (VmHWM), Linux only. */
  hwm?: number;
}

export function printProcesses(rows: ProcessMemory[], log: (line: string) => void): void {
  log('| process | pid | RSS at end MB | peak RSS MB (100 ms samples) | peak RSS MB (kernel VmHWM) |');
  log('|---|---:|---:|---:|---:|');
  for (const r of rows) log(`| ${r.name} | ${r.pid ?? '-'} | ${mb(r.rss)} | ${mb(r.peakRss)} | ${mb(r.hwm)} |`);
}

function fmt(ms: number): string {
  return Number.isFinite(ms) ? ms.toFixed(ms < 10 ? 1 : 0) : '-';
}
