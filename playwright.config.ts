import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import { SERVER_NODE_FLAGS } from './src/server/testing/server-process';
import {
  DROPBOX_CONTRACT,
  E2E_NOW,
  E2E_SERVERS,
  e2eDataDir,
  e2eTemplateDir,
  FIREBASE_CONTRACT,
  S3_LOCAL,
  WORDPRESS_CONTRACT,
} from './tests/e2e/support/servers';

// Debian's headless shell (`chromium-headless-shell`), where it is installed: the same Chromium without the
// desktop browser's windowing, about half the time of `chromium --headless` for the same tests
// (docs/decisions/140). Otherwise Debian's `chromium`.
const chromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ??
  '/usr/bin/chromium';

export default defineConfig<{ withoutAppCode: boolean }>({
  testDir: 'tests/e2e',
  // Backstops for a hang, never a speed check (speed lives in `npm run bench`): CI's 2-core machine may
  // be busy, and there a test with two browsers took 31 s and a page's first code load 7 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : 'list',
  use: {
    baseURL: E2E_SERVERS.main.url,
    locale: 'es-VE',
    // The browser's own zone is UTC on purpose: "today" must come from the server (America/Caracas).
    timezoneId: 'UTC',
    // Recording a trace doubles a test's time (every action keeps a DOM snapshot and a screenshot:
    // 14 s against 25 s for the validation test), so only a retry records one, in CI, where a
    // failure is retried. Locally: `npx playwright test --trace on`.
    trace: 'on-first-retry',
    // No screenshot: with 'only-on-failure', Playwright photographs every page of every browser as it
    // closes, in case the test fails later (about 190 a run, 0.1 s of CPU each), and throws them away.
    // A failure still leaves the page's accessibility snapshot (error-context.md), and in CI its retry's
    // trace, which holds a screenshot of every step (docs/decisions/142).
    screenshot: 'off',
    // The app's service worker is the subject of the phone specs (support/phone.ts: PHONE, launchPhone).
    // Any other fresh browser signed in would install it and download its whole precache again, 90
    // files: 0.7 s of CPU per browser between Chromium, Playwright and the server (decision 142).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // Everything but the proxy project's spec, which starts its own nginx, PostgreSQL and two instances.
    { name: 'chromium', testIgnore: /proxy\.spec\.ts$/ },
    // Through Debian's nginx with docs/deploy/nginx-comando.conf, HTTPS with a self-signed certificate,
    // in front of two instances on one PostgreSQL (docs/decisions/076). `npm test` leaves it out, loudly,
    // where nginx or PostgreSQL is not installed (COMANDO_E2E_WITHOUT_PROXY=1).
    ...(process.env.COMANDO_E2E_WITHOUT_PROXY === '1'
      ? []
      : [{ name: 'proxy', testMatch: /proxy\.spec\.ts$/, use: { ignoreHTTPSErrors: true } }]),
    // The public pages' tests (@publica) again with every request for the app's code failing: the pages'
    // own script does all they need (docs/decisions/065).
    {
      name: 'chromium-sin-app',
      testMatch: /(public-site|public-pages-first-paint|wordpress-notas)\.spec\.ts$/,
      grep: /@publica/,
      use: { withoutAppCode: true },
    },
    // The validation tests that store photos (@fotos), unchanged, with the photos in an S3-compatible
    // bucket and in Dropbox. The others (search, the long list) never reach the storage.
    {
      name: 'validation-s3',
      testMatch: /validation\.spec\.ts$/,
      grep: /@fotos/,
      use: { baseURL: E2E_SERVERS.s3.url },
    },
    {
      name: 'validation-dropbox',
      testMatch: /validation\.spec\.ts$/,
      grep: /@fotos/,
      use: { baseURL: E2E_SERVERS.dropbox.url },
    },
  ],
  // Everything the tests talk to, started side by side by one process (tests/e2e/support/start-all.mjs):
  // the local stand-ins of the third-party services, the server bundle (built first, in a fraction of a
  // second) and the known data seeded once, then the app instances, which run the bundle as `npm start`
  // does; every seeded instance starts on a copy of that data. One budget for the whole start: the ten
  // processes it replaces had 30 s (stand-ins) or 60 s (instances) each, one after the other.
  webServer: [
    {
      command: 'node tests/e2e/support/start-all.mjs',
      env: { COMANDO_E2E_PROCESSES: JSON.stringify(e2eProcesses()) },
      wait: { stdout: /E2E: todo listo/ },
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});

/** What start-all.mjs starts: each process's arguments to `node`, its environment, and where it answers once ready. */
function e2eProcesses() {
  // The stand-ins run their TypeScript through tsx's loader in one process (`npx tsx` takes three).
  const standIn = (name: string, script: string, args: (string | number)[], ready: string) => ({
    name,
    args: ['--import', 'tsx', script, ...args.map(String)],
    ready,
  });
  return {
    standIns: [
      standIn(
        'wordpress',
        'tests/support/wordpress-contract-server.ts',
        [WORDPRESS_CONTRACT.port, WORDPRESS_CONTRACT.posts],
        `${WORDPRESS_CONTRACT.url}/wp-json/wp/v2/posts?per_page=1`,
      ),
      standIn('s3', 'tests/support/s3-local-server.ts', [S3_LOCAL.port], `${S3_LOCAL.url}/`),
      standIn(
        'dropbox',
        'tests/support/dropbox-contract-server.ts',
        [DROPBOX_CONTRACT.port],
        `${DROPBOX_CONTRACT.url}/health`,
      ),
      standIn(
        'firebase',
        'tests/support/firebase-contract-server.ts',
        [FIREBASE_CONTRACT.port],
        `${FIREBASE_CONTRACT.url}/health`,
      ),
    ],
    // Before the instances: the bundle, and the seed the seeded ones copy.
    prepare: [['scripts/build-server.mjs'], ['--import', 'tsx', 'tests/e2e/support/seed-template.ts']],
    instances: Object.values(E2E_SERVERS).map((s) => ({
      name: s.name,
      args: [...SERVER_NODE_FLAGS, 'tests/e2e/support/start-server.mjs'],
      env: {
        NODE_ENV: 'test',
        PORT: String(s.port),
        HOST: '127.0.0.1',
        DATA_DIR: e2eDataDir(s.name),
        DATABASE_URL: '',
        COMANDO_DEMO: '0',
        COMANDO_NOW: E2E_NOW,
        LOG_LEVEL: 'warn',
        PUBLIC_ORIGIN: s.url,
        ...(s.seeded ? { COMANDO_E2E_TEMPLATE: e2eTemplateDir() } : {}),
        ...s.env,
      },
      ready: `${s.url}/api/ready`,
    })),
  };
}
