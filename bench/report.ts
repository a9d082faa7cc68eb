import type { LoadResult } from './load';

export interface Aim {
  scenario: string;
  text: string;
  met: (r: LoadResult, ratio: number | undefined) => boolean;
}

/** The targets of issue 2, part 9; they are stated for PostgreSQL with 50 connections. */
export const AIMS: Aim[] = [
  { scenario: 'GET /contacts/{id}', text: 'GET /contacts/{id} >= 35% of the ceiling and p99 < 25 ms', met: (r, ratio) => ratio !== undefined && ratio >= 0.35 && r.p99 < 25 },
  { scenario: 'GET /contacts?search_value=', text: 'search p95 < 50 ms', met: (r) => r.p95 < 50 },
  { scenario: 'POST /contacts', text: 'POST /contacts >= 500 requests/s', met: (r) => r.perSecond >= 500 },
];

/**
 * A Markdown table, so a run can be pasted into docs/benchmarks.md as is. "req/s per server
 * core" is 1000 / (server CPU ms per request): what one fully available core would sustain if
 * the server were CPU-bound, a figure that survives a busy machine better than req/s does
 * (it excludes PostgreSQL's own CPU, which runs in other processes).
 */
export function printTable(results: LoadResult[], ceiling: number | undefined, postgres: boolean, log: (line: string) => void): void {
  log('| scenario | req/s | p50 ms | p95 ms | p99 ms | errors | non-2xx | SQL/req | server CPU ms/req | req/s per server core | vs ceiling | aim |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    const ratio = ceiling ? r.perSecond / ceiling : undefined;
    const aim = AIMS.find((a) => a.scenario === r.name);
    const verdict = aim ? `${aim.met(r, ratio) ? 'met' : 'MISSED'}${postgres ? '' : ' (aim is for PostgreSQL)'}: ${aim.text}` : '';
    const codes = r.non2xx ? ` (${Object.entries(r.statusCodes).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${c}: ${n}`).join(', ')})` : '';
    log(
      `| ${r.name} | ${Math.round(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.errors} | ${r.non2xx}${codes} | ${r.statementsPerRequest === undefined ? '-' : r.statementsPerRequest.toFixed(1)} | ${r.cpuMsPerRequest === undefined ? '-' : r.cpuMsPerRequest.toFixed(2)} | ${r.cpuMsPerRequest ? Math.round(1000 / r.cpuMsPerRequest) : '-'} | ${ratio === undefined ? '-' : `${Math.round(ratio * 100)}%`} | ${verdict} |`,
    );
  }
}

function fmt(ms: number): string {
  return Number.isFinite(ms) ? ms.toFixed(ms < 10 ? 1 : 0) : '-';
}
