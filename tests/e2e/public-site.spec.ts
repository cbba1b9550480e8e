import { expect, type Page } from '@playwright/test';
import { isAppCode, test } from './support/app-code';
import { openPage } from './support/app-ready';
import { expectNoSeriousA11yViolations } from './support/axe';
import { XSS_NOTA_TITLE } from './support/seed';
import { E2E_SERVERS } from './support/servers';

const PHONE = { width: 390, height: 844 };
const PROJECTOR = { width: 1920, height: 1080 };

// @publica: these run twice, with the app's code and with every request for it failing (chromium-sin-app).
test.describe('agenda', { tag: '@publica' }, () => {
  test.use({ viewport: PHONE });

  test("shows the server's today (20:30 in Caracas, already tomorrow in UTC) with 12-hour times and fallbacks", async ({
    page,
  }) => {
    await openPage(page, '/agenda');
    await expect(page.getByTestId('agenda-date')).toHaveText('DOMINGO, 22 NOV');
    await expect(page.getByTestId('agenda-leader')).not.toBeEmpty();
    await expect(page.getByTestId('agenda-time')).toHaveText(['7:05 AM', '12:00 PM', '6:30 PM', 'Hora no disponible']);
    await expect(page.getByTestId('agenda-description')).toHaveText([
      'Desayuno con líderes',
      'Descripción no disponible',
      'Caravana de cierre',
      'Evento con hora rota',
    ]);
    await expect(page.getByTestId('agenda-place').nth(3)).toContainText('Lugar no disponible');
    await expect(page.getByText('Evento de mañana')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('copies a tidy plain-text agenda to the clipboard', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_SERVERS.main.url });
    await openPage(page, '/agenda');
    await page.getByRole('button', { name: 'Copiar agenda' }).click();
    await expect(page.getByText('Agenda copiada con éxito')).toBeVisible();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text.split('\n').slice(0, 7)).toEqual([
      '*AGENDA DOMINGO, 22 NOV*',
      expect.stringMatching(/^\*.+\*$/),
      '',
      '🕒 *7:05 AM*',
      'Desayuno con líderes',
      '📍 Casa comunal',
      '',
    ]);
    expect(text).toContain('🕒 *Hora no disponible*\nEvento con hora rota\n📍 Lugar no disponible');
  });

  test('says so when the clipboard refuses, and toasts go away on navigation', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
        configurable: true,
      });
    });
    await openPage(page, '/agenda');
    await page.getByRole('button', { name: 'Copiar agenda' }).click();
    await expect(page.getByText('Error al copiar agenda')).toBeVisible();
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await page.getByTestId('mobile-menu').getByRole('link', { name: 'Notas' }).click();
    await expect(page).toHaveURL(/\/notas$/);
    await expect(page.getByText('Error al copiar agenda')).toHaveCount(0);
  });

  test('has no copy button on a day without events', async ({ page }) => {
    await page.goto(`${E2E_SERVERS.empty.url}/agenda`);
    await expect(page.getByText('No hay eventos en la agenda de hoy.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copiar agenda' })).toHaveCount(0);
  });
});

test.describe('notas', { tag: '@publica' }, () => {
  test.use({ viewport: PHONE });

  test('lists notas newest first and expands and collapses each one', async ({ page }) => {
    await openPage(page, '/notas');
    await expect(page.getByTestId('nota').getByRole('heading')).toHaveText([
      'Nota más reciente',
      XSS_NOTA_TITLE,
      'Primera nota',
    ]);
    const first = page.getByTestId('nota').filter({ hasText: 'Primera nota' });
    await expect(first.getByTestId('nota-content')).toBeHidden();
    // A native disclosure (<details>): its summary is no ARIA button, so it is found by its label.
    await first.getByText('Ver más...').click();
    await expect(first.getByTestId('nota-content')).toBeVisible();
    await expect(first.getByRole('heading', { name: 'Subtítulo' })).toBeVisible();
    await expect(first.getByRole('listitem')).toHaveText(['uno', 'dos']);
    await first.getByText('Ver menos').click();
    await expect(first.getByTestId('nota-content')).toBeHidden();
    await expectNoSeriousA11yViolations(page);
  });

  test('never runs the code hidden in a nota', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await openPage(page, '/notas');
    const nota = page.getByTestId('nota').filter({ hasText: XSS_NOTA_TITLE });
    await nota.getByText('Ver más...').click();
    await expect(nota.getByText('Texto visible')).toBeVisible();
    await nota.getByText('pasa por aquí').hover();
    await nota.getByText('enlace peligroso').click();
    const html = await nota.getByTestId('nota-content').innerHTML();
    expect(html).not.toMatch(/<script|onerror|onmouseover|javascript:/i);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

test.describe('shell', () => {
  test('the not-found screen offers a way home', async ({ page }) => {
    await page.goto('/esto/no/existe');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
    await expect(page).toHaveTitle('Página no encontrada · Comando Zulia');
    await page.getByRole('link', { name: 'Ir a inicio' }).click();
    await expect(page).toHaveURL(`${E2E_SERVERS.main.url}/`);
    await expectNoSeriousA11yViolations(page);
  });

  test.describe('at phone size', () => {
    test.use({ viewport: PHONE });

    test('the slide-over menu traps focus, closes on Escape and on navigation', { tag: '@publica' }, async ({
      page,
    }) => {
      await openPage(page, '/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const open = page.getByRole('button', { name: 'Abrir menú' });
      await open.click();
      const menu = page.getByTestId('mobile-menu');
      await expect(menu).toBeVisible();
      // The page behind stays where it was: opening the menu does not scroll it.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expectNoSeriousA11yViolations(page);
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await open.click();
      await menu.getByRole('link', { name: 'Agenda' }).click();
      await expect(page).toHaveURL(/\/agenda$/);
      await expect(menu).toBeHidden();
    });

    test('home shows the campaign, today in short and the latest notas', { tag: '@publica' }, async ({ page }) => {
      await openPage(page, '/');
      await expect(page.getByRole('heading', { level: 1, name: 'Comando Zulia' })).toBeVisible();
      await expect(page.getByText('DOMINGO, 22 NOV')).toBeVisible();
      await expect(page.getByTestId('agenda-event')).toHaveCount(3);
      await expect(page.getByRole('link', { name: 'Nota más reciente' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Iniciar sesión' }).first()).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    test('the home page does not shift as the agenda and the notas arrive (CLS under 0.02)', async ({ page }) => {
      await expectStableHome(page);
    });

    test('the navbar changes style once the page is scrolled', { tag: '@publica' }, async ({ page }) => {
      await openPage(page, '/notas');
      const header = page.locator('header').first();
      await expect(header).toHaveAttribute('data-scrolled', 'false');
      await page.evaluate(() => {
        document.body.style.minHeight = '3000px';
        window.scrollTo(0, 5);
      });
      await expect(header).toHaveAttribute('data-scrolled', 'true');
    });
  });

  test('at projector size the links sit in the navbar and the menu icon opens the same menu', {
    tag: '@publica',
  }, async ({ page }) => {
    await page.setViewportSize(PROJECTOR);
    await openPage(page, '/');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await expect(nav.getByRole('link', { name: 'Agenda' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Notas' })).toBeVisible();
    const open = nav.getByRole('button', { name: 'Abrir menú' });
    await open.click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu.getByRole('link', { name: 'Agenda' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(open).toBeFocused();
  });

  test('at projector size the home page does not shift either', async ({ page }) => {
    await page.setViewportSize(PROJECTOR);
    await expectStableHome(page);
  });

  test('each page names its tab, followed by the campaign', async ({ page }) => {
    for (const [path, title] of [
      ['/', 'Comando Zulia'],
      ['/agenda', 'Agenda · Comando Zulia'],
      ['/notas', 'Notas · Comando Zulia'],
      ['/login', 'Iniciar sesión · Comando Zulia'],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
  });

  test('robots.txt comes from the server, not the app', async ({ request }) => {
    const res = await request.get('/robots.txt');
    expect(res.headers()['content-type']).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('Disallow: /api/');
    expect(text).not.toContain('<');
  });

  test('/favicon.ico is the icon, not the app', async ({ request }) => {
    const res = await request.get('/favicon.ico');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^image\//);
    // An ICO file's header: reserved 0, type 1 (icon).
    expect([...(await res.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  test('pages load without Content-Security-Policy violations or script errors', { tag: '@publica' }, async ({
    page,
    withoutAppCode,
  }) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      // Without the app, the failed download of its code (asked for when the phone is idle) is no problem.
      if (withoutAppCode && isAppCode(m.location().url || 'http://x/')) return;
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    for (const path of ['/', '/agenda', '/notas']) {
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible();
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Opens the home page (from within the app) with the agenda and the notas held back until the page has drawn their loading
 * state, then lets them in and sums the layout shifts the browser measured (Cumulative Layout Shift).
 */
async function expectStableHome(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  for (const url of ['**/api/agenda/today', '**/api/notas?**']) {
    await page.route(url, async (route) => {
      await held;
      await route.continue();
    });
  }
  // '/' itself comes rendered by the server, data included: the loading state is what a visit within the
  // app shows. From /login, the brand's link leads home (a script's click: a person's click would keep
  // the shifts of the next half second out of the sum).
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { __cls: number }).__cls = 0;
  });
  await page.locator('header a[href="/"]').first().dispatchEvent('click');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Cargando la agenda…')).toBeVisible();
  await expect(page.getByText('Cargando notas…')).toBeVisible();
  release();
  await expect(page.getByTestId('agenda-event')).toHaveCount(3);
  await expect(page.getByRole('link', { name: 'Nota más reciente' })).toBeVisible();
  // Two frames after the last change, so the browser has reported its shifts.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
  expect(cls).toBeLessThan(0.02);
}
