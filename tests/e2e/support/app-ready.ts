import { expect, type Page } from '@playwright/test';

/**
 * Opens a page and waits until the app has taken it over. A rendered public page (/, /agenda, /notas) is
 * on screen and `load` has fired before its code is even asked for (after the first paint): until the
 * app marks the page, its buttons do nothing.
 */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html[data-app="ready"]')).toHaveCount(1);
}
