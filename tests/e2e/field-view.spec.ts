import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { attemptIndex } from './support/attempt';
import { signIn } from './support/login';
import { FIELD_COORDINATOR, FIELD_OVERVIEW, OUTBOX_ACCOUNTS, OUTBOX_PASSWORD } from './support/seed-outbox';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/ballot.jpg');

test("the coordinator's field view shows a validator's waiting photo, and clears when it arrives even if the phone never says so", async ({
  browser,
}) => {
  // Two people, a photo held back and let go, and a view that asks again every 10 s: about a minute.
  test.setTimeout(120_000);
  const { email, slug } = OUTBOX_ACCOUNTS.field;
  const name = `Votante ${String(1 + attemptIndex()).padStart(2, '0')} de ${slug}`;

  // The validator's phone: its photo uploads do not get through (the network drops them).
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const validator = await phone.newPage();
  await validator.route('**/api/photo-uploads**', (route) => route.abort('connectionreset'));
  await signIn(validator, email, OUTBOX_PASSWORD);
  await expect(validator).toHaveURL(new RegExp(`/validation/${slug}$`));
  await validator.getByLabel('Buscar').fill(name);
  await expect(validator.getByRole('article')).toHaveCount(1);
  await validator.getByLabel(`Subir foto Gobernador de ${name}`).setInputFiles(FIXTURE);
  const state = validator.getByRole('article', { name }).getByTestId('envio-estado');
  await expect(state).toHaveText(['Guardado en el teléfono']);

  // The coordinator, on the department's list, opens its field view from the validation page.
  const office = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const coordinator = await office.newPage();
  await signIn(coordinator, FIELD_COORDINATOR.email, OUTBOX_PASSWORD);
  await coordinator.getByRole('link', { name: 'Ver el campo: quién tiene envíos pendientes' }).click();
  await expect(coordinator).toHaveURL(new RegExp(`/campo/${slug}$`));
  await expect(coordinator.getByRole('heading', { level: 1, name: 'Campo' })).toBeVisible();
  const row = coordinator.getByRole('row', { name: new RegExp(email.replace(/\./g, '\\.')) });
  const cells = row.getByRole('cell');
  // Last seen, waiting, oldest, last error: the phone reported its photo and why it did not go.
  await expect(cells.nth(1)).toHaveText('1', { timeout: 30_000 });
  await expect(cells.nth(0)).toHaveText(/^hace /);
  await expect(cells.nth(2)).toHaveText(/^hace /);
  await expect(cells.nth(3)).toContainText('No hay conexión con el servidor.');
  await expectNoSeriousA11yViolations(coordinator);

  // From now on the phone's reports never get through (it is closed right after its last send): its
  // last word stays '1 por enviar'.
  let reportsLost = 0;
  await validator.route('**/api/field/reports', (route) => {
    reportsLost++;
    return route.abort('connectionreset');
  });
  // The network lets the photo through; the phone notices it is back and sends it, and is closed.
  await validator.unroute('**/api/photo-uploads**');
  await phone.setOffline(true);
  await phone.setOffline(false);
  await expect(state).toHaveText(['Enviado'], { timeout: 30_000 });
  await phone.close();
  // The view asks again by itself: the server has the photo, so nothing waits on that phone any more.
  await expect(cells.nth(1)).toHaveText('0', { timeout: 30_000 });
  await expect(cells.nth(2)).toHaveText('—');
  await expect(row.getByText('Atascado')).toHaveCount(0);
  expect(reportsLost).toBeGreaterThan(0);

  await office.close();
});

test('Campo opens on every department, the stuck first, says all is clear only when it is, and a ghost can be cleared', async ({
  browser,
}) => {
  const { coordinator, stuck, clear } = FIELD_OVERVIEW;
  const office = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await office.newPage();
  await signIn(page, coordinator, OUTBOX_PASSWORD);
  await page.goto('/campo');
  await expect(page.getByRole('heading', { level: 1, name: 'Campo' })).toBeVisible();
  await expect(page.getByLabel('Municipio o parroquia')).toHaveValue('');

  // The stuck validator of Machiques de Perijá comes first, though it is not the first department of the list.
  const waiting = page.getByRole('table', {
    name: 'Validadores con envíos por enviar, de todos los municipios y parroquias',
  });
  const first = waiting.getByRole('row').nth(1);
  await expect(first.getByRole('rowheader')).toHaveText(`${stuck.email}Atascado`);
  await expect(first.getByRole('link', { name: stuck.title })).toBeVisible();
  await expect(
    page.getByText(/validador(es)? tienen? envíos esperando hace más de 10 min en 1 municipio o parroquia\./),
  ).toBeVisible();
  await expect(page.getByText('Nadie tiene envíos atascados.')).toHaveCount(0);
  const departments = page.getByRole('table', { name: 'Municipios y parroquias', exact: true });
  await expect(departments.getByRole('row').nth(1).getByRole('rowheader')).toHaveText(stuck.title);
  await expect(departments.getByRole('rowheader')).toHaveCount(3);
  await expect(departments.getByRole('link', { name: clear.title })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The single department stays one choice away.
  await page.getByLabel('Municipio o parroquia').selectOption(stuck.slug);
  await expect(page).toHaveURL(new RegExp(`/campo/${stuck.slug}$`));
  await expect(page.getByRole('table', { name: `Validadores de ${stuck.title}` })).toBeVisible();
  await page.getByLabel('Municipio o parroquia').selectOption('');
  await expect(page).toHaveURL(/\/campo$/);

  // That phone went quiet for good: after asking, the coordinator clears it, and all is clear everywhere.
  await page.getByRole('button', { name: `Quitar aviso de ${stuck.email} en ${stuck.title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Quitar aviso' });
  await expect(dialog).toContainText(
    `¿Quitar el envío que el teléfono de ${stuck.email} dijo tener por enviar en ${stuck.title}?`,
  );
  await dialog.getByRole('button', { name: 'Quitar aviso' }).click();
  await expect(page.getByText(`Aviso de ${stuck.email} quitado.`)).toBeVisible();
  await expect(page.getByText('Nadie tiene envíos atascados.')).toBeVisible();
  const theirRow = new RegExp(stuck.email.replace(/\./g, '\\.'));
  await expect(
    page.getByRole('table', { name: /^Validadores con envíos por enviar/ }).getByRole('row', { name: theirRow }),
  ).toHaveCount(0);
  // They stay in the pace table (every member of a list is), no longer stuck, nothing on their phone.
  await expect(page.getByTestId('tabla-ritmo').getByRole('row', { name: theirRow })).not.toContainText('Atascado');

  await office.close();
});
