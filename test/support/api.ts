import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { testState } from './state';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface ApiOptions {
  key?: string;
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Another service than the shared one (restart tests). */
  baseUrl?: string;
  ca?: string;
  /** The client's own address (e.g. 127.0.0.23): per-address limits of one test stay its own. */
  localAddress?: string;
}

let agent: https.Agent | undefined;
let caCache: string | undefined;

/** Trusts exactly the service's own (self-signed) certificate, like a careful client would. */
export function serviceCa(dataDir = testState().dataDir): string {
  return readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
}

/** One HTTPS call to the service under test; paths are relative to /backoffice/v1. */
export function api<T = any>(method: string, route: string, opts: ApiOptions = {}): Promise<ApiResponse<T>> {
  const base = opts.baseUrl ?? testState().url;
  const url = new URL(base + route);
  const ca = opts.ca ?? (caCache ??= serviceCa());
  if (!opts.ca && !agent) agent = new https.Agent({ keepAlive: true, ca, maxSockets: 16 });
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.key) headers.api_key = opts.key;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: string | Buffer | undefined = opts.rawBody;
  if (payload === undefined && opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method, headers, agent: opts.ca || opts.localAddress ? new https.Agent({ ca, localAddress: opts.localAddress }) : agent, ca, servername: 'localhost' },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: leave the text
          }
          resolve({ status: res.statusCode ?? 0, body: body as T, headers: res.headers, text });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * Calls with `token` until it is refused, or `ms` have passed: answers the last status. It waits
 * out AUTH_CACHE_SECONDS (5 s in tests), within which a cached credential is still accepted.
 */
export async function refusedWithin(token: string, ms = 8000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const res = await api('GET', '/users?size=1', { token });
    if (res.status !== 200 || Date.now() - start > ms) return res.status;
    await new Promise((r) => setTimeout(r, 250));
  }
}
