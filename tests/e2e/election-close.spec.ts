// The close of the day on a phone, against its own server: what the phone held and reported before the
// close arrives afterwards and counts as late; what the server never heard of is refused and stays on the
// phone as 'Rechazado'; the projector shows the close's count and the late arrival (docs/decisions/078).
// Before it, the validator's page counts down to a close set in advance; Jornada asks twice, with the
// counts, before closing by hand; after it, the validator's page says 'Jornada cerrada' and offers no
// 'Votar' (docs/decisions/096).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { type OwnServer, startOwnServer } from './support/own-server';
import { launchPhone, PHONE } from './support/phone';
import { signedInContext } from './support/sessions';

const ADMIN = 'jefa.cierre@comando.example';
const VALIDATOR = 'validador.cierre@comando.example';
const PASSWORD = 'clave-de-cierre-123';
const SLUG = 'cabimas';

test.use(PHONE);
test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startOwnServer({
    name: 'del cierre',
    admin: ADMIN,
    validator: { email: VALIDATOR, slug: SLUG },
    password: PASSWORD,
    seed: (db, now) => seedSyntheticResults(db.kysely, { departments: [SLUG], unvoted: 40, label: 'Votante', now }),
  });
  origin = own.origin;
});

test.afterAll(async () => {
  await own?.stop();
});

/**
 * The phone's network: forwards everything to the app, but answers votes 503 (no answer worth keeping:
 * the phone tries again later) while `holdVotes` is on; counts the field reports that reached the app.
 */
async function startPhoneNetwork(target: string) {
  const upstream = new URL(target);
  const state = { holdVotes: true, reports: [] as string[] };
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && /\/vote$/.test(req.url ?? '') && state.holdVotes) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Sin señal' }));
        return;
      }
      const headers = {
        ...req.headers,
        host: upstream.host,
        ...(req.headers.origin ? { origin: upstream.origin } : {}),
      };
      const forward = http.request(
        { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          if (req.url === '/api/field/reports' && answer.statusCode === 200) state.reports.push(body.toString());
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

/** 'YYYY-MM-DDTHH:MM' in Caracas (UTC-4 all year), `minutes` from now, as Jornada's close field takes it. */
function caracasWallTime(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000 - 4 * 3_600_000);
  return at.toISOString().slice(0, 16);
}

async function vote(page: Page, name: string) {
  await page.getByLabel('Buscar').fill(name);
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.getByRole('button', { name: `Votar: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('checkbox', { name: /FA/ }).check();
  await dialog.getByRole('button', { name: 'Votar' }).click();
  await expect(dialog).toBeHidden();
}

test('what a phone reported before the close counts as late; what it did not is refused and stays on the phone', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const network = await startPhoneNetwork(origin);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-cierre-telefono-'));
  // Two-digit numbers: a search for one finds no other (with --repeat-each up to 10).
  const first = 21 + 2 * testInfo.repeatEachIndex;
  const reported = `Persona Votante 1 ${first}`;
  const unreported = `Persona Votante 1 ${first + 1}`;
  const context = await launchPhone(profile, { baseURL: network.url });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, VALIDATOR, PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/validation/${SLUG}$`));

    // A close set in advance: the validator's page and the navbar count down to it.
    const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD });
    const scheduled = await admin.page.request.put(`${origin}/api/admin/election/close`, {
      headers: { origin },
      data: { closesAt: caracasWallTime(31), graceHours: 12, reason: 'Hora legal de cierre' },
    });
    expect(scheduled.status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId('jornada')).toHaveText(
      /^La jornada cierra a (la 1|las \d{1,2}):\d{2}\s[ap]\.\s?m\. — faltan (29|30|31) min$/,
    );
    await expect(page.getByTestId('jornada-navbar')).toContainText(/^Cierra en (29|30|31) min/);
    await expectNoSeriousA11yViolations(page);

    // Without signal for votes: the first one waits on the phone, and the phone's report names it.
    const reportsBefore = network.state.reports.length;
    await vote(page, reported);
    await expect
      .poll(() => network.state.reports.slice(reportsBefore).some((r) => JSON.parse(r).items.length === 1), {
        timeout: 30_000,
      })
      .toBe(true);

    // Then no signal at all: the second vote is saved on the phone, and nobody hears of it.
    await context.setOffline(true);
    await vote(page, unreported);

    // The admin closes the day by hand in Jornada: nothing chosen in advance, then asked twice with the counts.
    await admin.page.goto('/admin/jornada');
    const phaseForm = admin.page.getByRole('form', { name: 'Cambiar de fase' });
    await expect(phaseForm.getByLabel('Nueva fase')).toHaveValue('');
    await phaseForm.getByLabel('Nueva fase').selectOption('cerrada');
    await phaseForm.getByLabel('Motivo').fill('Cierre de mesas');
    await phaseForm.getByRole('button', { name: 'Cambiar fase' }).click();
    const first = admin.page.getByRole('dialog', { name: 'Cerrar la jornada' });
    await expect(first).toContainText(/Hasta ahora se recibieron [\d.]+ votos y [\d.]+ fotos\./);
    await expectNoSeriousA11yViolations(admin.page);
    await first.getByRole('button', { name: 'Continuar' }).click();
    const second = admin.page.getByRole('dialog', { name: '¿Cerrar la jornada ahora?' });
    await expect(second).toContainText(/la jornada cierra ahora con [\d.]+ votos y [\d.]+ fotos/);
    await expectNoSeriousA11yViolations(admin.page);
    await second.getByRole('button', { name: /^Cerrar con [\d.]+ votos y [\d.]+ fotos$/ }).click();
    await expect(admin.page.getByText('La jornada pasó a Cerrada.')).toBeVisible();

    // The phone comes back: the reported vote is taken, the other refused with the closing time.
    network.state.holdVotes = false;
    await context.setOffline(false);
    await page.getByLabel('Buscar').fill(reported);
    await expect(card(page, reported).getByTestId('envio-estado')).toHaveText('Enviado', { timeout: 90_000 });
    await page.getByLabel('Buscar').fill(unreported);
    const refused = card(page, unreported);
    await expect(refused.getByTestId('envio-estado')).toHaveText('Rechazado', { timeout: 90_000 });
    await expect(refused.getByText(/La jornada cerró a (la 1|las \d{1,2}):\d{2}\s[ap]\.\s?m\./)).toBeVisible();
    // The refused vote never showed a success beside its refusal.
    await expect(page.getByText('Votaste con éxito')).toHaveCount(0);

    // The validator's page after the close: 'Jornada cerrada', no 'Votar' for the refused record or any other.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Jornada cerrada' })).toBeVisible();
    await expect(page.getByTestId('jornada-navbar')).toContainText(/^Jornada cerrada/);
    await page.getByLabel('Buscar').fill(unreported);
    await expect(refused.getByTestId('voto-cerrado')).toBeVisible();
    await page.getByLabel('Buscar').fill('');
    await expect(page.getByRole('article').first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^Votar: / })).toHaveCount(0);
    await expect(page.getByLabel(/^Subir foto /)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // The projector: the close's count, and one late arrival apart.
    await admin.page.goto('/resultados?proyector=1');
    const projector = admin.page.getByTestId('modo-proyector');
    await expect(projector.getByRole('heading', { name: /^Resultados al cierre, / })).toBeVisible();
    await expect(projector.getByText('Llegaron después del cierre: 1')).toBeVisible();
    await admin.context.close();
  } finally {
    await context.close();
    await network.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
