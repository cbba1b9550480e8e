// Candidates in the back office: photos checked like ballot photos and served to everyone, colours with a
// contrast preview, new candidates. On a server of its own (the ballot and the results show candidates).
import path from 'node:path';
import { expect, type Locator, test } from '@playwright/test';
import { type AdminServer, DESKTOP, signedIn, startAdminServer, toastWith } from './admin-server';
import { expectNoSeriousA11yViolations } from './support/axe';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAdminServer();
});
test.afterAll(async () => server?.stop());

async function expectImageLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

test('an admin changes a candidate’s photo (HEIC to JPEG), refused when it is not an image, seen on Resultados', async ({
  browser,
  playwright,
}) => {
  const { context, page } = await signedIn(browser, server);
  await page.goto('/admin/candidatos');
  const lc = page.getByRole('article', { name: 'Luisa Contreras' });
  await expect(lc.getByText('Lugar 2 · 1 voto')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Cambiar foto: LC').setInputFiles(path.join(FIXTURES, 'not-an-image.jpg'));
  await expect(toastWith(page, 'Formato no permitido: solo JPG, JPEG o HEIC')).toBeVisible();

  await page.getByLabel('Cambiar foto: LC').setInputFiles(path.join(FIXTURES, 'ballot.heic'));
  await expect(toastWith(page, 'Foto de LC actualizada')).toBeVisible();
  const photo = lc.getByRole('img', { name: 'Foto de Luisa Contreras' });
  await expect(photo).toHaveAttribute('src', /^\/api\/candidate-photos\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
  await expectImageLoaded(photo);
  const src = (await photo.getAttribute('src')) as string;

  // Public campaign material: no session needed to fetch it.
  const visitor = await playwright.request.newContext({ baseURL: server.origin });
  const res = await visitor.get(src);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/jpeg');
  await visitor.dispose();

  const results = await context.newPage();
  await results.setViewportSize(DESKTOP);
  await results.goto('/resultados');
  const onResults = results.getByTestId('candidato-LC').getByRole('img', { name: 'Foto de Luisa Contreras' });
  await expect(onResults).toHaveAttribute('src', src);
  await expectImageLoaded(onResults);
  await context.close();
});

test('an admin adds a candidate with a checked colour, edits and deletes it', async ({ browser }) => {
  const { context, page } = await signedIn(browser, server, { viewport: DESKTOP });
  await page.goto('/admin/candidatos');
  await page.getByRole('button', { name: 'Nuevo candidato' }).click();
  const dialog = page.getByTestId('candidate-dialog');
  await dialog.getByLabel('Nombre').fill('Zoraida Zambrano');
  await dialog.getByLabel('Código').fill('fa');
  await expect(dialog.getByLabel('Código')).toHaveValue('FA');
  await dialog.getByLabel('Color', { exact: true }).fill('#FDE68A');
  await expect(dialog.getByText('Es un color claro', { exact: false })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Añadir candidato' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Ya existe un candidato con el código FA.');

  await dialog.getByLabel('Código').fill('ZZ');
  await dialog.getByLabel('Color', { exact: true }).fill('#7C3AED');
  await expect(dialog.getByText('Se distingue bien.', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Añadir candidato' }).click();
  await expect(toastWith(page, 'Candidato ZZ añadido')).toBeVisible();
  const zz = page.getByRole('article', { name: 'Zoraida Zambrano' });
  await expect(zz).toContainText('Lugar 4 · 0 votos');
  await expect(zz).toContainText('#7C3AED');

  await zz.getByRole('button', { name: 'Editar: ZZ' }).click();
  await dialog.getByLabel('Lugar en la boleta').selectOption('1');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(toastWith(page, 'Candidato ZZ guardado')).toBeVisible();
  await expect(page.getByRole('article').first()).toHaveAccessibleName('Zoraida Zambrano');

  await zz.getByRole('button', { name: 'Borrar: ZZ' }).click();
  await page.getByRole('dialog', { name: 'Borrar candidato' }).getByRole('button', { name: 'Borrar' }).click();
  await expect(toastWith(page, 'Candidato ZZ borrado')).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(3);
  // LC has a vote: it cannot be deleted.
  await expect(page.getByRole('button', { name: 'Borrar: LC' })).toHaveCount(0);
  await context.close();
});
