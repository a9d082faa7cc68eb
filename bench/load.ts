// One autocannon run with our own latency percentiles: autocannon's histogram reports p50,
// p97.5 and p99 but not p95, so every response time is recorded here.

export interface LoadSpec {
  name: string;
  /** Origin + path of the first request, e.g. https://localhost:8443/backoffice/v1/health. */
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Varies each request (random id, unique body); called once per request sent. */
  next?: () => { path?: string; body?: string };
}

export interface LoadResult {
  name: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** SQL statements the service sent per response, when it can tell. */
  statementsPerRequest?: number;
  /** CPU milliseconds (user + system) the server process spent per response. */
  cpuMsPerRequest?: number;
  /** Peak RSS of the server process during the measured run (sampled every 100 ms; bench/rss.ts). */
  peakRssBytes?: number;
}

interface AutocannonRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}

type Autocannon = (
  opts: Record<string, unknown>,
  done: (err: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

// autocannon ships no type declarations; this is the part of its API used here.
const autocannon = require('autocannon') as Autocannon;

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const request: AutocannonRequest = { method: spec.method ?? 'GET' };
  if (spec.next) {
    const next = spec.next;
    request.setupRequest = (req) => ({ ...req, ...next() });
  }
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.seconds,
        headers: spec.headers ?? {},
        requests: [request],
        // The services use self-signed certificates; the handshake cost is the same either way.
        tlsOptions: { rejectUnauthorized: false },
        timeout: 10,
      },
      (err, result) => {
        if (err) return reject(err);
        latencies.sort((a, b) => a - b);
        const requests = latencies.length;
        resolve({
          name: spec.name,
          requests,
          perSecond: requests / result.duration,
          p50: percentile(latencies, 0.5),
          p95: percentile(latencies, 0.95),
          p99: percentile(latencies, 0.99),
          errors: result.errors,
          non2xx: result.non2xx,
          statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
