// An admin replaces a ballot photo a validator filled; the validator still cannot. On a server of its own.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN, type AdminServer, DESKTOP, PHONE, signedIn, startAdminServer } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { RECORDS_ACCOUNTS, RECORDS_PASSWORD, SANTA_RITA_RECORDS } from './support/seed-records';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/ballot.jpg');

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

test('an admin with the parish on their list replaces a filled photo; its validator cannot', async ({ browser }) => {
  test.setTimeout(90_000);
  const { context, page } = await signedIn(browser, server, { viewport: DESKTOP });
  // The one municipality open to this admin: put on Santa Rita's list in the back office.
  await page.goto('/admin/departamentos');
  await page.getByLabel('Buscar departamento').fill('santa r');
  await page.getByRole('button', { name: 'Editar: Santa Rita' }).click();
  const dialog = page.getByTestId('department-dialog');
  await dialog.getByLabel('Correos', { exact: true }).fill(ADMIN.email);
  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  await expect(dialog.getByTestId('bulk-report').getByRole('status')).toContainText('1 recibieron acceso');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  const done = SANTA_RITA_RECORDS.done;
  await page.goto('/validation/santa-rita');
  await page.getByRole('switch', { name: 'Mostrar validados' }).click();
  const card = page.getByRole('article', { name: done.nombre });
  const view = card.getByRole('link', { name: `Ver foto Gobernador de ${done.nombre}` });
  const before = await view.getAttribute('href');
  await expectNoSeriousA11yViolations(page);
  await card.getByLabel(`Reemplazar foto Gobernador de ${done.nombre}`).setInputFiles(FIXTURE);
  // Like every upload it goes through the phone's outbox (no toast any more): done when the link shows
  // the new photo.
  await expect(view).not.toHaveAttribute('href', before ?? '');
  await context.close();

  // The validator of the parish sees the same record without any way to replace its photos.
  const validator = await signedIn(browser, server, {
    email: RECORDS_ACCOUNTS.santaRita.email,
    password: RECORDS_PASSWORD,
    viewport: PHONE,
  });
  await validator.page.goto('/validation/santa-rita');
  await validator.page.getByRole('switch', { name: 'Mostrar validados' }).click();
  const theirs = validator.page.getByRole('article', { name: done.nombre });
  await expect(theirs.getByRole('link', { name: `Ver foto Gobernador de ${done.nombre}` })).toBeVisible();
  await expect(theirs.getByLabel(/^Reemplazar foto/)).toHaveCount(0);
  await validator.context.close();
});
