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
import { seededDatabase, toastWith } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { E2E_ACCOUNTS, E2E_PASSWORD } from './support/seed-auth';

const ADMIN = E2E_ACCOUNTS.admin;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-2fa-'));
  fs.copyFileSync(await seededDatabase(), path.join(dataDir, 'comando.sqlite'));
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

  // Off again: the other admins of this server sign in with their password alone.
  await page.goto('/admin/ajustes');
  await page.getByLabel('Exigir segundo factor a los administradores').uncheck();
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(toastWith(page, 'Ajustes guardados')).toBeVisible();
  await context.close();
});

test('a validator sees their open sessions in Tu cuenta and ends the other one', async ({ browser }) => {
  const validator = E2E_ACCOUNTS.validatorA;
  const other = await browser.newContext({ baseURL: server.origin, locale: 'es-VE' });
  const otherPage = await other.newPage();
  await signIn(otherPage, validator.email, E2E_PASSWORD);

  const context = await browser.newContext({
    baseURL: server.origin,
    locale: 'es-VE',
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await signIn(page, validator.email, E2E_PASSWORD);
  await page.goto('/cuenta');
  await expect(page.getByRole('heading', { name: 'Tu cuenta' })).toBeVisible();
  await expect(page.getByText('Sin activar.', { exact: false })).toBeVisible();
  const sessions = page.getByRole('region', { name: 'Sesiones abiertas' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: '(esta sesión)' })).toHaveCount(1);
  // Both browsers reach the server from this machine: the place of their IP is the local network.
  await expect(sessions.filter({ hasText: 'Red local' })).toHaveCount(2);
  await expectNoSeriousA11yViolations(page);
  await sessions.filter({ hasNotText: '(esta sesión)' }).getByRole('button').click();
  await expect(sessions).toHaveCount(1);

  // The other browser is signed out: its next look at the session finds nobody.
  await otherPage.goto('/cuenta');
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();
  await context.close();
});

test('an admin erases the personal data after asking twice; the lists keep their counts', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: server.origin,
    locale: 'es-VE',
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await signIn(page, E2E_ACCOUNTS.adminLogout.email, E2E_PASSWORD);
  await page.goto('/admin/registros');
  const cards = page.getByRole('article');
  await expect(cards.first()).toBeVisible();
  const before = await cards.count();

  // The personal data go once the day has closed.
  const closed = await page.request.put(`${server.origin}/api/admin/election/phase`, {
    headers: { origin: server.origin },
    data: { phase: 'cerrada', reason: 'Cierre de mesas' },
  });
  expect(closed.status()).toBe(200);
  await page.goto('/admin/ajustes');
  const purge = page.getByRole('region', { name: 'Borrar datos personales' });
  await purge.getByLabel('Conservar las fotos de boletas').check();
  await purge.getByRole('button', { name: 'Borrar datos personales' }).click();
  const confirm = purge.getByLabel('Escribe BORRAR DATOS PERSONALES para confirmar');
  await expect(purge.getByRole('button', { name: 'Borrar definitivamente' })).toBeDisabled();
  await confirm.fill('BORRAR DATOS PERSONALES');
  await purge.getByRole('button', { name: 'Borrar definitivamente' }).click();
  await expect(toastWith(page, /^Datos personales borrados de [\d.]+ trámites\.$/)).toBeVisible();

  await page.goto('/admin/registros');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBe(before);
  // Every name is initials now.
  for (const name of await cards.getByRole('heading').allTextContents())
    expect(name).toMatch(/^(\p{Lu}|\d)\.( (\p{Lu}|\d)\.)*$/u);
  await context.close();
});
