import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Served by the service at /console (src/api/console.ts), which replaces the nonce placeholder in
// index.html with a fresh value per response and names the same value in its CSP header.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // Written by scripts/build-console.mjs from the service's code (schema.d.ts is types only).
  resolve: { alias: { '@api/countries': fileURLToPath(new URL('./src/generated/countries.json', import.meta.url)) } },
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 2000 },
});
