// People and access in the back office: accounts with one-time passwords, resets that end sessions,
// disabling, departments per person and in bulk. Against a server of its own (see admin-server.ts).
import { expect, type Page, test } from '@playwright/test';
import { type AdminServer, DESKTOP, signedIn, startAdminServer, toastWith } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signInWithOneTimePassword } from './support/login';

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name });

/** Reads the one-time password from its dialog, checks the warning, and closes it. */
async function takeOneTimePassword(page: Page): Promise<string> {
  const dialog = dialogNamed(page, 'Contraseña temporal');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('no se volverá a mostrar', { exact: false })).toBeVisible();
  const password = (await dialog.getByTestId('one-time-password-value').textContent())?.trim() ?? '';
  expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await dialog.getByRole('button', { name: 'Copiar contraseña' }).click();
  await expect(toastWith(page, 'Contraseña copiada').last()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  await dialog.getByRole('button', { name: 'Listo' }).click();
  await expect(dialog).toBeHidden();
  return password;
}

test('an admin creates an account with a one-time password; a reset ends its session; disabling locks it out', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { context, page } = await signedIn(browser, server, { form: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The menu offers the back office; it opens on the people section.
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page.getByTestId('mobile-menu').getByRole('link', { name: 'Administración' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Administración' })).toBeVisible();
  await page.getByRole('link', { name: 'Personas' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Personas' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'admin@e2e.example' }).getByText('Tú')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Create: the e-mail is checked first, then the account is made with a department.
  await page.getByRole('button', { name: 'Nueva persona' }).click();
  const create = dialogNamed(page, 'Nueva persona');
  await create.getByLabel('Correo electrónico').fill('no-es-un-correo');
  await create.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(create.getByText('El formato del email es inválido.')).toBeVisible();
  await create.getByLabel('Correo electrónico').fill('Nueva.Validadora@E2E.example');
  await create.getByLabel('Filtrar departamentos').fill('simon');
  await create.getByRole('checkbox', { name: 'Simón Bolívar' }).check();
  await expectNoSeriousA11yViolations(page);
  await create.getByRole('button', { name: 'Crear cuenta' }).click();
  const first = await takeOneTimePassword(page);

  const card = page.getByRole('article', { name: 'nueva.validadora@e2e.example' });
  await expect(card.getByText('Simón Bolívar')).toBeVisible();
  await expect(card.getByText('Nunca ha iniciado sesión')).toBeVisible();

  // The new person signs in with it, must choose their own password first, then lands on their municipality.
  const other = await browser.newContext({ baseURL: server.origin, locale: 'es-VE' });
  const theirs = await other.newPage();
  await signInWithOneTimePassword(theirs, 'nueva.validadora@e2e.example', first, 'mi-clave-propia-2026');
  await expect(theirs).toHaveURL(/\/validation\/simon-bolivar$/);

  // A reset ends that session and shows a new one-time password; the old one no longer works.
  await page.getByRole('button', { name: 'Nueva contraseña: nueva.validadora@e2e.example' }).click();
  await dialogNamed(page, 'Nueva contraseña').getByRole('button', { name: 'Generar contraseña' }).click();
  const second = await takeOneTimePassword(page);
  expect(second).not.toBe(first);
  await theirs.reload();
  await expect(theirs).toHaveURL(/\/login\?next=/);
  await signInWithOneTimePassword(theirs, 'nueva.validadora@e2e.example', second, 'otra-clave-propia-2026');
  await expect(theirs).toHaveURL(/\/validation\/simon-bolivar$/);

  // Disabling asks first, ends the session at once, and the password is refused like a wrong one.
  await page.reload();
  await page.getByRole('button', { name: 'Desactivar: nueva.validadora@e2e.example' }).click();
  const confirm = dialogNamed(page, 'Desactivar cuenta');
  await expect(confirm.getByText('se cerrarán sus sesiones abiertas', { exact: false })).toBeVisible();
  await confirm.getByRole('button', { name: 'Desactivar' }).click();
  await expect(card.getByText('Desactivada')).toBeVisible();
  await theirs.reload();
  await expect(theirs).toHaveURL(/\/login\?next=/);
  await theirs.getByLabel('Correo electrónico').fill('nueva.validadora@e2e.example');
  await theirs.getByLabel('Contraseña', { exact: true }).fill(second);
  await theirs.getByRole('button', { name: 'Entrar' }).click();
  await expect(theirs.locator('.Toastify').getByText('Error en usuario o contraseña.')).toBeVisible();

  // The search finds the account among the disabled ones.
  await page.getByLabel('Estado').selectOption('disabled');
  await page.getByLabel('Buscar por correo').fill('nueva.');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByText('Mostrando 1–1 de 1 personas')).toBeVisible();
  await other.close();
  await context.close();
});

test('an admin gives a department to a pasted list: review, apply, and a report per line', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server, { viewport: DESKTOP });
  await page.goto('/admin/personas');
  await page.getByRole('button', { name: 'Acceso en bloque' }).click();
  const dialog = dialogNamed(page, 'Acceso en bloque');
  await dialog
    .getByLabel('Correos')
    .fill(
      'validador.cabimas@e2e.example, nuevo.uno@e2e.example\nesto no es un correo\nNuevo Dos <nuevo.dos@e2e.example>; validador.cabimas@e2e.example',
    );
  await dialog.getByLabel('Departamento').selectOption({ label: 'Baralt' });
  await dialog.getByRole('button', { name: 'Revisar' }).click();
  const report = dialog.getByTestId('bulk-report');
  await expect(report.getByRole('status')).toHaveText(
    'Revisión (sin cambios): 3 reciben acceso en Baralt; 0 sin cambio; 1 línea inválida; 1 repetida.',
  );
  await expect(report.getByRole('listitem')).toHaveCount(5);
  await expect(report.getByRole('listitem').nth(2)).toContainText('Línea 2');
  await expect(report.getByRole('listitem').nth(2)).toContainText('No es un correo válido.');
  await expectNoSeriousA11yViolations(page);

  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  await expect(report.getByRole('status')).toHaveText(
    '3 recibieron acceso en Baralt; 0 sin cambio; 1 línea inválida; 1 repetida.',
  );
  await expect(toastWith(page, 'Acceso concedido en Baralt: 3 correos.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  // The validator now has Baralt too, as the card and their menu show.
  await page.getByLabel('Buscar por correo').fill('validador.cabimas');
  const card = page.getByRole('article', { name: 'validador.cabimas@e2e.example' });
  await expect(card.getByText('Baralt')).toBeVisible();
  const validator = await signedIn(browser, server, {
    email: 'validador.cabimas@e2e.example',
    viewport: DESKTOP,
    form: true,
  });
  // Baralt comes first in the menu's order, so that is where they land now.
  await expect(validator.page).toHaveURL(/\/validation\/baralt$/);
  await expect(validator.page.getByRole('heading', { level: 1, name: 'BARALT' })).toBeVisible();

  // Per person: untick Baralt again.
  await card.getByRole('button', { name: 'Departamentos: validador.cabimas@e2e.example' }).click();
  const departments = dialogNamed(page, 'Departamentos');
  await departments.getByRole('checkbox', { name: 'Baralt' }).uncheck();
  await departments.getByRole('button', { name: 'Guardar departamentos' }).click();
  await expect(card.getByText('Baralt')).toHaveCount(0);
  await validator.page.reload();
  await expect(validator.page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  const menu = await (await validator.page.request.get('/api/auth/session')).json();
  expect(menu.menu.map((m: { path: string }) => m.path)).toEqual(['/validation/cabimas']);
  await validator.context.close();
  await context.close();
});

test('the back office is not there for anyone but admins', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server, { email: 'validador.cabimas@e2e.example' });
  await page.goto('/admin/personas');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  const api = await page.request.get('/api/admin/users');
  expect(api.status()).toBe(404);
  await context.close();
});
