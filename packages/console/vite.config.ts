import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/** Where `npm start` serves the API; `npm run dev` proxies the API paths there. */
const API_ORIGIN = process.env.BROWSERDECK_API ?? 'http://127.0.0.1:3000';

/**
 * The console's build. `base: './'` makes every emitted URL relative, so the same `dist` works under
 * any mount prefix (the server rewrites `index.html`'s two asset URLs to absolute paths, because the
 * page is also the fallback of deep links such as `/console/projects/x`). Nothing is inlined into the
 * HTML and no module-preload polyfill is emitted: the page's Content-Security-Policy allows no inline
 * script or style (docs/console.md).
 */
export default defineConfig(({ command }) => ({
  base: command === 'build' ? './' : '/console/',
  plugins: [preact()],
  build: {
    target: 'es2022',
    modulePreload: { polyfill: false },
    // No `data:` URIs for fonts or images: every asset is a file with a hashed name.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/v1': API_ORIGIN, '/docs': API_ORIGIN, '/openapi.json': API_ORIGIN },
  },
}));
