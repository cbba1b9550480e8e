import { expect, type Page, test } from '@playwright/test';
import { FIREBASE_DISABLED_EMAIL, FIREBASE_ONLY_EMAIL } from '../support/firebase-contract-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { E2E_ACCOUNTS, E2E_PASSWORD } from './support/seed-auth';
import { E2E_SERVERS, FIREBASE_CONTRACT } from './support/servers';

// The same app and accounts, with passwords checked by Firebase Auth (a local Identity Toolkit stand-in
// that signs its ID tokens; the app verifies them against the keys the stand-in publishes).
test.use({ baseURL: E2E_SERVERS.firebase.url });

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1920, height: 1080 };
const { admin, adminLogout, validatorTwo, validatorA, validatorB, disabled, noDepartment } = E2E_ACCOUNTS;

const emailField = (page: Page) => page.getByLabel('Correo electrónico');
const passwordField = (page: Page) => page.getByLabel('Contraseña', { exact: true });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Principal' });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function submit(page: Page, email: string, password: string) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Every request the page makes that does not go to the app itself or to the Firebase stand-in. */
function watchForeignRequests(page: Page): string[] {
  const foreign: string[] = [];
  const allowed = [new URL(E2E_SERVERS.firebase.url).origin, new URL(FIREBASE_CONTRACT.url).origin];
  page.on('request', (r) => {
    const origin = new URL(r.url()).origin;
    if (!allowed.includes(origin) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  return foreign;
}

test.describe('sign-in with Firebase Auth', () => {
  test('the login page is the same form, clean for axe, at phone size and at 1920 px', async ({ browser }, info) => {
    for (const [name, viewport] of [
      ['telefono', PHONE],
      ['1920', WIDE],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
      await expect(passwordField(page)).toHaveAttribute('type', 'password');
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: info.outputPath(`login-firebase-${name}.png`), fullPage: true });
      await submit(page, validatorB.email, 'no-es-la-clave');
      // Fully slid in from the right before the picture is taken.
      await expect(toast(page, 'Error en usuario o contraseña.')).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: info.outputPath(`login-firebase-${name}-error.png`) });
      await context.close();
    }
  });

  const formMessages: [string, string, string][] = [
    ['', '', 'Debes completar todos los campos de la forma.'],
    ['ana.example.org', 'secreto123', 'El formato del email es inválido.'],
    ['ana@example.org', '12345', 'La contraseña debe tener al menos 6 caracteres.'],
  ];
  for (const [email, password, message] of formMessages) {
    test(`checks the form before Firebase is asked: "${message}"`, async ({ page }) => {
      const toFirebase: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('accounts:signInWithPassword')) toFirebase.push(r.url());
      });
      await page.goto('/login');
      await submit(page, email, password);
      await expect(toast(page, message)).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      expect(toFirebase).toEqual([]);
    });
  }

  const refused: [string, string, string][] = [
    ['a wrong password (refused by Firebase)', admin.email, 'no-es-la-clave'],
    ['an e-mail Firebase does not know', 'nadie@e2e.example', E2E_PASSWORD],
    ['an account Firebase has disabled', FIREBASE_DISABLED_EMAIL, E2E_PASSWORD],
    ['a Firebase account the app has no account for', FIREBASE_ONLY_EMAIL, E2E_PASSWORD],
    ['an account the app has disabled (Firebase lets it in)', disabled.email, disabled.password],
  ];
  for (const [what, email, password] of refused) {
    test(`says "Error en usuario o contraseña." for ${what}`, async ({ page }) => {
      await page.goto('/login');
      await submit(page, email, password);
      await expect(toast(page, 'Error en usuario o contraseña.')).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
    });
  }

  test('an admin lands on Resultados; the ID token goes to the server once; a reload keeps the session', async ({
    page,
  }) => {
    const foreign = watchForeignRequests(page);
    const exchanges: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/firebase')) exchanges.push(r.status());
    });
    const passwordLogins: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/login')) passwordLogins.push(r.url());
    });

    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/resultados$/);
    await expect(page.getByRole('heading', { name: 'RESULTADOS POSTULACIONES' })).toBeVisible();
    await expect(mainNav(page).getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
    expect(exchanges).toEqual([200]);
    expect(passwordLogins).toEqual([]);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'RESULTADOS POSTULACIONES' })).toBeVisible();
    await page.goto('/login');
    await expect(page).toHaveURL(/\/resultados$/);
    expect(exchanges).toEqual([200]);
    // No Firebase credential is kept in the page's storage (in-memory persistence): our HttpOnly cookie
    // is the session. The SDK's heartbeat database only records on which days it was used.
    const stored = await page.evaluate(async () => ({
      storage: [...Object.keys(localStorage), ...Object.keys(sessionStorage)],
      databases: (await indexedDB.databases()).map((d) => d.name),
    }));
    // Only Comando's own keys may be there, none a credential: this phone's device id for the field view
    // (docs/decisions/048) and the session last confirmed, for the navbar offline (decision 061).
    expect(stored.storage.filter((key) => !key.startsWith('comando-'))).toEqual([]);
    expect(stored.databases).not.toContain('firebaseLocalStorageDb');
    expect(foreign).toEqual([]);
    await expectNoSeriousA11yViolations(page);
  });

  test('a validator lands on their first parish, as with local passwords', async ({ page }) => {
    await signIn(page, validatorTwo.email, validatorTwo.password);
    await expect(page).toHaveURL(/\/validation\/coquivacoa$/);
    await expect(page.getByRole('heading', { name: 'COQUIVACOA', exact: true })).toBeVisible();
  });

  test('staff on no list see the notice, as with local passwords', async ({ page }) => {
    await page.goto('/login');
    await submit(page, noDepartment.email, noDepartment.password);
    await expect(
      page.getByText('Tu cuenta todavía no tiene acceso a ningún departamento.', { exact: false }),
    ).toBeVisible();
  });

  test('Cerrar sesión ends our session and the SDK’s; signing in again asks Firebase again', async ({ page }) => {
    await signIn(page, adminLogout.email, adminLogout.password);
    await expect(page).toHaveURL(/\/resultados$/);
    await mainNav(page).getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(mainNav(page).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
    expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
    await page.goto('/resultados');
    await expect(page).toHaveURL(/\/login\?next=%2Fresultados$/);

    // Same tab, so the SDK is still loaded: a new sign-in must reach Firebase, not reuse a held user.
    const signIns: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('accounts:signInWithPassword')) signIns.push(r.url());
    });
    await submit(page, adminLogout.email, 'no-es-la-clave');
    await expect(toast(page, 'Error en usuario o contraseña.')).toBeVisible();
    expect(signIns).toHaveLength(1);
    expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
  });

  test('on a phone: signing in and the slide-over menu', async ({ browser }, info) => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, validatorA.email, validatorA.password);
    await expect(page).toHaveURL(/\/validation\/cabimas$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await expect(
      page.getByTestId('mobile-menu').getByRole('button', { name: 'Cerrar sesión', exact: true }),
    ).toBeVisible();
    await page.screenshot({ path: info.outputPath('validator-phone-menu.png') });
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  test('the server refuses a token it did not see Firebase sign, and password sign-in is off', async ({ page }) => {
    await page.goto('/login');
    const origin = new URL(page.url()).origin;
    const forged = await page.request.post('/api/auth/firebase', {
      data: { idToken: 'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJlbWFpbCI6ImFkbWluQGUyZS5leGFtcGxlIn0.' },
      headers: { origin },
    });
    expect(forged.status()).toBe(401);
    expect((await forged.json()).message).toBe('Error en usuario o contraseña.');
    const password = await page.request.post('/api/auth/login', {
      data: { email: admin.email, password: admin.password },
      headers: { origin },
    });
    expect(password.status()).toBe(403);
    expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
  });
});
