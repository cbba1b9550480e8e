import { expect, type Page, test } from '@playwright/test';
import { openPage } from './support/app-ready';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { attemptIndex } from './support/attempt';
import { E2E_ACCOUNTS, oneTimeAccount, throttledAccount } from './support/seed-auth';
import { E2E_SERVERS } from './support/servers';
import { useStoredSession } from './support/sessions';

const PHONE = { width: 390, height: 844 };
const {
  admin,
  adminLogout,
  validatorTwo,
  validatorA,
  validatorB,
  notasEditor,
  noDepartment,
  disabled,
} = E2E_ACCOUNTS;

const emailField = (page: Page) => page.getByLabel('Correo electrónico');
const passwordField = (page: Page) => page.getByLabel('Contraseña', { exact: true });
const enter = (page: Page) => page.getByRole('button', { name: 'Entrar' });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Principal' });

async function submit(page: Page, email: string, password: string) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await enter(page).click();
}

test.describe('login page', () => {
  test('has the spec’s fields, an accessible eye toggle and no accessibility problems', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
    await expect(emailField(page)).toBeVisible();
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
    await expectNoSeriousA11yViolations(page);

    await passwordField(page).fill('secreto123');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    await expect(passwordField(page)).toHaveAttribute('type', 'text');
    await expect(passwordField(page)).toHaveValue('secreto123');
    await page.getByRole('button', { name: 'Ocultar contraseña' }).click();
    await expect(passwordField(page)).toHaveAttribute('type', 'password');

    // Keyboard order: e-mail, password, eye toggle, Entrar.
    await emailField(page).focus();
    await page.keyboard.press('Tab');
    await expect(passwordField(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Mostrar contraseña' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(enter(page)).toBeFocused();
  });

  const formMessages: [string, string, string, string][] = [
    ['nothing filled in', '', '', 'Debes completar todos los campos de la forma.'],
    ['no password', 'ana@example.org', '', 'Debes completar todos los campos de la forma.'],
    ['a malformed e-mail', 'ana.example.org', 'secreto123', 'El formato del email es inválido.'],
    ['a short password', 'ana@example.org', '12345', 'La contraseña debe tener al menos 6 caracteres.'],
  ];
  for (const [what, email, password, message] of formMessages) {
    test(`says "${message}" for ${what}`, async ({ page }) => {
      await page.goto('/login');
      await submit(page, email, password);
      await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  const refused: [string, string, string][] = [
    ['a wrong password', admin.email, 'no-es-la-clave'],
    ['an unknown e-mail', 'nadie@e2e.example', admin.password],
    ['a disabled account', disabled.email, disabled.password],
  ];
  for (const [what, email, password] of refused) {
    test(`says "Error en usuario o contraseña." for ${what}`, async ({ page }) => {
      await page.goto('/login');
      await submit(page, email, password);
      await expect(page.getByRole('alert').filter({ hasText: 'Error en usuario o contraseña.' })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test('slows down repeated failures and says when to try again', async ({ page }) => {
    // An account of this run's own: a retry would find the counter the try before left.
    const throttled = throttledAccount(attemptIndex());
    await page.goto('/login');
    for (let i = 0; i < 5; i++) {
      const answered = page.waitForResponse('**/api/auth/login');
      await submit(page, throttled.email, `incorrecta-${i}`);
      expect((await answered).status()).toBe(401);
      await expect(page.getByRole('alert').filter({ hasText: 'Error en usuario o contraseña.' })).toBeVisible();
    }
    const refused = page.waitForResponse('**/api/auth/login');
    await submit(page, throttled.email, throttled.password);
    // The block lasts 30 s from the last failure (server tests check it on a clock of their own); here
    // the clock is the real one, so what is left depends on how long the last steps took. The page must
    // say what the server answered, in words.
    const answer = await refused;
    expect(answer.status()).toBe(429);
    const wait = Number(answer.headers()['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);
    await expect(
      page.getByRole('alert').filter({
        hasText: `Demasiados intentos de inicio de sesión. Intenta de nuevo en ${wait} ${wait === 1 ? 'segundo' : 'segundos'}.`,
      }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('after signing in', () => {
  test('an admin lands on Resultados, with Notas, Agenda and Cerrar sesión in the menu', async ({ page }) => {
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/resultados$/);
    await expect(page.getByRole('heading', { name: 'RESULTADOS POSTULACIONES' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Notas' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Agenda' })).toBeVisible();
    // The link to the current page is hidden; no login icon for staff.
    await expect(mainNav(page).getByRole('link', { name: 'Resultados' })).toHaveCount(0);
    await expect(mainNav(page).getByRole('link', { name: 'Iniciar sesión' })).toHaveCount(0);
    await expect(mainNav(page).getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // On /login again, a signed-in admin goes straight back to Resultados.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/resultados$/);
    // Admins are not on any municipality's list.
    await page.goto('/validation/cabimas');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  });

  test('a validator of two parishes lands on the first and sees the other in the menu', async ({ page }) => {
    await signIn(page, validatorTwo.email, validatorTwo.password);
    await expect(page).toHaveURL(/\/validation\/coquivacoa$/);
    await expect(page.getByRole('heading', { name: 'COQUIVACOA', exact: true })).toBeVisible();
    await expect(mainNav(page).getByRole('link')).toHaveText(['Comando Zulia', 'Cristo de Aranza']);
    await mainNav(page).getByRole('link', { name: 'Cristo de Aranza' }).click();
    await expect(page.getByRole('heading', { name: 'CRISTO DE ARANZA' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Coquivacoa' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Cristo de Aranza' })).toHaveCount(0);
  });

  test('a validator of A sees neither B’s page nor B’s API, nor Resultados', async ({ page }) => {
    // Where a validator lands is the tests' above; here a stored session (made through the API) will do.
    await useStoredSession(page, E2E_SERVERS.main.url, validatorA.email, validatorA.password);
    await page.goto('/validation/lagunillas');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
    await expect(page.getByText('LAGUNILLAS')).toHaveCount(0);
    await page.goto('/resultados');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();

    const own = await page.request.get('/api/access/departments/cabimas');
    expect(own.status()).toBe(200);
    const other = await page.request.get('/api/access/departments/lagunillas');
    const unknown = await page.request.get('/api/access/departments/no-existe');
    expect(other.status()).toBe(404);
    expect(await other.text()).toBe(await unknown.text());
    const grant = await page.request.post('/api/access/departments/lagunillas/members', {
      data: { email: validatorA.email },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(grant.status()).toBe(404);
  });

  test('someone on the Notas list gets Notas in their menu and lands there', async ({ page }) => {
    await signIn(page, notasEditor.email, notasEditor.password);
    await expect(page).toHaveURL(/\/notas$/);
    await expect(mainNav(page).getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  });

  test('staff on no list see the login icon link and a notice on /login', async ({ page }) => {
    await page.goto('/login');
    await submit(page, noDepartment.email, noDepartment.password);
    await expect(
      page.getByText('Tu cuenta todavía no tiene acceso a ningún departamento.', { exact: false }),
    ).toBeVisible();
    await openPage(page, '/agenda');
    await expect(mainNav(page).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
    await expect(mainNav(page).getByRole('button', { name: 'Cerrar sesión' })).toHaveCount(0);
    await page.goto('/resultados');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  });
});

test.describe('protected pages and logout', () => {
  test('a deep link sends a visitor to /login and back after signing in', async ({ page }) => {
    await page.goto('/validation/lagunillas');
    await expect(page).toHaveURL(/\/login\?next=%2Fvalidation%2Flagunillas$/);
    await expect(mainNav(page).getByRole('link', { name: 'Iniciar sesión' })).toHaveCount(0);
    await signIn(page, validatorB.email, validatorB.password);
    await expect(page).toHaveURL(/\/validation\/lagunillas$/);
    await expect(page.getByRole('heading', { name: 'LAGUNILLAS' })).toBeVisible();
  });

  test('logout returns to the fixed route, ends the session and protects the pages again', async ({ page }) => {
    await signIn(page, adminLogout.email, adminLogout.password);
    await expect(page).toHaveURL(/\/resultados$/);
    await mainNav(page).getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(mainNav(page).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
    const session = await page.request.get('/api/auth/session');
    expect((await session.json()).user).toBeNull();
    await page.goto('/resultados');
    await expect(page).toHaveURL(/\/login\?next=%2Fresultados$/);
  });

  test('on a phone the slide-over menu holds the departments and Cerrar sesión', async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    // Signing in on a phone is 'the login page works on a phone too'; here a stored session will do.
    await useStoredSession(page, E2E_SERVERS.main.url, validatorTwo.email, validatorTwo.password);
    await page.goto('/validation');
    // As a person would: open the menu once the department's page is there, not while it is loading.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu.getByRole('link', { name: 'Cristo de Aranza' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Coquivacoa' })).toHaveCount(0);
    await expect(menu.getByRole('button', { name: 'Cerrar sesión', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  test('"Cerrar sesión en todos los dispositivos" on one phone signs the other one out too', async ({ browser }) => {
    const { twoPhones } = E2E_ACCOUNTS;
    const phones = await Promise.all([1, 2].map(() => browser.newContext({ viewport: PHONE })));
    const [mine, other] = await Promise.all(phones.map((context) => context.newPage()));
    if (!mine || !other) throw new Error('two pages');
    for (const page of [mine, other]) {
      await signIn(page, twoPhones.email, twoPhones.password);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    await mine.getByRole('button', { name: 'Abrir menú' }).click();
    await mine
      .getByTestId('mobile-menu')
      .getByRole('button', { name: 'Cerrar sesión en todos los dispositivos' })
      .click();
    const ask = mine.getByRole('dialog', { name: 'Cerrar sesión en todos los dispositivos' });
    await expect(ask).toContainText('Se cerrará tu sesión en este y en todos los teléfonos y computadoras');
    await expectNoSeriousA11yViolations(mine);
    await ask.getByRole('button', { name: 'Cerrar todas las sesiones' }).click();
    await expect(mine).toHaveURL(/\/$/);
    await expect(mainNav(mine).getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
    // The other phone's session ended too: its next page asks to sign in.
    await other.goto('/validation/sucre');
    await expect(other).toHaveURL(/\/login\?next=%2Fvalidation%2Fsucre$/);
    for (const context of phones) await context.close();
  });

  test('a one-time password is typed once: then only the new one, twice, and the rules of a new one', async ({
    page,
  }) => {
    // An account of this run's own: an earlier try may have replaced its one-time password.
    const oneTime = oneTimeAccount(attemptIndex());
    await page.goto('/login');
    await submit(page, oneTime.email, oneTime.password);
    const form = page.getByRole('form', { name: 'Elige tu contraseña' });
    await expect(form).toBeVisible();
    // Two fields: the new password and its repetition. The one-time password is not asked again.
    await expect(form.locator('input')).toHaveCount(2);
    await expect(form.getByText(/un solo uso/)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // One of the most used: the server refuses it, in words.
    await form.getByLabel('Contraseña nueva', { exact: true }).fill('1q2w3e4r5t');
    await form.getByLabel('Repite la contraseña nueva').fill('1q2w3e4r5t');
    await form.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Esa contraseña es de las más usadas y se adivina enseguida. Elige otra menos común.',
    );
    await form.getByLabel('Contraseña nueva', { exact: true }).fill('laguna-de-sinamaica');
    await form.getByLabel('Repite la contraseña nueva').fill('laguna-de-sinamaica');
    await form.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page).toHaveURL(/\/validation\/sucre$/);
  });

  test('the login page works on a phone too', async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/login');
    await expectNoSeriousA11yViolations(page);
    await signIn(page, validatorA.email, validatorA.password);
    await expect(page).toHaveURL(/\/validation\/cabimas$/);
    await context.close();
  });
});
