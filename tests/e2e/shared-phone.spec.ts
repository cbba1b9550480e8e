import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { attemptIndex } from './support/attempt';
import { signIn } from './support/login';
import { launchPhone, PHONE } from './support/phone';
import { E2E_ACCOUNTS, E2E_PASSWORD } from './support/seed-auth';
import {
  SHARED_PHONE_ACCOUNTS,
  SHARED_PHONE_PASSWORD,
  SHARED_PHONE_RUNS,
  sharedPhoneRecord,
} from './support/seed-shared-phone';
import { E2E_SERVERS, e2eDataDir } from './support/servers';

test.use(PHONE);
const ORIGIN = E2E_SERVERS.main.url;

/** An id from the main instance's database (read only). */
function idOf(sql: string, value: string): number {
  const db = new Database(path.join(e2eDataDir('main'), 'comando.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get(value) as { id: number }).id;
  } finally {
    db.close();
  }
}
const userIdOf = (email: string) => idOf('select id from users where email = ?', email);
const recordIdOf = (nombre: string) => idOf('select id from records where nombre = ?', nombre);

/** The coordination, acting from its own computer through the API. */
async function coordination(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: ORIGIN, extraHTTPHeaders: { origin: ORIGIN } });
  const res = await api.post('/api/auth/login', {
    data: { email: E2E_ACCOUNTS.admin.email, password: E2E_PASSWORD },
  });
  expect(res.status()).toBe(200);
  return api;
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

/** Votes from the list as it is on screen (a handful of records: no search, which would ask the server). */
async function vote(page: Page, name: string, code: string) {
  await page.getByRole('button', { name: `Votar: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('checkbox', { name: new RegExp(code) }).check();
  await dialog.getByRole('button', { name: 'Votar' }).click();
  await expect(dialog).toBeHidden();
}

/** What the browser's HTTP cache answers for an address, without asking the network. */
const fromHttpCache = (page: Page, url: string) =>
  page.evaluate(
    (address) =>
      fetch(address, { cache: 'only-if-cached', mode: 'same-origin' }).then(
        (res) => `HTTP ${res.status}`,
        () => 'nada',
      ),
    url,
  );

test('a shared phone keeps nothing of the last person once an admin ended their session', async () => {
  test.setTimeout(120_000);
  const { email, slug } = SHARED_PHONE_ACCOUNTS.ended;
  // The record with the photo is only looked at; the one voted is this run's own.
  const run = attemptIndex() % SHARED_PHONE_RUNS;
  const [withPhoto, toVote] = [sharedPhoneRecord(slug, 1), sharedPhoneRecord(slug, 2 + run)];
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-compartido-'));
  const context = await launchPhone(profile);
  const admin = await coordination();
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // Validator A signs in, opens the list and sees a ballot photo.
    await signIn(page, email, SHARED_PHONE_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/validation/${slug}$`));
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    const thumb = card(page, withPhoto)
      .getByRole('link', { name: `Ver foto Gobernador de ${withPhoto}` })
      .locator('img');
    await expect(thumb).toBeVisible();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const photoUrl = `${new URL((await thumb.getAttribute('src')) ?? '', ORIGIN).pathname}?variant=thumb`;
    const listUrl = `/api/validation/${slug}/records`;

    // The coordination ends A's sessions from elsewhere; A, unaware, votes: the vote stays on the phone.
    const ended = await admin.post(`/api/admin/users/${userIdOf(email)}/sessions/end`);
    expect(ended.status()).toBe(200);
    await vote(page, toVote, 'FA');
    // The phone learns the session ended: to /login, saying the saved work is kept.
    await expect(page).toHaveURL(/\/login\?next=/);
    await expect(page.getByRole('status').filter({ hasText: 'Tu sesión terminó' })).toHaveText(
      'Tu sesión terminó. Tu 1 voto o foto guardado en este teléfono no se perdió: se enviará cuando vuelvas a entrar con tu cuenta.',
    );

    // Nothing personal is in the browser's HTTP cache: not the photo, not the list.
    expect(await fromHttpCache(page, photoUrl)).toBe('nada');
    expect(await fromHttpCache(page, listUrl)).toBe('nada');

    // The next person picks the phone up, without a connection.
    await context.setOffline(true);
    await page.goto(`/validation/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name: slug.replace(/-/g, ' ').toUpperCase() })).toBeVisible();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(0);
    await expect(page.getByText(/Persona \d de/)).toHaveCount(0);
    // Nor does the frame pretend anyone is signed in.
    await expect(
      page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar sesión' }),
    ).toBeVisible();
    expect(await fromHttpCache(page, photoUrl)).toBe('nada');

    await page.goto('/envios');
    await expect(page.getByRole('heading', { name: 'Por enviar (0)' })).toBeVisible();
    await expect(page.getByText(toVote)).toHaveCount(0);
    await expect(page.getByTestId('envios-de-otra-cuenta')).toContainText('1 voto o foto de otra cuenta');

    // A signs in again, back online: the kept vote goes, and only then shows on /envios.
    await context.setOffline(false);
    await signIn(page, email, SHARED_PHONE_PASSWORD);
    await page.goto('/envios');
    await expect(page.getByRole('listitem', { name: `Voto (FA): ${toVote}` })).toContainText('Enviado', {
      timeout: 30_000,
    });
  } finally {
    await admin.dispose();
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('signing out with items waiting keeps them unless a second question is answered; refusals are not counted', async ({
  browser,
}) => {
  const { email, slug } = SHARED_PHONE_ACCOUNTS.signOut;
  // Records of this run's own (a retry or --repeat-each runs it again against the same server).
  const run = attemptIndex() % SHARED_PHONE_RUNS;
  const [refused, waiting] = [sharedPhoneRecord(slug, 2 * run + 1), sharedPhoneRecord(slug, 2 * run + 2)];
  const admin = await coordination();
  const context = await browser.newContext({ ...PHONE, baseURL: ORIGIN });
  try {
    const page = await context.newPage();
    await signIn(page, email, SHARED_PHONE_PASSWORD);
    await expect(card(page, refused)).toBeVisible();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    // One vote refused for good (voided meanwhile), one that cannot get through (no answer).
    expect(
      (await admin.post(`/api/admin/records/${recordIdOf(refused)}/void`, { data: { reason: 'Duplicado' } })).status(),
    ).toBe(200);
    await vote(page, refused, 'LC');
    // Refused: said in a toast, and the record leaves the list (the server no longer lists it).
    await expect(page.getByText(`${refused}: La coordinación anuló este trámite el`)).toBeVisible();
    await expect(card(page, refused)).toHaveCount(0);
    await page.route('**/api/validation/*/records/*/vote', (route) => route.abort('internetdisconnected'));
    await vote(page, waiting, 'FA');
    await expect(page.getByRole('link', { name: '1 envío pendiente' })).toBeVisible();

    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await page.getByTestId('mobile-menu').getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Hay envíos sin terminar' });
    await expect(ask).toContainText('1 voto o foto de esta cuenta espera en este teléfono');
    await expect(ask.getByRole('button', { name: 'Cerrar sesión y conservarlos' })).toBeFocused();
    await expect(ask.getByRole('button', { name: /Borrar y cerrar/ })).toHaveCount(0);
    await ask.getByRole('button', { name: 'Borrar estos envíos…' }).click();
    const drop = page.getByRole('dialog', { name: '¿Borrar 1 envío sin enviar?' });
    await expect(drop.getByRole('list', { name: 'Se perderán' })).toHaveText(`Voto (FA) de ${waiting}`);
    await drop.getByRole('button', { name: 'No borrar' }).click();
    await ask.getByRole('button', { name: 'Cerrar sesión y conservarlos' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar sesión' }),
    ).toBeVisible();

    // Clear-Site-Data wiped the HTTP cache only: offline, the app still opens from the service worker's
    // files, and the kept vote is still on the phone (someone else's now, so counted, not shown).
    await context.setOffline(true);
    await page.goto('/envios');
    await expect(page.getByRole('heading', { name: 'Por enviar (0)' })).toBeVisible();
    await expect(page.getByTestId('envios-de-otra-cuenta')).toContainText('1 voto o foto de otra cuenta');
    await context.setOffline(false);

    // Back, the vote was kept and goes once the link works.
    await page.unroute('**/api/validation/*/records/*/vote');
    await signIn(page, email, SHARED_PHONE_PASSWORD);
    await page.goto('/envios');
    await expect(page.getByRole('listitem', { name: `Voto (FA): ${waiting}` })).toContainText('Enviado', {
      timeout: 30_000,
    });
  } finally {
    await admin.dispose();
    await context.close();
  }
});

test('a vote on a record the coordination voided meanwhile says so, and offers only ‘Quitar’', async ({ browser }) => {
  const { email, slug } = SHARED_PHONE_ACCOUNTS.voided;
  // A record of this run's own: an earlier try voided its record already.
  const name = sharedPhoneRecord(slug, 1 + (attemptIndex() % SHARED_PHONE_RUNS));
  const admin = await coordination();
  const context = await browser.newContext({ ...PHONE, baseURL: ORIGIN });
  try {
    const page = await context.newPage();
    await signIn(page, email, SHARED_PHONE_PASSWORD);
    await expect(card(page, name)).toBeVisible();
    // While the validator looks at the list, the coordination voids the record.
    const voided = await admin.post(`/api/admin/records/${recordIdOf(name)}/void`, { data: { reason: 'Se mudó' } });
    expect(voided.status()).toBe(200);
    await vote(page, name, 'FA');
    const message = /^La coordinación anuló este trámite el \d{1,2} [a-z]{3} a las? \d{1,2}:\d{2}\s[ap]\.\s?m\.$/;
    // Said at once in a toast, never 'El trámite no existe.'; the record leaves the list.
    await expect(page.getByText(`${name}: La coordinación anuló este trámite el`)).toBeVisible();
    await expect(page.getByText('El trámite no existe.')).toHaveCount(0);
    await expect(card(page, name)).toHaveCount(0);
    // Not waiting: no badge.
    await expect(page.getByRole('link', { name: /^\d+ envíos? pendientes?$/ })).toHaveCount(0);

    await page.goto('/envios');
    const item = page.getByRole('listitem', { name: `Voto (FA): ${name}` });
    await expect(item.getByText(message)).toBeVisible();
    await expect(item.getByRole('button', { name: /^Reintentar/ })).toHaveCount(0);
    await expect(item.getByRole('button', { name: `Quitar: Voto (FA) de ${name}` })).toBeVisible();
  } finally {
    await admin.dispose();
    await context.close();
  }
});
