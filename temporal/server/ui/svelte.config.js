import adapter from '@sveltejs/adapter-static';

/**
 * A single-page app: nothing is rendered on the server or prerendered; every path answers
 * index.html (the UI server's fallback) and the router takes it from there.
 */
export default {
  kit: {
    adapter: adapter({ pages: 'build', assets: 'build', fallback: 'index.html' }),
    prerender: { entries: [] },
  },
};
