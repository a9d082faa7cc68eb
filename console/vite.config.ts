import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the service at /console (src/api/console.ts), which replaces the nonce placeholder in
// index.html with a fresh value per response and names the same value in its CSP header.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 2000 },
});
