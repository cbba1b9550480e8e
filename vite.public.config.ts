import { defineConfig } from 'vite';
import app from './vite.config';

/**
 * The public pages' own script (src/web/public-page.ts, docs/decisions/065), built on its own after the
 * app (`npm run build`) into the same dist/assets/, as one file: built with the app, the modules both use
 * became some twenty small shared chunks, and the app's start would have asked for them one by one. Its
 * manifest (dist/.vite/pagina-publica.json) tells the server the file's name.
 */
export default defineConfig({
  resolve: app.resolve,
  envPrefix: app.envPrefix,
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    manifest: '.vite/pagina-publica.json',
    rolldownOptions: {
      input: { 'pagina-publica': 'src/web/public-page.ts' },
    },
  },
});
