import { expect, type Page } from '@playwright/test';

/**
 * Waits until the app has taken the page over. A rendered public page (/, /agenda, /notas) is on screen
 * and `load` has fired before its code is even asked for (after the first paint): until the app marks
 * the page, its buttons do nothing.
 */
export async function appReady(page: Page): Promise<void> {
  await expect(page.locator('html[data-app="ready"]')).toHaveCount(1);
}

/** Opens a page and waits until the app has taken it over. */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await appReady(page);
}
