// One HTTP attempt of a webhook request (docs/webhooks.md "Delivery"): the endpoint is checked
// again on the address DNS answers now, and the connection goes to exactly that address (a
// pinned `lookup`), so a host cannot resolve to a public address for the check and a private
// one for the connection. No redirects; one deadline for the whole answer.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AppError } from '../errors';
import { hostOf, parseEndpoint, refusedAddress, resolveHost } from './endpoints';

/** Stored response bodies are cut to this many bytes. */
export const RESPONSE_LIMIT = 4096;

export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendResult {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  responseBody: string | null;
  /** Why the attempt is not a success: null for a 2xx. */
  error: string | null;
}

export async function sendOnce(out: Outgoing, opts: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  const startedAt = new Date();
  const done = (r: Omit<SendResult, 'startedAt' | 'durationMs'>): SendResult => ({ startedAt, durationMs: Date.now() - startedAt.getTime(), ...r });
  let target: Target;
  try {
    target = await pin(out.url, opts.allowPrivate);
  } catch (err) {
    return done({ statusCode: null, responseBody: null, error: err instanceof Error ? err.message : String(err) });
  }
  return done(await exchange(out, target, opts.timeoutMs));
}

/** The URL and the one address to connect to; throws with the reason when it is refused. */
async function pin(text: string, allowPrivate: boolean) {
  let url: URL;
  try {
    url = parseEndpoint(text, allowPrivate);
  } catch (err) {
    throw new Error(err instanceof AppError ? `refused: ${err.message}` : String(err));
  }
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await resolveHost(url);
  } catch (err) {
    throw new Error(`DNS lookup of ${hostOf(url)} failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!addresses.length) throw new Error(`DNS lookup of ${hostOf(url)} answered no address`);
  if (!allowPrivate) {
    for (const a of addresses) {
      const why = refusedAddress(a.address);
      if (why) throw new Error(`refused: ${hostOf(url)} resolves to ${a.address} (${why}); allow_private_webhook_endpoints is false`);
    }
  }
  return { url, addresses };
}

/** The URL and the addresses checked for it: the only ones the connection may use. */
interface Target {
  url: URL;
  addresses: Array<{ address: string; family: number }>;
}

function exchange(out: Outgoing, target: Target, timeoutMs: number): Promise<Omit<SendResult, 'startedAt' | 'durationMs'>> {
  // Whatever host name the socket asks for, it gets the addresses checked above (all of them
  // when it tries several, as Node's happy eyeballs does).
  const [first] = target.addresses;
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Target['addresses']) => void)(null, target.addresses);
    else callback(null, first.address, first.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'startedAt' | 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const req = client.request(target.url, { method: out.method, headers: { ...out.headers, 'content-length': String(Buffer.byteLength(out.body)) }, lookup, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT).toString('utf8').replace(/\u0000/g, '');
        const ok = status >= 200 && status < 300;
        finish({ statusCode: status, responseBody: text, error: ok ? null : `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` });
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size >= RESPONSE_LIMIT) answer(); // the rest is not kept: stop reading
      });
      res.on('end', answer);
      res.on('error', (err) => finish({ statusCode: res.statusCode ?? null, responseBody: null, error: `reading the answer failed: ${err.message}` }));
    });
    const timer = setTimeout(() => finish({ statusCode: null, responseBody: null, error: `timeout: no complete answer within ${timeoutMs} ms` }), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ statusCode: null, responseBody: null, error: `connection failed: ${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' ').trim() }));
    req.end(out.body);
  });
}
