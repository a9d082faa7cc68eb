// Outbound HTTP (docs/security.md "Outbound requests"): the URL's host is resolved and judged
// once, and the socket connects to exactly the addresses judged (a pinned `lookup`: no second
// DNS answer can point it elsewhere), with the URL's name as Host and SNI. No redirects; the
// connection, the whole exchange and the answer read are each capped.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { SpanKind, trace } from '@opentelemetry/api';
import { injectTraceHeaders, inSpan } from '../telemetry/trace';
import { admit, OPERATOR_HINT, OutboundFailed, OutboundRefused, resolveHost, type Address, type OutboundConfig } from './policy';

export const MUST_HTTPS = 'must be an https URL to a public address';
export const MAX_RESPONSE_BYTES = 64 * 1024;
const CONNECT_TIMEOUT_MS = 5_000;
/** Set by the gateway from the URL and body; a caller's value would contradict them. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);

export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole exchange: DNS, connection, request and answer. */
  timeoutMs: number;
  /** Read at most this many bytes of the answer, then stop (default 64 KiB). */
  maxResponseBytes?: number;
}

export interface HttpAnswer {
  status: number;
  body: Buffer;
  /** The answer had more than maxResponseBytes; the rest was not read. */
  truncated: boolean;
}

/** The URL's form: absolute http(s) without credentials; OutboundRefused otherwise. */
export function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefused('must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefused(`${MUST_HTTPS} (${OPERATOR_HINT})`);
  if (url.username || url.password) throw new OutboundRefused('must not carry credentials in the URL');
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');
const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** https to public addresses, or http(s) to addresses that are all on the operator's list. */
function admitUrl(config: OutboundConfig, url: URL, addresses: Address[]): void {
  const { allAllowed } = admit(config, hostOf(url), portOf(url), addresses, MUST_HTTPS);
  if (url.protocol === 'http:' && !allAllowed) throw new OutboundRefused(`${MUST_HTTPS} (${OPERATOR_HINT})`);
}

/**
 * On write: OutboundRefused when the URL may not be used. A name DNS does not answer for now
 * passes (the send checks again), except with http, which needs addresses known to be allowed.
 */
export async function checkHttpUrl(config: OutboundConfig, text: string): Promise<void> {
  const url = parseHttpUrl(text);
  let addresses: Address[];
  try {
    addresses = await resolveHost(hostOf(url));
  } catch (err) {
    if (!(err instanceof OutboundFailed)) throw err;
    if (url.protocol === 'http:') throw new OutboundRefused(`${MUST_HTTPS} (${OPERATOR_HINT})`);
    return;
  }
  admitUrl(config, url, addresses);
}

/** One request through the gateway. Throws OutboundRefused (policy) or OutboundFailed (network). */
export async function sendHttp(config: OutboundConfig, call: HttpCall): Promise<HttpAnswer> {
  const deadline = Date.now() + call.timeoutMs;
  const url = parseHttpUrl(call.url);
  const method = call.method.toUpperCase();
  // A client span of the active trace; the receiver gets its traceparent (docs/operations.md "Traces").
  return inSpan(method, { 'http.request.method': method, 'server.address': hostOf(url), 'server.port': portOf(url) }, async () => {
    const addresses = await resolveHost(hostOf(url), deadline);
    admitUrl(config, url, addresses);
    const headers = { ...call.headers };
    injectTraceHeaders(headers);
    const answer = await exchange({ ...call, headers }, url, addresses, deadline);
    trace.getActiveSpan()?.setAttribute('http.response.status_code', answer.status);
    return answer;
  }, { kind: SpanKind.CLIENT });
}

/**
 * Keep-alive connections (issue 32: a new TCP connection, and with https a new TLS handshake, per
 * webhook attempt was a fifth of an automation run's cost). One agent per scheme, name, port and
 * the addresses judged for it: a socket is reused only for a request whose host DNS answered the
 * same way, so a kept connection never reaches an address this send did not judge.
 */
const agents = new Map<string, http.Agent>();
const MAX_AGENTS = 256;
/** Idle sockets close before the usual servers' keep-alive timeout (Node's 5 s), so none is reused as it closes. */
const IDLE_SOCKET_MS = 4_000;

function agentFor(url: URL, addresses: Address[]): http.Agent {
  const key = `${url.protocol}//${url.host}|${addresses.map((a) => a.address).join(',')}`;
  let agent = agents.get(key);
  if (agent) return agent;
  const options = { keepAlive: true, timeout: IDLE_SOCKET_MS };
  agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  if (agents.size >= MAX_AGENTS) {
    const [oldest, old] = agents.entries().next().value!;
    agents.delete(oldest);
    old.destroy();
  }
  agents.set(key, agent);
  return agent;
}

function exchange(call: HttpCall, url: URL, addresses: Address[], deadline: number): Promise<HttpAnswer> {
  // Whatever name the socket asks for, it gets the addresses judged above (all of them when
  // it tries several, as Node's happy eyeballs does). A literal host is connected to as is.
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Address[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const limit = call.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const headers: Record<string, string> = { 'content-length': String(Buffer.byteLength(call.body)) };
  for (const [name, value] of Object.entries(call.headers)) if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (err: Error | null, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      // A whole answer leaves the socket to its agent for the next request; anything else closes it.
      if (err || answer?.truncated) req.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const req = client.request(url, { method: call.method, headers, lookup, agent: agentFor(url, addresses) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean) => finish(null, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, limit), truncated });
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size > limit) done(true);
      });
      res.on('end', () => done(false));
      res.on('error', (err) => finish(new OutboundFailed(`reading the answer failed: ${err.message}`)));
    });
    const totalMs = Math.max(0, deadline - Date.now());
    timers.push(setTimeout(() => finish(new OutboundFailed(`timeout: no complete answer within ${call.timeoutMs} ms`)), totalMs));
    req.on('socket', (socket: Socket) => {
      if (!socket.connecting) return;
      const t = setTimeout(() => finish(new OutboundFailed(`timeout: no connection within ${CONNECT_TIMEOUT_MS} ms`)), Math.min(CONNECT_TIMEOUT_MS, totalMs));
      timers.push(t);
      socket.once('connect', () => clearTimeout(t));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(new OutboundFailed(`connection failed: ${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' ').trim())));
    req.end(call.body);
  });
}
