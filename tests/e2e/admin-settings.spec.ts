// Settings in the back office, on a server of its own: the campaign name, the leader and the logout
// route change what every visitor sees.
import { expect, test } from '@playwright/test';
import { type AdminServer, signedIn, startAdminServer, toastWith } from './admin-server';
import { openPage } from './support/app-ready';
import { expectNoSeriousA11yViolations } from './support/axe';

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

test('an admin fixes wrong values, saves, and the site follows: name, leader, logout route', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server);
  await page.goto('/admin/ajustes');
  await expect(page.getByLabel('Nombre de la campaña')).toHaveValue('Comando Zulia');
  await expect(page.getByLabel('Denominador de resultados')).toHaveValue('5373');
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Denominador de resultados').fill('-3');
  await page.getByLabel('Ruta al cerrar sesión').fill('https://otro.example');
  await page.getByLabel('Tamaño máximo de foto (MB)').fill('0');
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(page.getByText('El denominador debe ser un número entero positivo.')).toBeVisible();
  await expect(
    page.getByText('La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.'),
  ).toBeVisible();
  await expect(page.getByText('El tamaño máximo de foto debe ser un número entero entre 1 y 50 MB.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Nombre de la campaña').fill('Comando Lago');
  await page.getByLabel('Nombre del líder').fill('Marta Fuenmayor');
  await page.getByLabel('Denominador de resultados').fill('6000');
  await page.getByLabel('Ruta al cerrar sesión').fill('/agenda');
  await page.getByLabel('Tamaño máximo de foto (MB)').fill('8');
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(toastWith(page, 'Ajustes guardados')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Comando Lago' })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Tamaño máximo de foto (MB)')).toHaveValue('8');
  await expect(page.getByLabel('Denominador de resultados')).toHaveValue('6000');

  // The agenda's title names the new leader; logging out leads to the agenda.
  await openPage(page, '/agenda');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Marta Fuenmayor');
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page.getByTestId('mobile-menu').getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/agenda$/);
  await context.close();
});
