// A double click on every create button of the back office leaves one row (decision 066), on a server of
// its own. The second click of a double click comes before the page has drawn the disabled button.
import { expect, type Page, test } from '@playwright/test';
import { type AdminServer, DESKTOP, signedIn, startAdminServer, toastWith } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

/** GET an admin API answer with the page's session. */
async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.ok(), url).toBe(true);
  return (await res.json()) as T;
}

test('a double click on each create button of the back office creates one row', async ({ browser }) => {
  test.slow(); // six forms in one story
  const { context, page } = await signedIn(browser, server, { viewport: DESKTOP });

  // Agenda: 'Crear evento'.
  await page.goto('/admin/agenda');
  await page.getByLabel('Día', { exact: true }).fill('2026-12-20');
  await page.getByRole('button', { name: 'Nuevo evento' }).click();
  const event = page.getByRole('dialog', { name: 'Nuevo evento' });
  await event.getByLabel('Hora (24 horas)').fill('19:30');
  await event.getByLabel('Descripción').fill('Mitin del doble clic');
  await event.getByRole('button', { name: 'Crear evento' }).dblclick();
  await expect(toastWith(page, 'Evento creado.')).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Mitin del doble clic' })).toHaveCount(1);
  const agenda = await api<{ events: { descripcion: string }[] }>(
    page,
    '/api/admin/agenda?from=2026-12-20&to=2026-12-20',
  );
  expect(agenda.events.filter((e) => e.descripcion === 'Mitin del doble clic')).toHaveLength(1);

  // Notas: 'Guardar borrador'.
  await page.goto('/admin/notas/nueva');
  await page.getByRole('textbox', { name: 'Título' }).fill('Nota del doble clic');
  await page.getByRole('textbox', { name: 'Contenido' }).fill('Una sola vez.');
  await page.getByRole('button', { name: 'Guardar borrador' }).dblclick();
  await expect(page).toHaveURL(/\/admin\/notas\/\d+$/);
  const notas = await api<{ items: { title: string }[] }>(page, '/api/admin/notas?q=doble');
  expect(notas.items.filter((n) => n.title === 'Nota del doble clic')).toHaveLength(1);

  // Candidatos: 'Añadir candidato'.
  await page.goto('/admin/candidatos');
  await page.getByRole('button', { name: 'Nuevo candidato' }).click();
  const candidate = page.getByRole('dialog', { name: 'Nuevo candidato' });
  await candidate.getByLabel('Nombre').fill('Dora Doble');
  await candidate.getByLabel('Código').fill('DD');
  await candidate.getByLabel('Color', { exact: true }).fill('#7C3AED');
  await candidate.getByRole('button', { name: 'Añadir candidato' }).dblclick();
  await expect(candidate).toBeHidden();
  const candidates = await api<{ items: { code: string }[] }>(page, '/api/admin/candidates');
  expect(candidates.items.filter((c) => c.code === 'DD')).toHaveLength(1);

  // Personas: 'Crear cuenta'.
  await page.goto('/admin/personas');
  await page.getByRole('button', { name: 'Nueva persona' }).click();
  const person = page.getByRole('dialog', { name: 'Nueva persona' });
  await person.getByLabel('Correo electrónico').fill('doble.clic@e2e.example');
  await person.getByRole('button', { name: 'Crear cuenta' }).dblclick();
  await expect(toastWith(page, 'Cuenta creada para doble.clic@e2e.example')).toHaveCount(1);
  const users = await api<{ items: { email: string }[] }>(page, '/api/admin/users?q=doble.clic');
  expect(users.items).toHaveLength(1);

  // Registros: 'Agregar registro'.
  await page.goto('/admin/registros?municipio=colon');
  await page.getByRole('button', { name: 'Agregar registro' }).click();
  const record = page.getByRole('dialog', { name: 'Agregar registro' });
  await expect(record.getByLabel('Municipio o parroquia')).toHaveValue('colon');
  await record.getByLabel('Nombre').fill('Delia Doble');
  await record.getByLabel('Teléfono').fill('0414-7600001');
  await record.getByRole('button', { name: 'Agregar registro' }).dblclick();
  await expect(toastWith(page, 'Registro agregado.')).toHaveCount(1);
  await expect(record).toBeHidden();
  const records = await api<{ items: { nombre: string }[] }>(page, '/api/admin/records?department=colon&q=Delia');
  expect(records.items).toHaveLength(1);

  // Departamentos: 'Agregar departamento', Valmore Rodríguez (below, on its own).
  await context.close();
});

test('an admin adds Valmore Rodríguez in Departamentos with a double click: one department, at the end of the menu, ready for its list', async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, server);
  await page.goto('/admin/departamentos');
  await expect(page.getByRole('article')).toHaveCount(40);
  await page.getByRole('button', { name: 'Nuevo departamento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo departamento' });
  await dialog.getByLabel('Nombre').fill('Valmore Rodríguez');
  await expect(dialog.getByLabel('Identificador')).toHaveValue('valmore-rodriguez');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Agregar departamento' }).dblclick();
  await expect(toastWith(page, 'Departamento creado: Valmore Rodríguez.')).toHaveCount(1);

  // It opens, to be given its access list; the list of departments has it once, last.
  const opened = page.getByTestId('department-dialog');
  await expect(opened.getByText('Ruta /validation/valmore-rodriguez')).toBeVisible();
  await opened.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(page.getByRole('article')).toHaveCount(41);
  await expect(page.getByRole('article').last()).toHaveAccessibleName('Valmore Rodríguez');
  const { items } = await api<{ items: { slug: string }[] }>(page, '/api/admin/departments');
  expect(items.filter((d) => d.slug === 'valmore-rodriguez')).toHaveLength(1);

  // The same identifier again is refused, with the reason in the form.
  await page.getByRole('button', { name: 'Nuevo departamento' }).click();
  await dialog.getByLabel('Nombre').fill('Valmore Rodríguez');
  await dialog.getByRole('button', { name: 'Agregar departamento' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Ya existe un departamento con el identificador valmore-rodriguez: Valmore Rodríguez.',
  );
  await context.close();
});
