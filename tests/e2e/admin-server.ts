// A server of its own for each back-office spec: the same seeded data as the shared "main" e2e server,
// on a throwaway database, so what an admin changes here (settings, candidates, titles, accounts) can
// never change what another spec sees.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { freePort, startServerProcess } from '#server/testing/server-process';
import { signIn } from './support/login';
import { seedE2E } from './support/seed';
import { E2E_ACCOUNTS, E2E_PASSWORD } from './support/seed-auth';
import { E2E_NOW } from './support/servers';

export const ADMIN = E2E_ACCOUNTS.admin;
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1920, height: 1080 };
export { E2E_PASSWORD };

export interface AdminServer {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startAdminServer(): Promise<AdminServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-admin-'));
  await seedE2E(dataDir);
  const server = await startServerProcess({
    port: await freePort(),
    dataDir,
    name: 'de administración',
    env: { NODE_ENV: 'test', COMANDO_NOW: E2E_NOW },
  });
  return {
    origin: server.origin,
    dataDir,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser context on the server, signed in (the e2e admin unless told otherwise). */
export async function signedIn(
  browser: Browser,
  server: AdminServer,
  options: { email?: string; password?: string; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.origin,
    locale: 'es-VE',
    viewport: options.viewport ?? PHONE,
  });
  const page = await context.newPage();
  await signIn(page, options.email ?? ADMIN.email, options.password ?? E2E_PASSWORD);
  return { context, page };
}

/** The toast with this text (toasts stay 20 s: several may be on screen). */
export const toastWith = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text);
