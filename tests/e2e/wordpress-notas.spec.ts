import { expect, test } from '@playwright/test';
import { E2E_SERVERS, WORDPRESS_CONTRACT } from './support/servers';

test.use({ baseURL: E2E_SERVERS.wordpress.url, viewport: { width: 390, height: 844 } });

test('a WordPress with 250 posts shows all 250 in /notas, and the browser never calls WordPress', async ({ page }) => {
  const wordpressCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(WORDPRESS_CONTRACT.url)) wordpressCalls.push(r.url());
  });
  await page.goto('/notas');
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
