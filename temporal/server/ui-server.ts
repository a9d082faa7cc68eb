/**
 * The Temporal Web UI for the embedded server: one HTTP server that serves the built app
 * (ui/, built on first use by ui-build.ts; every unknown path answers index.html, the
 * app's router takes it from there) and passes `/api/...` to the embedded server's HTTP API, so
 * the app calls its own origin. Until the build is done it answers a page saying so; a failed
 * build answers a page saying why.
 *
 * The door (docs/temporal-ui.md "Signing in"): the embedded server takes only callers holding its
 * API key, and so does this server. A browser signs in once with the key (the file
 * DATA_DIR/temporal-api-key) and gets a session cookie derived from it; every `/api/...` call it
 * makes is passed on with the key added. Without the cookie: the sign-in page, or 401 for `/api`.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sameSecret } from './credential';
import { hostAllowed, readBody } from './http/server';
import { buildUi } from './ui-build';

export interface TemporalUiOptions {
  host: string;
  /** 0 = a free port. */
  port: number;
  /** 'host:port' of the embedded server's HTTP API. */
  apiAddress: string;
  /** The embedded server's API key: what a browser signs in with, and what `/api` calls carry on. */
  apiKey: string;
  /** Where built apps are kept (one directory per version of the sources). */
  cacheDir: string;
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: object) => void;
  /** The build's environment (vite's); the process's by default. */
  buildEnv?: NodeJS.ProcessEnv;
}

export interface TemporalUi {
  url: string;
  /** Settles when the app is served: with its directory, or with why the build failed. */
  ready: Promise<string>;
  close(): Promise<void>;
}

type State = { state: 'building' } | { state: 'ready'; dir: string } | { state: 'failed'; reason: string };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Listens at once; the build (or the cached one) follows in the background. */
export async function startTemporalUi(opts: TemporalUiOptions): Promise<TemporalUi> {
  let state: State = { state: 'building' };
  const [apiHost, apiPort] = splitAddress(opts.apiAddress);
  const server = http.createServer((req, res) => {
    res.setHeader('X-Frame-Options', 'DENY');
    if (!hostAllowed(req.headers.host, opts.host)) return page(res, 403, 'Host not allowed', 'Open the UI by its loopback address.');
    const url = req.url ?? '/';
    if (url === SIGN_IN || url.startsWith(`${SIGN_IN}?`)) {
      return void signIn(req, res).catch(() => (res.headersSent ? res.destroy() : page(res, 400, 'Bad sign-in', 'The form could not be read.')));
    }
    if (!signedIn(req)) {
      if (url === '/api' || url.startsWith('/api/')) return json(res, 401, { code: 16, message: 'Sign in to the Temporal UI first', details: [] });
      return signInPage(res, 401, url, '');
    }
    if (url === '/api' || url.startsWith('/api/')) return proxy(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return page(res, 405, 'Method not allowed', '');
    if (state.state === 'building') {
      res.setHeader('Refresh', '15');
      return page(res, 503, 'Building the Temporal UI', 'The first start builds the UI (about a minute). Refresh in a minute.');
    }
    if (state.state === 'failed') {
      return page(res, 500, 'The Temporal UI could not be built', `It is built on first use from the packages npm install put in temporal/ui/node_modules: run npm install, then restart.\n\n${state.reason}`);
    }
    serveFile(state.dir, url, req, res);
  });

  const session = createHmac('sha256', opts.apiKey).update('temporal-ui-session').digest('base64url');
  const sessionCookie = `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`;

  const signedIn = (req: http.IncomingMessage): boolean => sameSecret(cookieValue(req.headers.cookie, COOKIE), session);

  /** POST: the key from the form; right, a session cookie and back to where the browser was going. */
  async function signIn(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'POST') return signInPage(res, 200, '/', '');
    const origin = req.headers.origin;
    if (origin && !sameOrigin(origin, req.headers.host)) return page(res, 403, 'Origin not allowed', '');
    // A sign-in form is a few hundred bytes.
    const form = new URLSearchParams(await readBody(req, 4096));
    const next = safeNext(form.get('next'));
    if (!sameSecret(form.get('key') ?? undefined, opts.apiKey)) return signInPage(res, 401, next, 'That is not the key.');
    res.writeHead(303, { 'Set-Cookie': sessionCookie, Location: next, 'Cache-Control': 'no-store' }).end();
  }

  /** Same origin only for writes: the API's own CORS check would refuse a non-loopback UI host. */
  function proxy(req: http.IncomingMessage, res: http.ServerResponse, url: string): void {
    const origin = req.headers.origin;
    if (origin && req.method !== 'GET' && req.method !== 'HEAD' && !sameOrigin(origin, req.headers.host)) {
      return json(res, 403, { code: 7, message: 'Origin not allowed', details: [] });
    }
    // The browser's cookie stays here; the API gets the key instead.
    const headers = { ...req.headers, host: opts.apiAddress, authorization: `Bearer ${opts.apiKey}` };
    delete headers.origin;
    delete headers.cookie;
    const upstream = http.request({ host: apiHost, port: apiPort, method: req.method, path: url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) json(res, 503, { code: 14, message: `Temporal HTTP API unreachable: ${e.message}`, details: [] });
      else res.destroy();
    });
    // A browser leaving a long poll (history with waitNewEvent) ends it upstream too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
  const stop = new AbortController();
  const ready = buildUi({ cacheDir: opts.cacheDir, log: opts.log, signal: stop.signal, env: opts.buildEnv }).then(
    (dir) => {
      state = { state: 'ready', dir };
      return dir;
    },
    (e: Error) => {
      if (stop.signal.aborted) throw e;
      state = { state: 'failed', reason: e.message };
      opts.log('error', 'the Temporal UI could not be built; its address says why', { error: e.message });
      throw e;
    },
  );
  ready.catch(() => undefined);
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}`,
    ready,
    close: () =>
      new Promise<void>((resolve) => {
        stop.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A file of the build, or index.html for the app's own paths; a missing asset is a 404. */
function serveFile(dir: string, url: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://ui').pathname);
  } catch {
    return page(res, 400, 'Bad path', '');
  }
  const file = path.join(dir, path.normalize(pathname));
  let target = file.startsWith(dir + path.sep) && isFile(file) ? file : undefined;
  if (!target) {
    if (pathname.startsWith('/_app/')) return page(res, 404, 'Not found', '');
    target = path.join(dir, 'index.html');
  }
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(target)] ?? 'application/octet-stream',
    'Content-Length': fs.statSync(target).size,
    // File names under _app/immutable carry their content hash.
    'Cache-Control': pathname.startsWith('/_app/immutable/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(target).pipe(res);
}

const SIGN_IN = '/_signin';
const COOKIE = 'temporal_ui_session';

function signInPage(res: http.ServerResponse, status: number, next: string, problem: string): void {
  html(res, status, 'Sign in to the Temporal UI',
    '<p>The key is in the file <code>temporal-api-key</code> of the service\'s data directory (readable by the service\'s user only).</p>' +
      (problem ? `<p role="alert">${htmlText(problem)}</p>` : '') +
      `<form method="post" action="${SIGN_IN}"><input type="hidden" name="next" value="${htmlText(next)}">` +
      '<label>Key <input type="password" name="key" autocomplete="current-password" required></label> <button type="submit">Sign in</button></form>');
}

/** Only a path of this server: never `//elsewhere` or a URL. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

function splitAddress(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at).replace(/^\[|\]$/g, ''), Number(address.slice(at + 1))];
}

function json(res: http.ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function page(res: http.ServerResponse, status: number, title: string, text: string): void {
  html(res, status, title, `<pre style="white-space: pre-wrap">${htmlText(text)}</pre>`);
}

/** A page of this server: the title as its heading, then `body` (already HTML). */
function html(res: http.ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${htmlText(title)}</title></head>` +
      `<body style="font-family: sans-serif; margin: 3rem"><h1>${htmlText(title)}</h1>${body}</body></html>`,
  );
}

const htmlText = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
