import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { FIELD_COORDINATOR, OUTBOX_ACCOUNTS, OUTBOX_PASSWORD } from './support/seed-outbox';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/ballot.jpg');

test("the coordinator's field view shows a validator's waiting photo, and clears when it arrives", async ({
  browser,
}) => {
  // Two people, a photo held back and let go, and a view that asks again every 10 s: about a minute.
  test.setTimeout(120_000);
  const { email, slug } = OUTBOX_ACCOUNTS.field;
  const name = `Votante ${String(1 + test.info().repeatEachIndex).padStart(2, '0')} de ${slug}`;

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

  // The network lets the photo through; the phone notices it is back and sends it.
  await validator.unroute('**/api/photo-uploads**');
  await phone.setOffline(true);
  await phone.setOffline(false);
  await expect(state).toHaveText(['Enviado'], { timeout: 30_000 });
  // The view asks again by itself: nothing waits on that phone any more.
  await expect(cells.nth(1)).toHaveText('0', { timeout: 30_000 });
  await expect(cells.nth(2)).toHaveText('—');
  await expect(row.getByText('Atascado')).toHaveCount(0);

  await phone.close();
  await office.close();
});
