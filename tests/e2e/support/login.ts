import { expect, type Page } from '@playwright/test';

/** Signs in through the login page and waits until the app has left it. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}

/**
 * Signs in with a one-time password an admin handed over, then chooses `newPassword` on the
 * 'Elige tu contraseña' form, which nothing else can be reached without. The one-time password is
 * typed once, to sign in: the form asks only for the new one (twice).
 */
export async function signInWithOneTimePassword(
  page: Page,
  email: string,
  oneTime: string,
  newPassword: string,
): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(oneTime);
  await page.getByRole('button', { name: 'Entrar' }).click();
  const form = page.getByRole('form', { name: 'Elige tu contraseña' });
  await expect(form).toBeVisible();
  await form.getByLabel('Contraseña nueva', { exact: true }).fill(newPassword);
  await form.getByLabel('Repite la contraseña nueva').fill(newPassword);
  await form.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}
