import { expect, type Page } from '@playwright/test';

/**
 * Opens a page and waits until its buttons answer: a rendered public page (/, /agenda, /notas) is on
 * screen before its script has run, and that script marks the page (`data-public-page="ready"`) once it
 * knows nobody is signed in, or hands the page to the app, which marks it (`data-app="ready"`) as it does
 * every other page.
 */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html[data-app="ready"], html[data-public-page="ready"]')).toHaveCount(1);
}
