import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { E2E_ACCOUNTS } from './support/seed-auth';
import { E2E_SERVERS } from './support/servers';
import { useStoredSession } from './support/sessions';

const { admin, notasEditor } = E2E_ACCOUNTS;
const PHONE = { width: 390, height: 844 };
// Days no other spec looks at (the public pages show the e2e "today", 2026-11-22).
const DAY = '2026-12-10';
const NEXT_DAY = '2026-12-11';

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text);

/** Removes what an earlier attempt of these tests left on their days (a retry starts clean). */
async function clearDays(page: Page, from: string, to: string) {
  const origin = E2E_SERVERS.main.url;
  const { events } = (await (await page.request.get(`/api/admin/agenda?from=${from}&to=${to}`)).json()) as {
    events: { id: number }[];
  };
  for (const e of events) await page.request.delete(`/api/admin/agenda/${e.id}`, { headers: { origin } });
}
const dayList = (page: Page) => page.getByRole('list', { name: /^Eventos del/ });

test.describe('agenda editor at phone size', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test('an admin creates, edits, copies and deletes a day’s events', async ({ page }) => {
    test.slow(); // a whole story in one test
    await useStoredSession(page, E2E_SERVERS.main.url, admin.email, admin.password);
    await clearDays(page, DAY, NEXT_DAY);
    await page.goto('/admin/agenda');
    // It opens on the server's today (America/Caracas), with the events the public page shows.
    await expect(page.getByTestId('agenda-admin-day')).toHaveText('DOMINGO, 22 NOV');
    await expect(dayList(page).getByRole('article')).toHaveCount(4);
    await expect(dayList(page).getByRole('article').first()).toContainText('07:05');
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Día', { exact: true }).fill(DAY);
    await expect(page.getByTestId('agenda-admin-day')).toHaveText('JUEVES, 10 DIC');
    await expect(page.getByText('No hay eventos este día.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copiar día' })).toBeDisabled();

    await page.getByRole('button', { name: 'Nuevo evento' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
    await expect(dialog.getByLabel('Fecha')).toHaveValue(DAY);
    await dialog.getByLabel('Hora (24 horas)').fill('24:00');
    await dialog.getByLabel('Descripción').fill('Mitin de prueba e2e');
    await dialog.getByRole('button', { name: 'Crear evento' }).tap();
    await expect(
      dialog.getByText('La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.'),
    ).toBeVisible();
    await expect(dialog.getByLabel('Hora (24 horas)')).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByLabel('Hora (24 horas)').fill('19:30');
    await dialog.getByLabel('Lugar').fill('Plaza de prueba');
    await dialog.getByRole('button', { name: 'Crear evento' }).tap();
    await expect(toast(page, 'Evento creado.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const mitin = page.getByRole('article', { name: 'Mitin de prueba e2e' });
    await expect(mitin).toContainText('19:30');
    await expect(mitin).toContainText('7:30 PM');
    await expect(mitin).toContainText('Plaza de prueba');

    // A second event, earlier in the day: the list stays in time order.
    await page.getByRole('button', { name: 'Nuevo evento' }).tap();
    await dialog.getByLabel('Hora (24 horas)').fill('08:00');
    await dialog.getByLabel('Descripción').fill('Desayuno de prueba e2e');
    await dialog.getByRole('button', { name: 'Crear evento' }).tap();
    await expect(dayList(page).getByRole('article')).toHaveCount(2);
    await expect(dayList(page).getByRole('article').first()).toHaveAccessibleName('Desayuno de prueba e2e');

    await mitin.getByRole('button', { name: 'Editar: Mitin de prueba e2e' }).tap();
    const edit = page.getByRole('dialog', { name: 'Editar evento' });
    await expect(edit.getByLabel('Hora (24 horas)')).toHaveValue('19:30');
    await edit.getByLabel('Hora (24 horas)').fill('06:45');
    await edit.getByRole('button', { name: 'Guardar cambios' }).tap();
    await expect(toast(page, 'Evento actualizado.')).toBeVisible();
    await expect(dayList(page).getByRole('article').first()).toHaveAccessibleName('Mitin de prueba e2e');

    await page.getByRole('button', { name: 'Copiar día' }).tap();
    const copy = page.getByRole('dialog', { name: 'Copiar día' });
    await expect(copy.getByLabel('Copiar al día')).toHaveValue(NEXT_DAY);
    await expectNoSeriousA11yViolations(page);
    await copy.getByRole('button', { name: 'Copiar eventos' }).tap();
    await expect(toast(page, 'Se copiaron 2 eventos.')).toBeVisible();
    await expect(page.getByTestId('agenda-admin-day')).toHaveText('VIERNES, 11 DIC');
    await expect(dayList(page).getByRole('article')).toHaveCount(2);

    // Deleting asks first; cancelling keeps the event.
    await page.getByRole('button', { name: 'Eliminar: Desayuno de prueba e2e' }).tap();
    const confirm = page.getByRole('dialog', { name: 'Eliminar evento' });
    await expect(confirm).toContainText('Desayuno de prueba e2e');
    await confirm.getByRole('button', { name: 'Cancelar' }).tap();
    await expect(dayList(page).getByRole('article')).toHaveCount(2);
    await page.getByRole('button', { name: 'Eliminar: Desayuno de prueba e2e' }).tap();
    await confirm.getByRole('button', { name: 'Eliminar' }).tap();
    await expect(toast(page, 'Evento eliminado.')).toBeVisible();
    await expect(dayList(page).getByRole('article')).toHaveCount(1);

    // The day before still has its own two events.
    await page.getByRole('button', { name: 'Día anterior' }).tap();
    await expect(dayList(page).getByRole('article')).toHaveCount(2);
    // Back to today: the public agenda's day, untouched.
    await page.getByRole('button', { name: 'Hoy' }).tap();
    await expect(dayList(page).getByRole('article')).toHaveCount(4);
  });
});

test('the event form works with the keyboard alone', async ({ page }) => {
  await useStoredSession(page, E2E_SERVERS.main.url, admin.email, admin.password);
  await clearDays(page, '2026-12-20', '2026-12-20');
  await page.goto('/admin/agenda');
  await page.getByLabel('Día', { exact: true }).fill('2026-12-20');
  await expect(page.getByText('No hay eventos este día.')).toBeVisible();
  const open = page.getByRole('button', { name: 'Nuevo evento' });
  await open.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
  await expect(dialog).toBeVisible();
  // Escape closes it and gives the focus back.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await page.keyboard.press('Enter');
  // The day is already the one on screen: the form starts at the time.
  await expect(dialog.getByLabel('Hora (24 horas)')).toBeFocused();
  await page.keyboard.type('21:15');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Cierre con teclado');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Sede');
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Evento creado.')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Cierre con teclado' })).toContainText('9:15 PM');
});

test('someone on the Notas list only cannot open the agenda editor or its API', async ({ page }) => {
  await useStoredSession(page, E2E_SERVERS.main.url, notasEditor.email, notasEditor.password);
  await page.goto('/admin/agenda');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  const api = await page.request.get('/api/admin/agenda?from=2026-11-22&to=2026-11-22');
  expect(api.status()).toBe(404);
});
