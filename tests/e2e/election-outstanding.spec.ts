// After the close, against a server of its own (the close changes the day for everyone): 'Por llegar' on
// Jornada and Campo lists what phones reported before the close and has not arrived, and an item leaves
// it when it arrives; the projector's close view fits the screen with the map's figures at 24 px or more
// (docs/decisions/101). At 1920×1080 and at 1280×720, each after a close of its own.
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { voteFingerprint } from '#shared/platform/era';
import { expectNoSeriousA11yViolations } from './support/axe';
import { type OwnServer, startOwnServer } from './support/own-server';
import { signedInContext } from './support/sessions';

const ADMIN = 'jefa.porllegar@comando.example';
const VALIDATOR = 'validadora.porllegar@comando.example';
const PASSWORD = 'clave-de-por-llegar-123';
const SLUG = 'cabimas';
const NAMES = ['Ana Lucía Prueba', 'Bruno Ensayo', 'Carmen Simulada', 'Darío Ejemplo', 'Elena Muestra'];
// Screenshots for people to look at, when asked for (E2E_SHOTS_DIR).
const SHOTS = process.env.E2E_SHOTS_DIR;

test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let origin: string;
let validator: APIRequestContext;
let admin: APIRequestContext;
const ids = new Map<string, number>();

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startOwnServer({
    name: 'de por llegar',
    admin: ADMIN,
    validator: { email: VALIDATOR, slug: SLUG },
    password: PASSWORD,
    seed: async (db, now) => {
      await seedSyntheticResults(db.kysely, {
        departments: ['cabimas', 'mara', 'lagunillas', 'san-francisco', 'chiquinquira'],
        ballots: [
          { codes: ['FA'], count: 60 },
          { codes: ['LC'], count: 45 },
        ],
        unvoted: 40,
        withPhotos: true,
        now,
      });
      const repo = createRecordsRepository(db.kysely);
      const cabimas = (await repo.listMunicipalities()).find((d) => d.slug === SLUG);
      if (!cabimas) throw new Error('Sin Cabimas');
      await repo.insertMany(
        NAMES.map((nombre, i) => ({
          departmentId: cabimas.id,
          comunidad: 'Sector Prueba',
          nombre,
          ubch: `UBCH ${900 + i}`,
          telefono: `0414-900000${i}`,
        })),
        now,
      );
    },
  });
  origin = own.origin;
  const signedIn = async (email: string) => {
    const api = await request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
    expect((await api.post('/api/auth/login', { data: { email, password: PASSWORD } })).status()).toBe(200);
    return api;
  };
  validator = await signedIn(VALIDATOR);
  admin = await signedIn(ADMIN);
  for (const name of NAMES) {
    const page = await (await validator.get(`/api/validation/${SLUG}/records?q=${encodeURIComponent(name)}`)).json();
    ids.set(name, page.items[0].id);
  }
});

test.afterAll(async () => {
  await validator?.dispose();
  await admin?.dispose();
  await own?.stop();
});

const idOf = (name: string) => ids.get(name) as number;

/** The validator's phone reports two votes waiting on it, each with its key. */
async function reportWaiting(names: string[]): Promise<Map<string, string>> {
  const keys = new Map(names.map((n) => [n, randomUUID()]));
  const now = new Date().toISOString();
  const res = await validator.post('/api/field/reports', {
    data: {
      deviceId: randomUUID(),
      deviceNow: now,
      lastSuccessAt: null,
      lastError: null,
      items: names.map((n) => ({
        key: keys.get(n),
        slug: SLUG,
        recordId: idOf(n),
        kind: 'vote',
        savedAt: now,
        fingerprint: voteFingerprint(['FA']),
      })),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return keys;
}

async function setPhase(phase: 'cerrada' | 'en_curso', reason: string) {
  const res = await admin.put('/api/admin/election/phase', { data: { phase, reason } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The vote the phone held, arriving after the close with its key. */
async function arrive(name: string, key: string) {
  const res = await validator.post(`/api/validation/${SLUG}/records/${idOf(name)}/vote`, {
    headers: { 'idempotency-key': key },
    data: { candidates: ['FA'] },
  });
  expect(res.status(), await res.text()).toBe(201);
}

const item = (name: string) => `Voto de ${name} (trámite ${idOf(name)})`;

async function expectListed(page: Page, names: string[]) {
  const section = page.getByRole('region', { name: 'Por llegar' });
  await expect(section.getByTestId('por-llegar-envio')).toHaveCount(names.length);
  for (const name of names) await expect(section.getByText(item(name))).toBeVisible();
  await expect(section.getByTestId('por-llegar-gracia')).toHaveText(
    /^Se aceptan hasta la(s)? \d{1,2}:\d{2}\s[ap]\.\s?m\.$/,
  );
  await expect(section.getByRole('heading', { name: 'Cabimas' })).toBeVisible();
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: !name.startsWith('proyector') });
}

/** Every element of the projector's dialog that takes room lies inside the window: nothing below the fold. */
async function outsideTheWindow(page: Page): Promise<string[]> {
  return page.getByTestId('modo-proyector').evaluate((dialog) => {
    const out: string[] = [];
    for (const element of [dialog, ...dialog.querySelectorAll('*')]) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || element.closest('.sr-only')) continue;
      if (box.top < -0.5 || box.left < -0.5 || box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5) {
        out.push(`${element.tagName} ${(element.textContent ?? '').slice(0, 40)} ${JSON.stringify(box)}`);
      }
    }
    return out;
  });
}

for (const [round, viewport] of [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
].entries()) {
  const size = `${viewport.width}x${viewport.height}`;
  test(`at ${size}: Por llegar lists both reported items, one arrives and leaves it; the projector's close view fits`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const [first, second] = round === 0 ? [NAMES[0], NAMES[1]] : [NAMES[2], NAMES[3]];
    if (!first || !second) throw new Error('Faltan nombres');
    if (round > 0) await setPhase('en_curso', 'Reabrimos para la segunda prueba');
    const keys = await reportWaiting([first, second]);
    await setPhase('cerrada', 'Cierre de mesas');

    const jornada = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport });
    const campo = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport });
    try {
      await jornada.page.goto('/admin/jornada');
      await expectListed(jornada.page, [first, second]);
      await expectNoSeriousA11yViolations(jornada.page);
      await campo.page.goto('/campo');
      await expectListed(campo.page, [first, second]);
      await expectNoSeriousA11yViolations(campo.page);
      await shot(jornada.page, `por-llegar-jornada-${size}`);
      await shot(campo.page, `por-llegar-campo-${size}`);

      // One arrives: it leaves both lists while they are open, and Jornada names it by record and person.
      await arrive(first, keys.get(first) ?? '');
      await expectListed(jornada.page, [second]);
      await expectListed(campo.page, [second]);
      await expect(jornada.page.getByTestId('llegada-tardia').filter({ hasText: item(first) })).toContainText(
        `· Cabimas · enviado por ${VALIDATOR} ·`,
      );
      await shot(jornada.page, `por-llegar-jornada-${size}-tras-llegada`);

      // The projector after the close: the close's count, the late arrival apart, the map; all on screen.
      const projector = jornada.page;
      await projector.goto('/resultados?proyector=1');
      const dialog = projector.getByTestId('modo-proyector');
      await expect(dialog.getByRole('heading', { name: /^Resultados al cierre, / })).toBeVisible();
      await expect(dialog.getByTestId('despues-del-cierre')).toContainText('Llegaron después del cierre: 1');
      await expect(dialog.getByTestId('cifra-cuadro').first()).toBeVisible();
      await expect(dialog.getByTestId('actualizado')).toBeVisible();
      await expect(dialog.getByText(/toca un cuadro/)).toHaveCount(0);
      expect(await outsideTheWindow(projector)).toEqual([]);
      const figures = await dialog
        .getByTestId('cifra-cuadro')
        .evaluateAll((spans) => spans.map((s) => Number.parseFloat(getComputedStyle(s).fontSize)));
      expect(figures.length).toBeGreaterThan(20);
      expect(Math.min(...figures)).toBeGreaterThanOrEqual(24);
      await expectNoSeriousA11yViolations(projector);
      await shot(projector, `proyector-cierre-${size}`);

      // The other one arrives too: nothing is left to come.
      await arrive(second, keys.get(second) ?? '');
      await expect(campo.page.getByRole('region', { name: 'Por llegar' })).toContainText(
        'No falta nada: todo lo que los teléfonos avisaron antes del cierre ya llegó.',
      );
    } finally {
      await jornada.context.close();
      await campo.context.close();
    }
  });
}

test('at 390 px the close view and Por llegar scroll as a page, and stay accessible', async ({ browser }) => {
  const phone = { width: 390, height: 844 };
  await setPhase('en_curso', 'Reabrimos para el teléfono');
  const name = NAMES[4] ?? '';
  await reportWaiting([name]);
  await setPhase('cerrada', 'Cierre de mesas');
  const { context, page } = await signedInContext(browser, {
    origin,
    email: ADMIN,
    password: PASSWORD,
    viewport: phone,
  });
  try {
    await page.goto('/campo');
    await expectListed(page, [name]);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'por-llegar-campo-390');
    await page.goto('/admin/jornada');
    await expectListed(page, [name]);
    await shot(page, 'por-llegar-jornada-390');
    await page.goto('/resultados?proyector=1');
    await expect(
      page.getByTestId('modo-proyector').getByRole('heading', { name: /^Resultados al cierre, / }),
    ).toBeVisible();
    await expect(page.getByTestId('cifra-cuadro').first()).toBeAttached();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'proyector-cierre-390');
  } finally {
    await context.close();
  }
});
