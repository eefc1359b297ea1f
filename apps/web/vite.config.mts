import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import * as path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);

/** Built by scripts/build.mjs into dist/web, which the API serves at `/`. */
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  // The one client behaviour every scopegraph client shares (waiting at the rate limit): plain fetch code.
  resolve: { alias: { '@scopegraph/api-client': path.resolve(root, '../../libs/api-client/src') } },
  build: {
    outDir: path.resolve(root, '../../dist/web'),
    emptyOutDir: true,
    // Nothing is inlined as data: URIs, so the page's CSP can stay `img-src 'self'`.
    assetsInlineLimit: 0,
    // One bundle, no chunks loaded later: with a key set, a browser drops its Basic login after any
    // 401 (a mistyped key in the key form), and a chunk fetched after that would be refused.
    chunkSizeWarningLimit: 1000,
  },
  // `npx vite apps/web` serves the console with hot reload next to a running API (npm start).
  server: { proxy: { '/graphql': { target: 'http://127.0.0.1:4000', ws: true } } },
});
