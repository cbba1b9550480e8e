// The drill's end on a phone, against its own server (docs/decisions/094): a vote saved offline during the
// drill, the drill ended, the phone back online: the vote leaves the phone without being counted, its card
// is 'Votar' again, and the validator is told the drill's votes were erased.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { setElectionPhase } from '#server/testing/test-app';
import { signIn } from './support/login';
import { type OwnServer, startOwnServer } from './support/own-server';
import { launchPhone, PHONE } from './support/phone';
import { signedInContext } from './support/sessions';

const ADMIN = 'jefa.simulacro@comando.example';
const VALIDATOR = 'validador.simulacro@comando.example';
const PASSWORD = 'clave-del-simulacro-123';
const SLUG = 'cabimas';

test.use(PHONE);
test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startOwnServer({
    name: 'del simulacro',
    admin: ADMIN,
    validator: { email: VALIDATOR, slug: SLUG },
    password: PASSWORD,
    // Nothing voted, the day in Preparación: the drill starts from a clean slate.
    seed: async (db, now) => {
      await seedSyntheticResults(db.kysely, { departments: [SLUG], unvoted: 30, label: 'Ensayo', now });
      await setElectionPhase(db, 'preparacion', now);
    },
  });
  origin = own.origin;
});

test.afterAll(async () => {
  await own?.stop();
});

const card = (page: Page, name: string) => page.getByRole('article', { name });

test('a drill vote saved offline is dropped when the phone comes back after the drill, and the validator is told', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD });
  const phase = (to: string) =>
    admin.page.request.put(`${origin}/api/admin/election/phase`, {
      headers: { origin },
      data: { phase: to, reason: 'Ensayo del día antes' },
    });
  expect((await phase('simulacro')).status()).toBe(200);

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-simulacro-telefono-'));
  const name = `Persona Ensayo 1 ${11 + testInfo.repeatEachIndex}`;
  const context = await launchPhone(profile, { baseURL: origin });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, VALIDATOR, PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/validation/${SLUG}$`));
    // The phone hears of the drill's era from the server (its field report's answer) before it goes offline.
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('comando-era') ?? 'null')?.drill), {
        timeout: 30_000,
      })
      .toBe(true);

    // No signal: the drill vote is saved on the phone.
    await context.setOffline(true);
    await page.getByLabel('Buscar').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);
    await page.getByRole('button', { name: `Votar: ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Votar' });
    await dialog.getByRole('checkbox', { name: /FA/ }).check();
    await dialog.getByRole('button', { name: 'Votar' }).click();
    await expect(dialog).toBeHidden();
    await expect(card(page, name).getByTestId('envio-estado')).toBeVisible();

    // The admin ends the drill: the server had nothing of it.
    const ended = await admin.page.request.post(`${origin}/api/admin/election/drill/end`, {
      headers: { origin },
      data: { votes: 0, photos: 0, reason: 'Fin del ensayo' },
    });
    expect(ended.status()).toBe(200);

    // The phone comes back: the drill's vote leaves it, uncounted, and the validator is told.
    await context.setOffline(false);
    await expect(page.getByText('El simulacro terminó: tus votos de práctica se borraron')).toBeVisible({
      timeout: 90_000,
    });
    await expect(card(page, name).getByTestId('envio-estado')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: `Votar: ${name}` })).toBeEnabled();
    const results = await admin.page.request.get(`${origin}/api/results`);
    expect((await results.json()).ballots).toBe(0);
    // Read again from the phone's copy after a reload: still unvoted, nothing waiting.
    await page.reload();
    await page.getByLabel('Buscar').fill(name);
    await expect(page.getByRole('button', { name: `Votar: ${name}` })).toBeEnabled();
    await expect(card(page, name).getByTestId('envio-estado')).toHaveCount(0);
  } finally {
    await context.close();
    await admin.context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
