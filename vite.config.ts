import os from 'node:os';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

const src = (folder: string) => fileURLToPath(new URL(`./src/${folder}/`, import.meta.url));

const serverTests = ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'];

/**
 * Server test files share one process per worker (no fresh module graph per file: importing the app
 * again cost about 0.75 s a file). Each test still gets its own app and database (testing/test-app.ts);
 * what a file changes outside them (environment variables, fake timers) it puts back itself.
 * `npx vitest run --project server --isolate` runs each file alone, to tell a leak from a failure.
 */
const serverIsolation = { isolate: false, unstubEnvs: true, unstubGlobals: true } as const;

/**
 * The installable app (docs/decisions/025): a manifest, and a service worker that precaches the app
 * shell so the validation page opens without a connection. It never handles /api: every answer comes
 * from the network (the phone's copy of the lists lives in IndexedDB, read only when the network fails).
 */
const pwa = VitePWA({
  // A new version waits until the person accepts it ('Nueva versión disponible'); old and new files
  // are never mixed in one page.
  registerType: 'prompt',
  // Registered by the app itself, only for people signed in: public pages neither load the code nor
  // download the precache.
  injectRegister: false,
  includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
  manifest: {
    name: 'Comando: validación',
    short_name: 'Comando',
    description: 'Votos y fotos de las boletas de cada municipio o parroquia, también sin conexión.',
    lang: 'es',
    dir: 'ltr',
    // The signed-in person's department (or, offline, the last one opened): see routes/app-start.tsx.
    start_url: '/validation',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: '#A31D1D',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
    // The Firebase sign-in chunk serves only the login form, which needs the network anyway.
    globIgnores: ['**/firebase-sign-in-*.js'],
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//],
    cleanupOutdatedCaches: true,
    // The first install takes the page at once, so it works offline from the first visit on.
    clientsClaim: true,
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss(), pwa],
  // The same subpath aliases as tsconfig.json's `paths` (esbuild, tsx and Playwright read those).
  resolve: {
    alias: [
      { find: /^#shared\//, replacement: src('shared') },
      { find: /^#server\//, replacement: src('server') },
      { find: /^#web\//, replacement: src('web') },
      { find: /^#tests\//, replacement: fileURLToPath(new URL('./tests/', import.meta.url)) },
    ],
  },
  // Only variables with this prefix may reach the browser bundle; none is a secret.
  envPrefix: 'COMANDO_PUBLIC_',
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // ProseMirror, under the notas editor (admin only), in a chunk of its own: it changes less often
        // than the editor, and each half stays under the size warning.
        codeSplitting: {
          groups: [
            { name: 'prosemirror', test: /node_modules[\\/](prosemirror-|orderedmap|rope-sequence|w3c-keyname)/ },
          ],
        },
      },
    },
  },
  // `vite build --ssr src/web/app/entry-server.tsx --outDir dist-ssr`: the public pages' server rendering
  // module, loaded by the server. Only code: the static files are served from dist/.
  environments: { ssr: { build: { copyPublicDir: false } } },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
    // Vitest leaves a core to itself by default: one worker on a 2-core machine. The server tests wait on
    // PostgreSQL, child processes and argon2 threads as much as they compute, so every core gets a worker.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: serverTests,
          // *.pg.test.ts exercise PostgreSQL-only machinery (LISTEN/NOTIFY).
          exclude: ['**/*.pg.test.ts'],
          env: { TEST_DB: 'sqlite' },
          ...serverIsolation,
          globalSetup: ['tests/support/sqlite-global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['src/server/**/*.test.ts'],
          // Process and configuration tests do not touch the database: they run once, on SQLite, with
          // the *.sqlite.test.ts that exercise machinery of the embedded database only.
          exclude: [
            'src/server/server.test.ts',
            'src/server/package-scripts.test.ts',
            'src/server/platform/config/config.test.ts',
            '**/*.sqlite.test.ts',
          ],
          env: { TEST_DB: 'postgres' },
          ...serverIsolation,
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // jsdom is a browser: tus-js-client's browser build (its package.json `browser` field, which the
        // app's build follows and Vitest does not).
        resolve: {
          alias: [{ find: /^tus-js-client$/, replacement: 'tus-js-client/lib.esm/browser/index.js' }],
        },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/testing/web-setup.ts'],
          // As the server's: a worker's files share one window and module graph (a fresh jsdom and React per
          // file was two thirds of this project's time: 108 s against 38 s). web-setup.ts puts back, after
          // each test, what a test may change of the window, the phone's storage and the timers.
          isolate: false,
          unstubGlobals: true,
          css: false,
          // Typing into jsdom forms takes seconds on a busy shared machine; the default 5 s is not a speed goal.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
