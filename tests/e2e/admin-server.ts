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
import { E2E_NOW, e2eTemplateDir } from './support/servers';
import { forgetSessions, signedInContext } from './support/sessions';

export const ADMIN = E2E_ACCOUNTS.admin;
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1920, height: 1080 };
export { E2E_PASSWORD };

export interface AdminServer {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** The file the server opens in its data folder (platform/db/database.ts). */
const DATABASE_FILE = 'comando.sqlite';
let template: Promise<string> | undefined;

/**
 * The seeded database: each server starts on a copy of it (a copy takes a millisecond; seeding takes about
 * a second of CPU, several on a busy machine). The run's own seed (tests/e2e/support/start-all.mjs makes it
 * before the first test, for the shared instances) when there is one, else one made once per worker.
 */
export function seededDatabase(): Promise<string> {
  const seeded = path.join(e2eTemplateDir(), DATABASE_FILE);
  if (fs.existsSync(seeded)) return Promise.resolve(seeded);
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-plantilla-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    await seedE2E(dir);
    return path.join(dir, DATABASE_FILE);
  })();
  return template;
}

export async function startAdminServer(): Promise<AdminServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-admin-'));
  fs.copyFileSync(await seededDatabase(), path.join(dataDir, DATABASE_FILE));
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
      forgetSessions(server.origin);
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser context on the server, signed in (the e2e admin unless told otherwise), on a blank page.
 * The session comes from the API, once per account and server (support/sessions.ts); `form: true`
 * signs in through the login page instead and leaves the page where the app lands after it.
 */
export async function signedIn(
  browser: Browser,
  server: AdminServer,
  options: { email?: string; password?: string; viewport?: { width: number; height: number }; form?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const email = options.email ?? ADMIN.email;
  const password = options.password ?? E2E_PASSWORD;
  const viewport = options.viewport ?? PHONE;
  if (!options.form) return signedInContext(browser, { origin: server.origin, email, password, viewport });
  const context = await browser.newContext({ baseURL: server.origin, locale: 'es-VE', viewport });
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

/** The toast with this text (toasts stay 20 s: several may be on screen). */
export const toastWith = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text);
