import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { textContrast } from './support/contrast';
import { signIn } from './support/login';
import {
  MARA_RECORD_COUNT,
  MIRANDA_RECORDS,
  RECORDS_ACCOUNTS,
  RECORDS_PASSWORD,
  SANTA_RITA_RECORDS,
} from './support/seed-records';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const fixture = (name: string) => path.join(FIXTURES, name);

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const card = (page: Page, name: string) => page.getByRole('article', { name });
const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text);

async function expectImageLoaded(image: Locator) {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

/** Picks a photo: kept on the phone, sent in the background; the slot then shows the server's thumbnail. */
async function uploadPhoto(page: Page, recordName: string, label: 'Gobernador' | 'AN' | 'CLEZ', file: string) {
  await page.getByLabel(`Subir foto ${label} de ${recordName}`).setInputFiles(fixture(file));
  const link = page.getByRole('link', { name: `Ver foto ${label} de ${recordName}` });
  await expectImageLoaded(link.locator('img'));
  await expect(page.getByTestId('loading-cover')).toBeHidden();
}

// @fotos: the tests that store photos, run again against S3 and Dropbox (playwright.config.ts).
test('a validator votes, uploads a JPEG and a HEIC, and sees buttons disable and the counters move', {
  tag: '@fotos',
}, async ({ page }) => {
  // Three conversions and four accessibility scans: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  await signIn(page, RECORDS_ACCOUNTS.miranda.email, RECORDS_PASSWORD);
  await expect(page).toHaveURL(/\/validation\/miranda$/);
  await expect(page.getByRole('heading', { level: 1, name: 'MIRANDA' })).toBeVisible();
  await expect(page.getByText(`0 de ${MIRANDA_RECORDS.length} validados`)).toBeVisible();

  const maria = MIRANDA_RECORDS[0];
  const mariaCard = card(page, maria.nombre);
  for (const text of [maria.comunidad, maria.ubch, maria.nombre, maria.telefono]) {
    await expect(mariaCard.getByText(text, { exact: true })).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page);

  // The vote dialog: three candidates with their names, 'Votar' and 'Cancelar'.
  await mariaCard.getByRole('button', { name: `Votar: ${maria.nombre}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('checkbox')).toHaveCount(3);
  await expect(dialog.getByText('Fernando Álvarez')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('checkbox', { name: /FA/ }).check();
  await dialog.getByRole('checkbox', { name: /NR/ }).check();
  await dialog.getByRole('button', { name: 'Votar' }).click();
  await expect(toast(page, 'Votaste con éxito')).toBeVisible();
  await expect(dialog).toBeHidden();
  const voted = mariaCard.getByRole('button', { name: `${maria.nombre}: votado` });
  await expect(voted).toBeDisabled();
  await expect(voted).toContainText('FA, NR');
  await expect(page.getByText('1 votado', { exact: false })).toBeVisible();
  // The card names who voted it: this validator.
  const who = mariaCard.getByTestId('quien-marco');
  await expect(who.getByRole('term')).toHaveText(['Votado por']);
  await expect(who.getByRole('definition')).toHaveText([RECORDS_ACCOUNTS.miranda.email]);
  // Dimmed, yet readable in sunlight: each line of the voted button keeps 4.5:1 (axe skips disabled controls).
  for (const line of await voted.locator('span').all()) expect(await textContrast(line)).toBeGreaterThanOrEqual(4.5);

  // Photos: a JPEG, a HEIC and a sideways JPEG; each slot then shows its thumbnail.
  await uploadPhoto(page, maria.nombre, 'Gobernador', 'ballot.jpg');
  await uploadPhoto(page, maria.nombre, 'AN', 'ballot.heic');
  await expect(page.getByText(`0 de ${MIRANDA_RECORDS.length} validados`)).toBeVisible();
  await uploadPhoto(page, maria.nombre, 'CLEZ', 'rotated-exif6.jpg');
  await expect(page.getByText(`1 de ${MIRANDA_RECORDS.length} validados`)).toBeVisible();
  await expect(mariaCard.getByText('Validado', { exact: true })).toBeVisible();
  // And who validated it: the one whose photo completed it.
  await expect(who.getByRole('term')).toHaveText(['Votado por', 'Validado por']);
  await expect(who.getByRole('definition')).toHaveText([
    RECORDS_ACCOUNTS.miranda.email,
    RECORDS_ACCOUNTS.miranda.email,
  ]);

  // The thumbnail opens the browser copy of the photo (the HEIC as a JPEG).
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('link', { name: `Ver foto AN de ${maria.nombre}` }).click(),
  ]);
  await popup.waitForLoadState();
  expect(popup.url()).toMatch(/\/api\/photos\/\d+$/);
  expect(await popup.evaluate(() => document.contentType)).toBe('image/jpeg');
  await popup.close();

  // A text file named .jpg is refused by the server, and the slot stays open.
  const jose = MIRANDA_RECORDS[1];
  await page.getByLabel(`Subir foto Gobernador de ${jose.nombre}`).setInputFiles(fixture('not-an-image.jpg'));
  await expect(toast(page, 'Formato no permitido: solo JPG, JPEG o HEIC')).toBeVisible();
  await expect(page.getByTestId('loading-cover')).toBeHidden();
  await expect(page.getByLabel(`Subir foto Gobernador de ${jose.nombre}`)).toBeEnabled();
  await expectNoSeriousA11yViolations(page);

  // After a reload the validated record leaves the list; the switch brings it back.
  await page.reload();
  await expect(page.getByText(jose.nombre)).toBeVisible();
  await expect(card(page, maria.nombre)).toHaveCount(0);
  await page.getByRole('switch', { name: 'Mostrar validados' }).check();
  await expect(card(page, maria.nombre)).toBeVisible();
});

test('search finds records by community, phone and name', async ({ page }) => {
  await signIn(page, RECORDS_ACCOUNTS.miranda.email, RECORDS_PASSWORD);
  const search = page.getByLabel('Buscar');
  await search.fill('altagracia');
  await expect(page.getByRole('article')).toHaveCount(3);
  await search.fill('0412-6890123');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, 'Richard Portillo')).toBeVisible();
  await search.fill('yusmary');
  await expect(page.getByRole('article')).toHaveCount(1);
  await search.fill('nadie se llama así');
  await expect(page.getByText('Ningún trámite coincide con la búsqueda.')).toBeVisible();
});

test('finishing a small parish shows the completion screen', { tag: '@fotos' }, async ({ page }) => {
  // Three uploads, one of them a HEIC conversion (seconds of CPU on the server): 25–30 s on a busy
  // 2-core machine against S3 or Dropbox, within the default 60 s budget (decision 053).
  await signIn(page, RECORDS_ACCOUNTS.santaRita.email, RECORDS_PASSWORD);
  await expect(page).toHaveURL(/\/validation\/santa-rita$/);
  await expect(page.getByText('1 de 2 validados')).toBeVisible();
  const name = SANTA_RITA_RECORDS.open.nombre;
  await expect(card(page, SANTA_RITA_RECORDS.done.nombre)).toHaveCount(0);

  // A vote for nobody is allowed, once the validator says it is meant.
  await page.getByRole('button', { name: `Votar: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('button', { name: 'Votar' }).click();
  const question = dialog.getByRole('group', { name: '¿Registrar el voto sin candidatos?' });
  await expect(question).toBeVisible();
  await expect(toast(page, 'Votaste con éxito')).toHaveCount(0);
  await question.getByRole('button', { name: 'Sí, registrar' }).click();
  await expect(toast(page, 'Votaste con éxito')).toBeVisible();
  await expect(page.getByRole('button', { name: `${name}: votado` })).toContainText('Ningún candidato');

  await uploadPhoto(page, name, 'Gobernador', 'ballot.jpg');
  await uploadPhoto(page, name, 'AN', 'ballot.jpg');
  await page.getByLabel(`Subir foto CLEZ de ${name}`).setInputFiles(fixture('ballot.heic'));

  await expect(page.getByRole('heading', { name: 'Municipio / Parroquia Completada' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir a inicio' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a list of 5,000 records stays light: only nearby cards exist, more load while scrolling', async ({ page }) => {
  await signIn(page, RECORDS_ACCOUNTS.mara.email, RECORDS_PASSWORD);
  await expect(page.getByText(`0 de ${MARA_RECORD_COUNT.toLocaleString('da-DK')} validados`)).toBeVisible();
  await expect(page.getByRole('article').first()).toBeVisible();
  const cardsInPage = () => page.getByRole('article').count();
  expect(await cardsInPage()).toBeLessThan(40);

  const pageRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/validation/mara/records')) pageRequests.push(r.url());
  });
  const furthest = async () =>
    Math.max(
      ...(await page
        .getByRole('list', { name: 'Trámites' })
        .getByRole('listitem')
        .evaluateAll((items) => items.map((li) => Number(li.getAttribute('aria-posinset'))))),
    );
  // Scroll down until cards of the second page of 100 are on screen: after each turn of the wheel, the
  // list renders what came into view on the next frames.
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 3000);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        return furthest();
      },
      { intervals: [0] },
    )
    .toBeGreaterThan(120);
  expect(pageRequests.some((u) => u.includes('after='))).toBe(true);
  expect(await furthest()).toBeGreaterThan(120);
  expect(await cardsInPage()).toBeLessThan(40);
});
