// The engine bench's tables (bench/engine.ts): one row per run, then the averages of each engine
// and the aims of issue 32 item 1 as ratios of the service to the peer.
export interface EngineRun {
  engine: 'service' | 'peer';
  round: number;
  contacts: number;
  received: number;
  timedOut: boolean;
  createSeconds: number;
  endToEndSeconds: number;
  latenciesMs: number[];
  /** CPU ms over the run's window of each part of the shape (names from bench/engine.ts `snapshot`). */
  cpuMs: Record<string, number>;
  statements: number;
  commits: number;
  rowsWritten: number;
  /** Contacts that received more than one webhook, and webhook-ids seen more than once. */
  duplicateContacts: number;
  duplicateWebhookIds: number;
  webhooks: number;
  loadAverage: string;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const contactsPerSecond = (r: EngineRun) => r.contacts / r.createSeconds;
const runsPerSecond = (r: EngineRun) => r.received / r.endToEndSeconds;
const perRun = (r: EngineRun, ms: number) => ms / r.received;
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The engine's own CPU: the service's process(es), or the peer's. */
function engineCpu(r: EngineRun, atScale: boolean): number {
  if (r.engine === 'peer') return r.cpuMs.peer;
  return atScale ? Object.entries(r.cpuMs).filter(([k]) => k.startsWith('API process') || k.startsWith('worker ')).reduce((n, [, v]) => n + v, 0) : r.cpuMs.service;
}

const databaseCpu = (r: EngineRun) => r.cpuMs['database (PostgreSQL)'] ?? r.cpuMs['database (PGlite thread)'];
const temporalCpu = (r: EngineRun) => r.cpuMs['Temporal dev server'] ?? r.cpuMs['Temporal server (thread)'];

export function printEngine(runs: EngineRun[], o: { atScale: boolean; postgres: boolean }, log: (line: string) => void): void {
  const parts = Object.keys(runs[0].cpuMs);
  log(`| run | contacts/s (POST) | runs/s (first request → last webhook) | p50 ms | p95 ms | p99 ms (200 → webhook) | ${parts.map((p) => `${p} CPU ms/run`).join(' | ')} | SQL statements/run (the engine's) | commits/run | rows written/run | webhooks (duplicate contacts / webhook-ids) | load average |`);
  log(`|---|${'---:|'.repeat(5 + parts.length + 4)}---|`);
  for (const r of runs) {
    const l = r.latenciesMs;
    log(`| ${r.engine} ${r.round} | ${fixed(contactsPerSecond(r), 0)} | ${fixed(runsPerSecond(r), 0)}${r.timedOut ? ` (timed out: ${r.received})` : ''} | ${pct(l, 50)} | ${pct(l, 95)} | ${pct(l, 99)} | ${parts.map((p) => fixed(perRun(r, r.cpuMs[p]))).join(' | ')} | ${fixed(r.statements / r.received)} | ${fixed(r.commits / r.received)} | ${fixed(r.rowsWritten / r.received)} | ${r.webhooks} (${r.duplicateContacts} / ${r.duplicateWebhookIds}) | ${r.loadAverage} |`);
  }
  const mean = (engine: EngineRun['engine'], f: (r: EngineRun) => number) => {
    const of = runs.filter((r) => r.engine === engine).map(f);
    return of.reduce((a, b) => a + b, 0) / of.length;
  };
  const ratio = (f: (r: EngineRun) => number) => mean('service', f) / mean('peer', f);
  const duplicates = runs.filter((r) => r.engine === 'service').reduce((n, r) => n + r.duplicateContacts, 0);
  const aims: Array<[string, number, string, boolean]> = [
    ['runs/s', ratio(runsPerSecond), '≥ 0.8', ratio(runsPerSecond) >= 0.8],
    ['p99', ratio((r) => pct(r.latenciesMs, 99)), '≤ 1', ratio((r) => pct(r.latenciesMs, 99)) <= 1],
    [`engine CPU per run (${o.atScale ? 'API + workers' : 'service process without its PGlite and Temporal threads'} / peer)`, ratio((r) => perRun(r, engineCpu(r, o.atScale))), '≤ 1.5', ratio((r) => perRun(r, engineCpu(r, o.atScale))) <= 1.5],
    [`database CPU per run (${o.postgres ? 'PostgreSQL backends' : 'the PGlite thread'})`, ratio((r) => perRun(r, databaseCpu(r))), '≤ 2', ratio((r) => perRun(r, databaseCpu(r))) <= 2],
    ['POST /contacts per second', ratio(contactsPerSecond), '≥ 0.6', ratio(contactsPerSecond) >= 0.6],
  ];
  log('');
  log(`Service / peer, means of ${runs.length / 2} runs each: ${aims.map(([name, value, aim, met]) => `${name} ${fixed(value, 2)} (aim ${aim}: ${met ? 'met' : 'missed'})`).join('; ')}; duplicate deliveries from the service ${duplicates} (aim 0: ${duplicates === 0 ? 'met' : 'missed'}), from the peer ${runs.filter((r) => r.engine === 'peer').reduce((n, r) => n + r.duplicateContacts, 0)}.`);
  log(`Also: Temporal server CPU per run ${fixed(ratio((r) => perRun(r, temporalCpu(r))), 2)}x the peer's; SQL statements per run ${fixed(ratio((r) => r.statements / r.received), 2)}x; commits ${fixed(ratio((r) => r.commits / r.received), 2)}x; rows written ${fixed(ratio((r) => r.rowsWritten / r.received), 2)}x.`);
}
