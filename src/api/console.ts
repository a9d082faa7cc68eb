import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import type { Config } from '../config';
import { ROOT } from '../paths';
import { pagePolicy } from './page-policy';

/**
 * The console (docs/console.md) at `/console`: the single-page app that scripts/build-console.mjs
 * builds into console/dist, served from this origin only. Hashed assets are cached for good;
 * index.html never (it names the current assets and carries a fresh nonce). Any other path under
 * /console is the app's own route (a deep link), answered with index.html.
 */
export function consoleRouter(config: Config, dist = path.join(ROOT, 'console', 'dist')) {
  const router = express.Router();
  const temporalUi = temporalUiBase(config);
  router.use((_req, res, next) => {
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  router.use(
    '/assets',
    express.static(path.join(dist, 'assets'), {
      index: false, redirect: false, immutable: true, maxAge: '365d',
      // Names carry their content's hash: cacheable for good (the app's default no-store is
      // dropped only for a file actually served).
      setHeaders: (res) => res.removeHeader('Cache-Control'),
    }),
    // An asset of another build is missing, not a page of the app.
    (_req: Request, res: Response) => res.status(404).type('text').send('Not found'),
  );
  // The few unhashed files Vite copies from console/public (the icon).
  router.use(express.static(dist, { index: false, redirect: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }));
  router.get(/.*/, async (_req: Request, res: Response) => {
    let html: string;
    try {
      html = await readFile(path.join(dist, 'index.html'), 'utf8');
    } catch {
      res.status(503).setHeader('Content-Security-Policy', csp()).type('html').send(NOT_BUILT);
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    const page = html
      .replaceAll('CSP_NONCE_PLACEHOLDER', nonce)
      .replace('</head>', temporalUi ? `  <meta name="temporal-ui" content="${escapeAttribute(temporalUi)}">\n  </head>` : '</head>');
    res.setHeader('Content-Security-Policy', csp(nonce));
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  });
  return router;
}

/**
 * The console's styles (page-policy.ts has the rest): Mantine writes its theme into <style>
 * elements (allowed by the per-response nonce the app passes to Mantine, never 'unsafe-inline'
 * for elements), and sets CSS variables in element `style` attributes on most components, which
 * only `style-src-attr 'unsafe-inline'` allows. A style attribute cannot run script or load
 * anything (img-src and font-src stay 'self'), so that is the narrowest policy Mantine works under.
 */
function csp(nonce?: string): string {
  return pagePolicy([nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'", "style-src-attr 'unsafe-inline'"]);
}

/**
 * Where the run history links a run's workflow: the embedded server's Temporal UI (README
 * "Temporal UI"), when the service runs one on a known port. At scale the cluster's UI is not
 * known to the service: the page shows the workflow id instead.
 */
function temporalUiBase(config: Config): string | undefined {
  if (config.TEMPORAL_ADDRESS || !config.TEMPORAL_UI_PORT) return undefined;
  const host = ['0.0.0.0', '::'].includes(config.TEMPORAL_UI_HOST) ? '127.0.0.1' : config.TEMPORAL_UI_HOST;
  const authority = host.includes(':') ? `[${host}]` : host;
  return `http://${authority}:${config.TEMPORAL_UI_PORT}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}`;
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const NOT_BUILT = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="UTF-8"><title>Console not built</title></head>
<body>
  <h1>The console is not built</h1>
  <p>This installation has no built console (console/dist). Build it in the service's folder with
  <code>npm run build:console</code> (after <code>npm install</code>), then reload this page.</p>
</body>
</html>
`;
