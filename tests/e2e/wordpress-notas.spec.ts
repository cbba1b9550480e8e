import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { freePort, startServerProcess } from '#server/testing/server-process';
import { makePosts, startWordpressContractServer } from '#tests/support/wordpress-contract-server';
import { test } from './support/app-code';
import { openPage } from './support/app-ready';
import { expectNoSeriousA11yViolations } from './support/axe';
import { seedE2E } from './support/seed';
import { E2E_NOW, E2E_SERVERS, WORDPRESS_CONTRACT } from './support/servers';

test.use({ baseURL: E2E_SERVERS.wordpress.url, viewport: { width: 390, height: 844 } });

test('a WordPress with 250 posts shows all 250 in /notas, and the browser never calls WordPress', {
  tag: '@publica',
}, async ({ page }) => {
  const wordpressCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(WORDPRESS_CONTRACT.url)) wordpressCalls.push(r.url());
  });
  await openPage(page, '/notas');
  const notas = page.getByTestId('nota');
  await expect(notas.first().getByRole('heading')).toHaveText('Entrada 250 “WordPress”');
  const more = page.getByRole('button', { name: 'Cargar más notas' });
  while (await more.isVisible()) {
    const before = await notas.count();
    await more.click();
    await expect(notas).not.toHaveCount(before);
  }
  await expect(notas).toHaveCount(WORDPRESS_CONTRACT.posts);
  await expect(notas.last().getByRole('heading')).toHaveText('Entrada 1 “WordPress”');
  expect(wordpressCalls).toEqual([]);
});

test('a post shows its picture from another host of the site with no CSP violation; an embedded video becomes a link', {
  tag: '@publica',
}, async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await openPage(page, '/notas');
  const newest = page.getByTestId('nota').first();
  await newest.getByText('Ver más...').click();
  const picture = newest.getByRole('img', { name: 'Mitin en Cabimas' });
  // The site is at 127.0.0.1; the picture at localhost, as a media subdomain or a CDN would be.
  const src = await picture.getAttribute('src');
  expect(new URL(src ?? '').origin).not.toBe(new URL(WORDPRESS_CONTRACT.url).origin);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
  await expect(newest.getByRole('link', { name: 'Ver «Cierre de campaña» en www.youtube.com' })).toHaveAttribute(
    'href',
    'https://www.youtube.com/embed/abc123?feature=oembed',
  );
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(refused).toEqual([]);
  await expectNoSeriousA11yViolations(page);
});

test('started while WordPress takes connections and never answers, the home page shows at once, and the notas come to the open page when WordPress answers', async ({
  browser,
}) => {
  test.slow(); // a server of its own starts
  const wordpress = await startWordpressContractServer(makePosts(3));
  // Every answer of WordPress is held until the test lets them go.
  const release = wordpress.hold();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-wp-held-'));
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    await seedE2E(dataDir);
    server = await startServerProcess({
      port: await freePort(),
      dataDir,
      name: 'con WordPress sin responder',
      env: { NODE_ENV: 'test', COMANDO_NOW: E2E_NOW, NOTAS_SOURCE: 'wordpress', WORDPRESS_URL: wordpress.url },
    });
    await wordpress.whenRequested((p) => p.includes('/wp/v2/posts'));
    const context = await browser.newContext({ baseURL: server.origin, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await openPage(page, '/');
    await expect(page.getByText('Desayuno con líderes')).toBeVisible();
    const notas = page.getByRole('region', { name: 'Últimas notas' });
    await expect(notas).toContainText(
      'Las notas todavía no están disponibles: se están cargando y aparecerán aquí en cuanto lleguen.',
    );
    // The page came while WordPress still held the first read.
    expect(wordpress.pending).toBeGreaterThan(0);

    release();
    // The open page asks again while the notas are loading: they come without a reload.
    await expect(notas.getByRole('link', { name: 'Entrada 3 “WordPress”' })).toBeVisible({ timeout: 30_000 });
    await expect(notas).not.toContainText('Las notas todavía no están disponibles');
    await context.close();
  } finally {
    release();
    await server?.stop();
    await wordpress.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
