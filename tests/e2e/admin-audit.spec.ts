// The audit log in the back office: filters and the CSV of the same rows, on a server of its own.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { type AdminServer, DESKTOP, signedIn, startAdminServer } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

test('an admin filters the log by person, action and dates, and downloads those rows', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server, { viewport: DESKTOP });
  await page.goto('/admin/auditoria');
  const rows = page.getByRole('list', { name: 'Registros de auditoría' }).getByRole('listitem');
  // The newest first: this admin's own sign-in.
  await expect(rows.first()).toContainText('Inicio de sesión');
  await expect(rows.first()).toContainText('admin@e2e.example');
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Persona').fill('validador.cabimas');
  await page.getByLabel('Acción').selectOption({ label: 'Acceso concedido' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Acceso concedido');
  await expect(rows.first()).toContainText('Departamento: Cabimas');
  await expect(rows.first()).toContainText('Persona validador.cabimas@e2e.example');
  await expect(page.getByText('Mostrando 1–1 de 1 registros')).toBeVisible();

  // Dates are Caracas days: everything seeded happened on 22 November.
  await page.getByLabel('Desde').fill('2026-11-23');
  await expect(page.getByText('No hay registros con estos filtros.')).toBeVisible();
  await page.getByLabel('Desde').fill('2026-11-22');
  await page.getByLabel('Hasta').fill('2026-11-21');
  await expect(page.getByText('La fecha inicial no puede ser posterior a la final.')).toBeVisible();
  await page.getByLabel('Hasta').fill('2026-11-22');
  await expect(rows).toHaveCount(1);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Descargar CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('auditoria-2026-11-22.csv');
  const bytes = fs.readFileSync((await file.path()) as string);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
  expect(lines[0]).toBe(
    'Fecha y hora (hora de Caracas, UTC-04:00);Persona;Acción;Descripción;Departamento;Objetivo;IP;Detalles',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    /^2026-11-22 2[0-3]:\d\d:\d\d;e2e;access\.grant;Acceso concedido;cabimas;Persona validador\.cabimas@e2e\.example;;$/,
  );

  // The export itself is in the log.
  await page.getByRole('button', { name: 'Limpiar filtros' }).click();
  await page.getByLabel('Acción').selectOption({ label: 'Exportación de auditoría' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('admin@e2e.example');
  await context.close();
});

test('an admin verifies the audit chain and downloads the evidence package of a municipality', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server, { viewport: DESKTOP });
  await page.goto('/admin/auditoria');
  const panel = page.getByRole('region', { name: 'Cadena de auditoría y evidencias' });
  await expect(panel.getByText('La cadena aún no se ha verificado.')).toBeVisible();
  await panel.getByRole('button', { name: 'Verificar ahora' }).click();
  // The seeded votes and photos were written without audit rows: the check names them.
  await expect(
    panel.getByText(/^Cadena con \d+ problemas: verificada hasta el registro \d+, \d{1,2}:\d\d [ap]\. m\.$/),
  ).toBeVisible();
  await expect(panel.getByRole('listitem').first()).toContainText(/y la cadena dice|no están en la cadena/);
  await expectNoSeriousA11yViolations(page);

  await panel.getByLabel('Municipio del paquete').selectOption({ label: 'Cabimas' });
  const download = page.waitForEvent('download');
  await panel.getByRole('link', { name: 'Descargar paquete de evidencias' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^evidencias-cabimas-.+\.zip$/);
  const bytes = fs.readFileSync((await file.path()) as string);
  // A ZIP: its local file header, then its end-of-central-directory record.
  expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  expect(bytes.includes(Buffer.from('SHA256SUMS.sig'))).toBe(true);
  await context.close();
});
