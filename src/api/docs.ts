import express, { type Request, type Response } from 'express';
import path from 'node:path';
import { buildOpenApi } from './openapi';
import { pagePolicy } from './page-policy';
import type { RouteDef } from './route';

/**
 * `GET /openapi.json` and a readable reference page at `GET /docs`, both without credentials.
 * Swagger UI's files are served from the installed package (no CDN: the page works offline and
 * leaks nothing to third parties); the package's own index.html and initializer (which point at
 * the petstore demo) are replaced by ours.
 */
export function docsRouter(routes: RouteDef[]) {
  const router = express.Router();

  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(buildOpenApi(routes));
  });

  router.get('/docs', (req, res) => {
    // `/docs/` would resolve the page's relative asset URLs one level too deep.
    if (req.path.endsWith('/')) return res.redirect(301, '../docs');
    page(res).type('html').send(INDEX_HTML);
  });
  router.get('/docs/index.html', (_req, res) => res.redirect(301, '../docs'));
  router.get('/docs/swagger-initializer.js', (_req, res) => page(res).type('js').send(INITIALIZER_JS));
  router.use(
    '/docs',
    (_req: Request, res: Response, next: () => void) => (page(res), next()),
    express.static(SWAGGER_UI_DIR, {
      index: false, redirect: false, maxAge: '1h', fallthrough: true,
      // Swagger UI's files are public and versioned with the package: cacheable, unlike the API
      // (the app's default no-store is dropped only for a file actually served).
      setHeaders: (res) => res.removeHeader('Cache-Control'),
    }),
  );
  return router;
}

// The package ships no type declarations; its directory is all we need from it.
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** Swagger UI sets inline styles (hence 'unsafe-inline' for styles only). */
const CSP = pagePolicy(["style-src 'self' 'unsafe-inline'"]);

function page(res: Response): Response {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  return res;
}

// Served at `.../docs`, so asset URLs are relative to the base path: `docs/<file>`.
const INDEX_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>Back-office API reference</title>
  <link rel="stylesheet" type="text/css" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js" charset="UTF-8"></script>
  <script src="docs/swagger-initializer.js" charset="UTF-8"></script>
</body>
</html>
`;

// The document URL is resolved from this script's own URL, so the page works under any prefix
// (a reverse proxy may mount the base path elsewhere). No validator badge: it calls a third party.
const INITIALIZER_JS = `(function () {
  var script = document.currentScript;
  var spec = new URL('../openapi.json', script ? script.src : window.location.href).href;
  window.addEventListener('load', function () {
    window.ui = SwaggerUIBundle({
      url: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      // A hundred operations open at once bury the one a reader came for: tags start collapsed,
      // and the filter box narrows them by tag name.
      docExpansion: 'none',
      filter: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout'
    });
  });
})();
`;
