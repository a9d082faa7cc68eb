import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [sveltekit()],
  define: {
    // The API is the page's own origin: the UI server serves /api/v1 next to the app.
    'import.meta.env.VITE_API': JSON.stringify(''),
    // Not Temporal Cloud, whatever the host name.
    'import.meta.env.VITE_TEMPORAL_UI_BUILD_TARGET': JSON.stringify('local'),
  },
  // The library's editor (monaco) alone is several MB; the warning says nothing new.
  build: { chunkSizeWarningLimit: 10_000 },
});
