import zlib from 'node:zlib';
import { expect, type Page, type Response } from '@playwright/test';
import { blockAppCode, isAppCode, test } from './support/app-code';
import { openPage } from './support/app-ready';
import { XSS_NOTA_TITLE } from './support/seed';
import { E2E_SERVERS } from './support/servers';

// The public pages come rendered by the server with the answers they show; their own small script makes
// them work, without the app (docs/decisions/065).
// (axe needs JavaScript in the page: the same markup is checked with it in public-site.spec.ts.)
const PHONE = { width: 390, height: 844 };
const PAGES = ['/', '/agenda', '/notas'];

test.describe('without JavaScript', () => {
  test.use({ viewport: PHONE, javaScriptEnabled: false });

  test("the agenda can be read: today's date in Spanish, 12-hour times and the fallbacks", async ({ page }) => {
    await page.goto('/agenda');
    await expect(page).toHaveTitle('Agenda · Comando Zulia');
    await expect(page.getByTestId('agenda-date')).toHaveText('DOMINGO, 22 NOV');
    await expect(page.getByTestId('agenda-time')).toHaveText(['7:05 AM', '12:00 PM', '6:30 PM', 'Hora no disponible']);
    await expect(page.getByTestId('agenda-description')).toHaveText([
      'Desayuno con líderes',
      'Descripción no disponible',
      'Caravana de cierre',
      'Evento con hora rota',
    ]);
    await expect(page.getByText('Comando necesita JavaScript')).toHaveCount(0);
  });

  test("the notas' titles can be read, and Ver más... opens and closes a nota", async ({ page }) => {
    await page.goto('/notas');
    // In this order, whatever notas other specs on the same server add before them.
    await expect(page.getByTestId('nota').getByRole('heading')).toContainText([
      'Nota más reciente',
      XSS_NOTA_TITLE,
      'Primera nota',
    ]);
    const first = page.getByTestId('nota').filter({ hasText: 'Primera nota' });
    await expect(first.getByTestId('nota-content')).toBeHidden();
    await first.getByText('Ver más...').click();
    await expect(first.getByRole('heading', { name: 'Subtítulo' })).toBeVisible();
    await expect(first.getByRole('listitem')).toHaveText(['uno', 'dos']);
    await first.getByText('Ver menos').click();
    await expect(first.getByTestId('nota-content')).toBeHidden();
  });

  test("the home page shows today's first events and the latest notas", async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Comando Zulia' })).toBeVisible();
    await expect(page.getByText('DOMINGO, 22 NOV')).toBeVisible();
    await expect(page.getByTestId('agenda-event')).toHaveCount(3);
    await expect(page.getByRole('link', { name: 'Nota más reciente' })).toBeVisible();
  });
});

/** The markup of the page's main landmark. */
const mainHtml = (page: Page) => page.locator('main').evaluate((main) => main.outerHTML);

test.describe('with JavaScript', { tag: '@publica' }, () => {
  test.use({ viewport: PHONE });

  test('their own script takes the pages over without asking again for what they hold, without an error or a change, and without the app', async ({
    browser,
    withoutAppCode,
  }) => {
    // What the server sent, as a browser without JavaScript lays it out.
    const still = await browser.newPage({ baseURL: E2E_SERVERS.main.url, javaScriptEnabled: false, viewport: PHONE });
    const served = new Map<string, string>();
    for (const path of PAGES) {
      await still.goto(path);
      served.set(path, await mainHtml(still));
    }
    await still.close();

    const context = await browser.newContext({ baseURL: E2E_SERVERS.main.url, viewport: PHONE });
    if (withoutAppCode) await blockAppCode(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_SERVERS.main.url });
    const page = await context.newPage();
    const asked: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });
    page.on('console', (m) => {
      // Without the app, the failed download of its code (asked for when the phone is idle) is no problem.
      if (withoutAppCode && isAppCode(m.location().url || 'http://x/')) return;
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    for (const path of PAGES) {
      asked.length = 0;
      await openPage(page, path);
      await page.waitForLoadState('networkidle');
      // Who is signed in is the one thing the page cannot hold; the rest it carries.
      expect(asked).toEqual(['/api/auth/session']);
      expect(await mainHtml(page)).toBe(served.get(path));
      // A visitor gets the login icon, from the page's script, not the app.
      await expect(
        page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar sesión' }),
      ).toBeVisible();
      await expect(page.locator('html[data-app]')).toHaveCount(0);
    }
    expect(problems).toEqual([]);

    // Live: the copy button and its toast work on the page as served.
    await openPage(page, '/agenda');
    await page.getByRole('button', { name: 'Copiar agenda' }).click();
    await expect(page.getByText('Agenda copiada con éxito')).toBeVisible();
    expect(asked.filter((p) => p !== '/api/auth/session')).toEqual([]);
    await context.close();
  });

  test('a public page runs at most 30 KB of JavaScript (gzip) before any interaction; the app is only downloaded when idle, never run', async ({
    browser,
    withoutAppCode,
  }) => {
    const BUDGET_BYTES = 30 * 1024;
    for (const path of PAGES) {
      // A browser that has nothing of the site yet, as a phone on its first visit.
      const context = await browser.newContext({ baseURL: E2E_SERVERS.main.url, viewport: PHONE });
      if (withoutAppCode) await blockAppCode(context);
      const page = await context.newPage();
      const run: { url: string; gzip: number }[] = [];
      const prefetched: string[] = [];
      const counting = async (response: Response) => {
        const request = response.request();
        if (!/\.m?js$/.test(new URL(request.url()).pathname)) return;
        // A download asked for when idle (<link rel=prefetch>) is kept for later, not run.
        if ((await request.allHeaders())['sec-purpose']?.startsWith('prefetch')) {
          prefetched.push(request.url());
          return;
        }
        run.push({ url: request.url(), gzip: zlib.gzipSync(await response.body(), { level: 9 }).length });
      };
      page.on('response', counting);
      await openPage(page, path);
      await page.waitForLoadState('networkidle');
      // Once the page has loaded and the browser is idle, the page asks for the app's code for later...
      if (!withoutAppCode) {
        await expect(
          page.locator('head link[rel=prefetch]'),
          `${path}: the page did not ask for the app's code`,
        ).not.toHaveCount(0);
        // ...which the browser downloads at its lowest priority, after anything else it has to do: on a
        // busy machine that can take longer than a check's usual 10 s.
        await expect
          .poll(() => prefetched.length, { message: `${path}: the app's code was not downloaded`, timeout: 30_000 })
          .toBeGreaterThan(0);
      }
      page.off('response', counting);

      const total = run.reduce((sum, r) => sum + r.gzip, 0);
      expect(
        run.map((r) => new URL(r.url).pathname),
        path,
      ).toEqual([expect.stringMatching(/^\/assets\/pagina-publica-/)]);
      expect(total, path).toBeLessThan(BUDGET_BYTES);
      // Whatever of the app came, came as an idle download (or failed, without it), and nothing ran it.
      expect(prefetched.every(isAppCode), path).toBe(true);
      await expect(page.locator('html[data-app]'), path).toHaveCount(0);
      await context.close();
    }
  });
});

test.describe('someone who needs the app', () => {
  test.use({ viewport: PHONE });

  test('a phone with votes or photos still waiting gets the app on a public page (its navbar counts them)', async ({
    page,
  }) => {
    // What the outbox leaves in localStorage while items wait (features/records/device/device-hints.ts).
    await page.addInitScript(() => localStorage.setItem('comando-envios-pendientes', '2'));
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await openPage(page, '/agenda');
    await expect(page.locator('html[data-app="ready"]')).toHaveCount(1);
    await expect(page.locator('html[data-public-page]')).toHaveCount(0);
    // The app's entry script, once (its style sheet shares the name).
    expect(asked.filter((p) => p.startsWith('/assets/index-') && p.endsWith('.js'))).toHaveLength(1);
    // The app runs the page: its copy button answers, with its own toast.
    await page.getByRole('button', { name: 'Copiar agenda' }).click();
    await expect(page.getByText(/Agenda copiada con éxito|Error al copiar agenda/)).toBeVisible();
  });
});
