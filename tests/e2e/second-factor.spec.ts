// The second factor in a real browser: an admin turns on 'Exigir segundo factor a los administradores',
// signs in again, scans (reads) the QR's secret, confirms a code the test computes from it, keeps the
// recovery codes, and from then on signs in with a code. The server keeps the real time here, as an
// authenticator app does: the test computes each code for the server's current step (or the next one,
// which the server accepts), so how long a step takes on a busy machine does not matter.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { toastWith } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { seedE2E } from './support/seed';
import { E2E_ACCOUNTS, E2E_PASSWORD } from './support/seed-auth';

const ADMIN = E2E_ACCOUNTS.admin;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-2fa-'));
  await seedE2E(dataDir);
  server = await startServerProcess({
    port: await freePort(),
    dataDir,
    name: 'del segundo factor',
    env: { NODE_ENV: 'test' },
  });
});
test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The code an authenticator app shows now; `next`: the one of the following 30 seconds. */
const codeOf = (secret: string, next = false) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + (next ? 30_000 : 0) });

test('an admin must set up the second factor, then signs in with a code from the app', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: server.origin,
    locale: 'es-VE',
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, E2E_PASSWORD);
  await page.goto('/admin/ajustes');
  await page.getByLabel('Exigir segundo factor a los administradores').check();
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(toastWith(page, 'Ajustes guardados')).toBeVisible();
  await context.clearCookies();

  // The next sign-in: nothing opens before the second factor is set up.
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { name: 'Configura el segundo factor' })).toBeVisible();
  const qr = page.getByRole('img', { name: 'Código QR para tu aplicación de autenticación' });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: path.join(os.tmpdir(), 'comando-segundo-factor-alta.png') });
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);

  const secret = (await page.getByTestId('clave-segundo-factor').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page
    .getByRole('textbox', { name: 'Código de la aplicación' })
    .fill('000000' === codeOf(secret) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('El código no es correcto o ya se usó.', { exact: false })).toBeVisible();
  await page.getByRole('textbox', { name: 'Código de la aplicación' }).fill(codeOf(secret));
  await page.getByRole('button', { name: 'Confirmar' }).click();
  const codes = page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'Ya los guardé, continuar' }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);

  // Signing in again asks for a code; the one of the next step is taken (the last one was spent).
  await context.clearCookies();
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(ADMIN.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { name: 'Segundo factor' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Código de verificación' }).fill(codeOf(secret, true));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
  await context.close();
});
