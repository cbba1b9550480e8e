import { defineConfig } from '@playwright/test';
import { E2E_SERVERS, WORDPRESS_CONTRACT } from './tests/e2e/support/servers';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : 'list',
  use: {
    baseURL: E2E_SERVERS.main.url,
    locale: 'es-VE',
    // The browser's own zone is UTC on purpose: "today" must come from the server (America/Caracas).
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
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
  projects: [{ name: 'chromium' }],
  webServer: [
    ...Object.values(E2E_SERVERS).map((s) => ({
      command: `npx tsx tests/e2e/support/start-server.ts ${s.name}`,
      url: `${s.url}/api/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
    {
      command: `npx tsx tests/support/wordpress-contract-server.ts ${WORDPRESS_CONTRACT.port} ${WORDPRESS_CONTRACT.posts}`,
      url: `${WORDPRESS_CONTRACT.url}/wp-json/wp/v2/posts?per_page=1`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
  ],
});
