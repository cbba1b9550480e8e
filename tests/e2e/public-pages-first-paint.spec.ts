import { expect, type Page, test } from '@playwright/test';
import { openPage } from './support/app-ready';
import { XSS_NOTA_TITLE } from './support/seed';
import { E2E_SERVERS } from './support/servers';

// The public pages come rendered by the server with the answers they show; the app takes them over.
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

test.describe('with JavaScript', () => {
  test.use({ viewport: PHONE });

  test('the app takes the pages over without asking again for what they hold, without an error or a change', async ({
    browser,
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
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_SERVERS.main.url });
    const page = await context.newPage();
    const asked: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    for (const path of PAGES) {
      asked.length = 0;
      await page.goto(path);
      // The app has started once it asked who is signed in (the one thing the page cannot hold).
      await expect.poll(() => asked).toContain('/api/auth/session');
      await page.waitForLoadState('networkidle');
      expect(asked.filter((p) => p !== '/api/auth/session')).toEqual([]);
      expect(await mainHtml(page)).toBe(served.get(path));
    }
    expect(problems).toEqual([]);

    // Live: the copy button and its toast work on the page as served.
    await openPage(page, '/agenda');
    await page.getByRole('button', { name: 'Copiar agenda' }).click();
    await expect(page.getByText('Agenda copiada con éxito')).toBeVisible();
    expect(asked.filter((p) => p !== '/api/auth/session')).toEqual([]);
    await context.close();
  });
});
