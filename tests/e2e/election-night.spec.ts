// The election night's views (map, timeline, pace) on Resultados, the projector and Campo, against a server
// of their own with known records, so the squares' colours and the figures are exact.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { expectNoSeriousA11yViolations } from './support/axe';
import { type OwnServer, startOwnServer } from './support/own-server';
import { signedInContext } from './support/sessions';

const PASSWORD = 'clave-noche-2026';
const ADMIN = 'jefa.noche@e2e.example';
const VALIDATOR = 'validador.noche@e2e.example';
const VOTING_SLUG = 'cabimas';
const BALLOT_PHOTO = path.resolve(import.meta.dirname, '../fixtures/ballot.jpg');

test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startOwnServer({
    name: 'de la noche electoral',
    admin: ADMIN,
    validator: { email: VALIDATOR, slug: VOTING_SLUG },
    password: PASSWORD,
    seed: async (db, now) => {
      // Validated records (vote and three photos) in a few municipalities and parishes, some still to do.
      await seedSyntheticResults(db.kysely, {
        departments: ['sucre', 'mara', 'coquivacoa', 'bolivar', 'lagunillas'],
        ballots: [
          { codes: ['FA'], count: 400 },
          { codes: ['LC'], count: 300 },
          { codes: ['NR'], count: 100 },
        ],
        withPhotos: true,
        now,
      });
      await seedSyntheticResults(db.kysely, {
        departments: ['sucre', 'lagunillas', 'san-francisco'],
        unvoted: 300,
        now,
      });
      // Cabimas: four records with their three photos, still to vote: each vote validates one (0 % to 25 %).
      await seedSyntheticResults(db.kysely, {
        departments: [VOTING_SLUG],
        unvoted: 4,
        withPhotos: true,
        label: 'Votante',
        now,
      });
    },
  });
  origin = own.origin;
});

test.afterAll(async () => {
  await own?.stop();
});

const signedIn = (browser: Browser, email: string, viewport: { width: number; height: number }) =>
  signedInContext(browser, { origin, email, password: PASSWORD, viewport });

const SIZES = [
  { name: '390', viewport: { width: 390, height: 844 } },
  { name: '1920', viewport: { width: 1920, height: 1080 } },
] as const;

/** The whole page, or (the projector) the screen as the room sees it. */
async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });
}

/** Votes the next record of Cabimas through the validation screen; returns once the vote was saved. */
let nextVoter = 1;
async function vote(voter: Page, codes: string[]): Promise<void> {
  const name = `Persona Votante 1 ${nextVoter++}`;
  await voter.goto(`/validation/${VOTING_SLUG}`);
  await voter.getByRole('button', { name: `Votar: ${name}`, exact: true }).click();
  const dialog = voter.getByRole('dialog', { name: 'Votar' });
  for (const code of codes) await dialog.getByRole('checkbox', { name: new RegExp(code) }).check();
  const answered = voter.waitForResponse((r) => r.url().includes('/vote') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Votar' }).click();
  expect((await answered).status()).toBe(201);
}

test.describe('election night', () => {
  let contexts: BrowserContext[] = [];
  test.afterEach(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  });

  // How soon is measured by `npm run bench -- results` (vote to screen, p95, with many screens open);
  // here: the projector's square and timeline change with the vote, pushed, without a reload, a poll or a
  // request of the page's own.
  test('a validator votes: the projector’s square of Cabimas and its timeline change, pushed by the live stream', async ({
    browser,
  }) => {
    const admin = await signedIn(browser, ADMIN, SIZES[1].viewport);
    const voter = await signedIn(browser, VALIDATOR, { width: 390, height: 844 });
    contexts.push(admin.context, voter.context);
    const page = admin.page;
    await page.goto('/resultados?proyector=1');
    const projector = page.getByTestId('modo-proyector');
    await expect(projector.getByTestId('estado-en-vivo')).toHaveText('En vivo');
    await projector.getByRole('button', { name: 'Ver mapa y línea de tiempo' }).click();
    const square = projector.getByTestId(`cuadro-${VOTING_SLUG}`);
    await expect(square).toHaveAccessibleName('Cabimas: 0,00\u00a0% validado, 0 de 4 trámites; 0 votados.');
    const before = await square.getAttribute('data-fill');
    const timeline: Locator = projector.getByTestId('linea-projector').getByRole('img');
    await expect(timeline).toHaveAccessibleName(
      /^Total acumulado sobre 5\.373 electores, FA .*\s%, LC .*\s%, NR .*\s%$/,
    );
    const timelineBefore = await timeline.getAttribute('aria-label');
    // Nobody touches a projector: no hint to (decision 101).
    await expect(projector.getByText(/toca un cuadro/)).toHaveCount(0);
    await screenshot(page, 'proyector-1920-antes', { fullPage: false });

    let reads = 0;
    page.on('request', (r) => {
      const asked = new URL(r.url()).pathname;
      if (['/api/results', '/api/results/breakdown', '/api/results/timeline'].includes(asked)) reads += 1;
    });
    await page.evaluate(() => {
      (window as unknown as { sinRecargar: boolean }).sinRecargar = true;
    });
    const votedAt = Date.now();
    await vote(voter.page, ['FA']);
    await expect(square).toHaveAccessibleName('Cabimas: 25,00\u00a0% validado, 1 de 4 trámites; 1 votados.');
    await expect(timeline).not.toHaveAttribute('aria-label', timelineBefore ?? '');
    test
      .info()
      .annotations.push({ type: 'voto a pantalla (ms, informativo)', description: String(Date.now() - votedAt) });
    expect(await square.getAttribute('data-fill')).not.toBe(before);
    // The square's and the timeline's figures came on the stream itself: nothing was asked for (decision 087).
    expect(reads).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar)).toBe(true);
    await screenshot(page, 'proyector-1920-despues', { fullPage: false });
    await expectNoSeriousA11yViolations(page, '[data-testid="modo-proyector"]');
  });

  for (const size of SIZES) {
    test(`Resultados and Campo at ${size.name} px: map, timeline and pace, accessible; screenshots kept`, async ({
      browser,
    }) => {
      const admin = await signedIn(browser, ADMIN, size.viewport);
      contexts.push(admin.context);
      const page = admin.page;

      await page.goto('/resultados');
      await expect(page.getByTestId('estado-en-vivo')).toHaveText('En vivo');
      const map = page.getByRole('region', { name: 'Mapa: trámites validados' });
      await expect(map.getByTestId('cuadro-baralt')).toHaveAccessibleName('Baralt: sin registros.');
      await expect(map.getByTestId('cuadro-mara')).toHaveAccessibleName(/^Mara: 100,00\s% validado/);
      await expect(page.getByTestId('linea-page').getByRole('img')).toHaveCount(2);
      await page.getByText('Tabla de la línea de tiempo').click();
      await expect(page.getByTestId('tabla-linea').getByRole('row')).not.toHaveCount(1);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, `resultados-${size.name}`);

      await page.goto('/resultados?proyector=1');
      await page.getByRole('button', { name: 'Ver mapa y línea de tiempo' }).click();
      await expect(page.getByTestId('modo-proyector').getByTestId('cuadro-sucre')).toBeVisible();
      await expectNoSeriousA11yViolations(page, '[data-testid="modo-proyector"]');
      await screenshot(page, `proyector-${size.name}`, { fullPage: false });

      await page.goto('/campo');
      await expect(page.getByRole('heading', { level: 1, name: 'Campo' })).toBeVisible();
      await expect(page.getByTestId('cuadro-cabimas')).toHaveAccessibleName(
        'Cabimas: 0 por enviar en 0 de 1 validadores.',
      );
      await expect(page.getByTestId('tabla-ritmo')).toContainText(VALIDATOR);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, `campo-${size.name}`);
    });
  }

  test('a ballot photo moves the live stream as a vote does: the open square’s figures count it, with no request of the page’s own', async ({
    browser,
  }) => {
    const admin = await signedIn(browser, ADMIN, SIZES[1].viewport);
    contexts.push(admin.context);
    const page = admin.page;
    // An admin replaces photos of the lists they are on.
    const granted = await page.request.post(`${origin}/api/access/departments/${VOTING_SLUG}/members`, {
      headers: { origin },
      data: { email: ADMIN },
    });
    expect(granted.status()).toBe(200);
    await page.goto('/resultados');
    await expect(page.getByTestId('estado-en-vivo')).toHaveText('En vivo');
    await page.getByRole('region', { name: 'Mapa: trámites validados' }).getByTestId(`cuadro-${VOTING_SLUG}`).click();
    const received = page.getByTestId('desglose-departamento').locator('dt:has-text("Fotos recibidas") + dd');
    // Four records with their three photos each.
    await expect(received).toHaveText('12');

    let reads = 0;
    page.on('request', (r) => {
      const asked = new URL(r.url()).pathname;
      if (['/api/results', '/api/results/breakdown', '/api/results/timeline'].includes(asked)) reads += 1;
    });
    const list = await page.request.get(`${origin}/api/validation/${VOTING_SLUG}/records`);
    const [record] = (await list.json()).items as { id: number }[];
    const replaced = await page.request.post(
      `${origin}/api/validation/${VOTING_SLUG}/records/${record?.id}/photos/gobernador`,
      {
        headers: { origin },
        multipart: {
          file: { name: 'boleta.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(BALLOT_PHOTO) },
        },
      },
    );
    expect(replaced.status()).toBe(201);
    await expect(received).toHaveText('13');
    expect(reads).toBe(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('the day closes: the open timeline marks the close on its charts and says it in its table, pushed by the live stream', async ({
    browser,
  }) => {
    const admin = await signedIn(browser, ADMIN, SIZES[1].viewport);
    contexts.push(admin.context);
    const page = admin.page;
    await page.goto('/resultados');
    await expect(page.getByTestId('estado-en-vivo')).toHaveText('En vivo');
    const timeline = page.getByTestId('linea-page');
    await expect(timeline.getByRole('img')).toHaveCount(2);
    await expect(timeline.getByTestId('marca-grafico')).toHaveCount(0);

    const closed = await page.request.put(`${origin}/api/admin/election/phase`, {
      headers: { origin },
      data: { phase: 'cerrada', reason: 'Cierre de mesas' },
    });
    expect(closed.status()).toBe(200);

    // Both charts get the mark and its label, and say it to a screen reader.
    const label = /^Cierre \d{1,2}:\d{2}\s[ap]\.\s?m\.$/;
    await expect(timeline.getByTestId('marca-grafico')).toHaveCount(2);
    for (const mark of await timeline.getByTestId('marca-grafico').all()) await expect(mark).toHaveText(label);
    await expect(timeline.getByRole('img').first()).toHaveAccessibleName(/; cierre \d{1,2}:\d{2}\s[ap]\.\s?m\./);
    await page.getByText('Tabla de la línea de tiempo').click();
    const row = page.getByTestId('tabla-linea').getByTestId('fila-cierre');
    await expect(row.getByRole('rowheader')).toHaveText(label);
    await expect(row).toContainText('Cierre de la jornada');
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'resultados-1920-cierre');
  });
});
