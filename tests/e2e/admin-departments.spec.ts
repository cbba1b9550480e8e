// Departments in the back office: progress, titles and allow-lists, on a server of its own.
import { expect, test } from '@playwright/test';
import { type AdminServer, DESKTOP, signedIn, startAdminServer, toastWith } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { RECORDS_ACCOUNTS, RECORDS_PASSWORD } from './support/seed-records';

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

test('an admin sees a municipality’s progress, renames it and edits its allow-list', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server);
  await page.goto('/admin/departamentos');
  await expect(page.getByRole('heading', { level: 2, name: 'Departamentos' })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(40);
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Buscar departamento').fill('santa r');
  const card = page.getByRole('article', { name: 'Santa Rita' });
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card.getByText('1 persona en la lista · 1 de 2 validados (50,00 %)')).toBeVisible();
  await expect(card.getByRole('progressbar', { name: 'Avance de Santa Rita' })).toHaveAttribute('aria-valuenow', '50');

  await card.getByRole('button', { name: 'Editar: Santa Rita' }).click();
  const dialog = page.getByTestId('department-dialog');
  await expect(dialog.getByText('Ruta /validation/santa-rita')).toBeVisible();
  await expect(dialog.getByText(RECORDS_ACCOUNTS.santaRita.email)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // A new title: the card and the validator's menu show it at once.
  await dialog.getByLabel('Título').fill('');
  await dialog.getByRole('button', { name: 'Guardar título' }).click();
  await expect(dialog.getByText('Indica el título.')).toBeVisible();
  await dialog.getByLabel('Título').fill('Santa Rita (Costa Oriental)');
  await dialog.getByRole('button', { name: 'Guardar título' }).click();
  await expect(toastWith(page, 'Título guardado: Santa Rita (Costa Oriental)')).toBeVisible();
  const validator = await signedIn(browser, server, {
    email: RECORDS_ACCOUNTS.santaRita.email,
    password: RECORDS_PASSWORD,
    viewport: DESKTOP,
  });
  const session = await (await validator.page.request.get('/api/auth/session')).json();
  expect(session.menu).toEqual([{ title: 'Santa Rita (Costa Oriental)', path: '/validation/santa-rita' }]);
  await validator.context.close();

  // Add two e-mails by pasting them, then take one off again.
  await dialog.getByLabel('Correos', { exact: true }).fill('lista.nueva@e2e.example; validador.cabimas@e2e.example');
  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  await expect(dialog.getByTestId('bulk-report').getByRole('status')).toContainText('2 recibieron acceso');
  const list = dialog.getByRole('list').first();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('listitem').filter({ hasText: 'lista.nueva@e2e.example' })).toContainText('Sin cuenta');
  await dialog.getByRole('button', { name: 'Quitar: lista.nueva@e2e.example' }).click();
  await expect(
    toastWith(page, 'lista.nueva@e2e.example ya no tiene acceso a Santa Rita (Costa Oriental)'),
  ).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  await page.getByLabel('Buscar departamento').fill('costa oriental');
  await expect(page.getByRole('article', { name: 'Santa Rita (Costa Oriental)' })).toContainText(
    '2 personas en la lista',
  );
  await context.close();
});
