import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { type AdminServer, startAdminServer } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';
import { E2E_ACCOUNTS } from './support/seed-auth';
import { useStoredSession } from './support/sessions';

const { admin } = E2E_ACCOUNTS;
const PHONE = { width: 390, height: 844 };
const CSV = path.resolve(import.meta.dirname, '../fixtures/csv');
const csv = (name: string) => path.join(CSV, name);

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text);

async function review(page: Page, file: string) {
  await page.goto('/admin/registros/importar');
  await page.getByLabel('Archivo CSV').setInputFiles(csv(file));
  await page.getByRole('button', { name: 'Revisar el archivo' }).click();
}

// The stories build on each other (serial), on a server of their own: a retry starts in a new worker,
// so on a fresh server with the standard e2e data, never on what a failed attempt left behind.
const test = base.extend<object, { server: AdminServer }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies first
    async ({}, use) => {
      const server = await startAdminServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.origin),
});
test.describe.configure({ mode: 'serial' });
test.use({ viewport: PHONE, hasTouch: true });

test('imports a CSV after reviewing it: counts, duplicates, then every new row at once', async ({ page, server }) => {
  await useStoredSession(page, server.origin, admin.email, admin.password);
  await review(page, 'registros-validos.csv');
  await expect(page.getByText('Revisión terminada: todavía no se importó nada.')).toBeVisible();
  await expect(page.getByTestId('import-rows')).toHaveText('5');
  await expect(page.getByTestId('import-valid')).toHaveText('4');
  await expect(page.getByTestId('import-dup-file')).toHaveText('1');
  await expect(page.getByTestId('import-invalid')).toHaveText('0');
  await expect(page.getByText(/UTF-8 con BOM, separado por punto y coma/)).toBeVisible();
  const duplicates = page.getByRole('table', { name: /Repetidas/ });
  await expect(duplicates.getByRole('row', { name: /YELITZA RINCON PAZ/ })).toContainText('la línea 2');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Importar 4 registros' }).tap();
  await expect(page.getByRole('heading', { name: 'Importación terminada' })).toBeVisible();
  await expect(toast(page, 'Se importaron 4 registros.')).toBeVisible();
  await expect(page.getByTestId('import-valid')).toHaveText('4');

  await page.getByRole('link', { name: 'Ver los registros' }).tap();
  await page.getByLabel('Municipio o parroquia').selectOption('catatumbo');
  await expect(page.getByRole('article')).toHaveCount(2);
  // Phones masked for the back office; 'Mostrar' shows one (and the server audits the look).
  const yelitza = page.getByRole('article', { name: 'Yelitza Rincón Paz' });
  await expect(yelitza).toContainText('•••• •• 00 01');
  await expect(yelitza).not.toContainText('0414-7100001');
  await page.screenshot({ path: path.join(os.tmpdir(), 'comando-registros-enmascarados.png') });
  await yelitza.getByRole('button', { name: 'Mostrar el teléfono de Yelitza Rincón Paz' }).tap();
  await expect(yelitza).toContainText('0414-7100001');
  await page.getByLabel('Municipio o parroquia').selectOption('colon');
  await expect(page.getByRole('article', { name: 'Marbelis Añez' })).toContainText('Barrio "La Ceiba"');
  await expectNoSeriousA11yViolations(page);

  // The same file again: everything is already there, nothing new to import.
  await review(page, 'registros-validos.csv');
  await expect(page.getByTestId('import-valid')).toHaveText('0');
  // Every row is now a record already there, the one that repeated another row too.
  await expect(page.getByTestId('import-dup-db')).toHaveText('5');
  await expect(page.getByTestId('import-dup-file')).toHaveText('0');
  await expect(page.getByRole('button', { name: /^Importar \d/ })).toHaveCount(0);
});

test('reports rows with errors by line and column, and a malformed file, importing nothing', async ({
  page,
  server,
}) => {
  await useStoredSession(page, server.origin, admin.email, admin.password);
  await review(page, 'registros-con-errores.csv');
  await expect(page.getByTestId('import-invalid')).toHaveText('3');
  const errors = page.getByRole('table', { name: /Filas con errores/ });
  await expect(errors.getByRole('row', { name: /^3 Teléfono/ })).toContainText(
    'El teléfono solo puede tener números, espacios, +, -, paréntesis y puntos.',
  );
  await expect(errors.getByRole('row', { name: /^4 Nombre/ })).toContainText('Escribe el nombre.');
  await expect(errors.getByRole('row', { name: /^5 Municipio/ })).toContainText(
    'No existe el municipio o parroquia «maracaibo».',
  );
  await expect(page.getByRole('button', { name: 'Importar solo la fila válida' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Elegir otro archivo' }).tap();
  await page.getByLabel('Archivo CSV').setInputFiles(csv('registros-malformado.csv'));
  await page.getByRole('button', { name: 'Revisar el archivo' }).tap();
  await expect(page.getByText('No se importó nada: el archivo tiene problemas que impiden leerlo.')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    'Línea 3: Comillas sin cerrar: el campo que empieza en la línea 3 no se cierra antes del fin del archivo.',
  );
  await expect(page.getByRole('button', { name: /^Importar/ })).toHaveCount(0);
});

test('reads a Latin-1 file with its accents', async ({ page, server }) => {
  await useStoredSession(page, server.origin, admin.email, admin.password);
  await review(page, 'registros-latin1.csv');
  await expect(page.getByText(/Latin-1, separado por punto y coma/)).toBeVisible();
  await page.getByRole('button', { name: 'Importar 2 registros' }).tap();
  await expect(page.getByRole('heading', { name: 'Importación terminada' })).toBeVisible();
  await page.goto('/admin/registros?municipio=colon');
  await expect(page.getByRole('article', { name: 'José Añez Semprún' })).toContainText('Caserío Peña Blanca');
  await expect(page.getByRole('article', { name: 'María Ñañez' })).toBeVisible();
});

test('adds, edits and voids a record by hand, and exports the municipality as CSV', async ({ page, server }) => {
  test.slow(); // a whole story in one test
  await useStoredSession(page, server.origin, admin.email, admin.password);
  await page.goto('/admin/registros?municipio=colon');
  await expect(page.getByRole('article').first()).toBeVisible();
  await page.getByRole('button', { name: 'Agregar registro' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Agregar registro' });
  await expect(dialog.getByLabel('Municipio o parroquia')).toHaveValue('colon');
  await dialog.getByLabel('Nombre').fill('Xiomara Prueba');
  await dialog.getByLabel('Teléfono').fill('0414-7500001');
  await dialog.getByLabel('Comunidad').fill('=SUMA(A1)');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Agregar registro' }).tap();
  await expect(toast(page, 'Registro agregado.')).toBeVisible();
  const card = page.getByRole('article', { name: 'Xiomara Prueba' });
  await expect(card).toContainText('•••• •• 00 01');

  // The same person again is refused, with the reason in the form.
  await page.getByRole('button', { name: 'Agregar registro' }).tap();
  await dialog.getByLabel('Nombre').fill('XIOMARA  prueba');
  await dialog.getByLabel('Teléfono').fill('+58 414 7500001');
  await dialog.getByRole('button', { name: 'Agregar registro' }).tap();
  await expect(dialog.getByRole('alert')).toContainText('Ya existe un registro de Xiomara Prueba con ese teléfono');
  await dialog.getByRole('button', { name: 'Cancelar' }).tap();

  await card.getByRole('button', { name: 'Editar: Xiomara Prueba' }).tap();
  const edit = page.getByRole('dialog', { name: 'Editar registro' });
  await edit.getByLabel('UBCH').fill('UBCH 110123099');
  await edit.getByRole('button', { name: 'Guardar cambios' }).tap();
  await expect(toast(page, 'Registro actualizado.')).toBeVisible();
  await expect(card).toContainText('UBCH 110123099');

  const summary = page.getByTestId('registros-resumen');
  const before = Number(/(\d+) trámites? en la lista/.exec((await summary.textContent()) ?? '')?.[1]);
  await card.getByRole('button', { name: 'Anular: Xiomara Prueba' }).tap();
  const confirm = page.getByRole('dialog', { name: 'Anular registro' });
  await confirm.getByLabel('Motivo').fill('Registro de prueba');
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Anular registro' }).tap();
  await expect(toast(page, 'Registro anulado: ya no aparece en las listas.')).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(summary).toContainText(`${before - 1} trámites en la lista`);
  // The filter lives in the URL: the radio shows the choice once that navigation is done.
  await page.getByRole('radio', { name: 'Anulados' }).click();
  await expect(page.getByRole('radio', { name: 'Anulados' })).toBeChecked();
  await expect(page.getByRole('article', { name: 'Xiomara Prueba' })).toContainText('Anulado');

  // A voided record comes back, with the reason.
  await page.getByRole('button', { name: 'Restaurar: Xiomara Prueba' }).tap();
  const restore = page.getByRole('dialog', { name: 'Restaurar registro' });
  await restore.getByLabel('Motivo').fill('Anulado por error');
  await expectNoSeriousA11yViolations(page);
  await restore.getByRole('button', { name: 'Restaurar registro' }).tap();
  await expect(toast(page, 'Registro restaurado: vuelve a la lista de validación.')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Xiomara Prueba' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Sin anular' }).click();
  await expect(page.getByRole('article', { name: 'Xiomara Prueba' })).toBeVisible();
  await page.getByRole('button', { name: 'Anular: Xiomara Prueba' }).tap();
  await confirm.getByLabel('Motivo').fill('Registro de prueba');
  await confirm.getByRole('button', { name: 'Anular registro' }).tap();
  await expect(toast(page, 'Registro anulado: ya no aparece en las listas.').first()).toBeVisible();

  // The filter lives in the URL: the radio shows the choice once that navigation is done.
  await page.getByRole('radio', { name: 'Todos' }).click();
  await expect(page.getByRole('radio', { name: 'Todos' })).toBeChecked();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exportar CSV' }).tap(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^registros-colon-\d{4}-\d\d-\d\d\.csv$/);
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text).toContain(
    'Comunidades;Nombre;UBCH;Telefono;Departamento;Estado;Votos;Votado el (hora de Caracas, UTC-04:00);ID',
  );
  expect(text).toContain("'=SUMA(A1);Xiomara Prueba;UBCH 110123099;0414-7500001;colon;anulado;");
  expect(text).toContain('José Añez Semprún');
});
