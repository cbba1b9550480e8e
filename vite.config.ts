import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = (folder: string) => fileURLToPath(new URL(`./src/${folder}/`, import.meta.url));

const serverTests = ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
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
          exclude: ['src/server/server.test.ts', 'src/server/platform/config/config.test.ts', '**/*.sqlite.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/web-setup.ts'],
          css: false,
          // Typing into jsdom forms takes seconds on a busy shared machine; the default 5 s is not a speed goal.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
