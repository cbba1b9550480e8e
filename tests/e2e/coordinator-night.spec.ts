// What a coordinator shares and checks at night, against a server of its own without an SMS gateway:
// every 'Descargar imagen' is a picture fit to share (at least 1200 px wide, with its title, the campaign
// and the date and time in Caracas, nothing cut, docs/decisions/099), and Mensajes says SMS votes are off.
import fs from 'node:fs';
import { type Download, expect, type Page, test } from '@playwright/test';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { expectNoSeriousA11yViolations } from './support/axe';
import { type OwnServer, startOwnServer } from './support/own-server';
import { signedInContext } from './support/sessions';

const ADMIN = 'jefa.imagenes@comando.example';
const PASSWORD = 'clave-de-imagenes-12345';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1920, height: 1080 };

test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startOwnServer({
    name: 'de imágenes',
    admin: ADMIN,
    validator: { email: 'validador.imagenes@comando.example', slug: 'cabimas' },
    password: PASSWORD,
    seed: (db, now) =>
      seedSyntheticResults(db.kysely, {
        departments: ['cabimas', 'mara'],
        ballots: [
          { codes: ['FA'], count: 40 },
          { codes: ['LC'], count: 30 },
        ],
        withPhotos: true,
        now,
      }),
  });
  origin = own.origin;
});

test.afterAll(async () => {
  await own?.stop();
});

/** Width and height of a PNG, from its IHDR chunk (bytes 16 to 23). */
function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every text drawn on a canvas of the page, in order (the page's own drawing calls, recorded). */
async function recordCanvasText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const drawn: string[] = [];
    (window as unknown as { drawnText: string[] }).drawnText = drawn;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text, ...rest) {
      drawn.push(String(text));
      return fillText.call(this, text, ...rest);
    };
  });
}

async function downloadPicture(page: Page, section: ReturnType<Page['getByRole']>, nth = 0): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'Descargar imagen' }).nth(nth).click(),
  ]);
  return download;
}

test('every Descargar imagen on a phone is at least 1200 px wide, with its title, the campaign, the date and time', async ({
  browser,
}) => {
  const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport: PHONE });
  try {
    const page = admin.page;
    await recordCanvasText(page);
    await page.goto('/resultados');
    await expect(page.getByTestId('estado-en-vivo')).toHaveText('En vivo');
    const map = page.getByRole('region', { name: 'Mapa: trámites validados' });
    const timeline = page.getByTestId('linea-page');
    await expect(timeline.getByRole('img')).toHaveCount(2);

    const pictures = [
      { download: await downloadPicture(page, map), title: 'Mapa: trámites validados', name: /^mapa/ },
      { download: await downloadPicture(page, timeline, 0), title: 'Votos por cuarto de hora', name: /^votos-por/ },
      { download: await downloadPicture(page, timeline, 1), title: 'Total acumulado', name: /^total-acumulado/ },
    ];
    const drawn = await page.evaluate(() => (window as unknown as { drawnText: string[] }).drawnText);
    // The caption: the campaign, the date written out and the time, in Caracas.
    const caption = drawn.filter((t) =>
      /^Comando Zulia · \d{1,2} de [a-z]+ de \d{4}, \d{1,2}:\d{2} [ap]\. m\. \(hora de Caracas\)$/.test(t),
    );
    expect(caption).toHaveLength(3);
    for (const picture of pictures) {
      expect(picture.download.suggestedFilename()).toMatch(picture.name);
      const size = pngSize(await picture.download.path());
      expect(size.width).toBeGreaterThanOrEqual(1200);
      expect(size.height).toBeGreaterThan(600);
      // The title drawn whole (one line at this width: nothing cut).
      expect(drawn.some((t) => t.startsWith(picture.title))).toBe(true);
    }
    const running = drawn.find((t) => t.startsWith('Total acumulado'));
    expect(running).toBe('Total acumulado sobre 5.373 electores');
    fs.copyFileSync(await pictures[2]!.download.path(), test.info().outputPath('total-acumulado.png'));
    fs.copyFileSync(await pictures[0]!.download.path(), test.info().outputPath('mapa.png'));
  } finally {
    await admin.context.close();
  }
});

for (const viewport of [PHONE, DESKTOP]) {
  test(`Mensajes says SMS votes are off without a gateway, at ${viewport.width} px`, async ({ browser }) => {
    const admin = await signedInContext(browser, { origin, email: ADMIN, password: PASSWORD, viewport });
    try {
      const page = admin.page;
      await page.goto('/admin/mensajes');
      const panel = page.getByRole('region', { name: 'Estado de los SMS' });
      await expect(panel.getByText('Apagados', { exact: true })).toBeVisible();
      await expect(panel).toContainText('las tarjetas de los validadores no muestran el código SMS');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({
        path: test.info().outputPath(`mensajes-sin-pasarela-${viewport.width}.png`),
        fullPage: true,
      });
    } finally {
      await admin.context.close();
    }
  });
}
