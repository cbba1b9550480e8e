// A server of its own for each back-office spec: the same seeded data as the shared "main" e2e server,
// on a throwaway database, so what an admin changes here (settings, candidates, titles, accounts) can
// never change what another spec sees.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startAdminServer(): Promise<AdminServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-admin-'));
  await seedE2E(dataDir);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(path.join('node_modules', '.bin', 'tsx'), ['src/server/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      COMANDO_DEMO: '0',
      COMANDO_NOW: E2E_NOW,
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: origin,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('El servidor de administración no arrancó');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    origin,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
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
