import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signIn } from './support/login';
import { E2E_ACCOUNTS } from './support/seed-auth';

const { notasEditor } = E2E_ACCOUNTS;
const PHONE = { width: 390, height: 844 };
const TITLE = 'Nota de prueba e2e';

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text);
const editor = (page: Page) => page.getByRole('textbox', { name: 'Contenido' });
const tool = (page: Page, name: string) =>
  page.getByRole('toolbar', { name: 'Formato del contenido' }).getByRole('button', { name, exact: true });

/** The public list, in a page of its own, as a visitor sees it. */
async function publicTitles(page: Page): Promise<string[]> {
  const visitor = await page
    .context()
    .browser()
    ?.newPage({ baseURL: new URL(page.url()).origin });
  if (!visitor) throw new Error('no browser');
  await visitor.goto('/notas');
  await expect(visitor.getByTestId('nota').first()).toBeVisible();
  const titles = await visitor.getByTestId('nota').getByRole('heading').allTextContents();
  await visitor.close();
  return titles;
}

/** Deletes what an earlier attempt of this test left, so the public list is as the other specs expect. */
async function removeLeftovers(page: Page) {
  const origin = new URL(page.url()).origin;
  const list = (await (await page.request.get(`/api/admin/notas?q=${encodeURIComponent('prueba e2e')}`)).json()) as {
    items: { id: number }[];
  };
  for (const n of list.items) await page.request.delete(`/api/admin/notas/${n.id}`, { headers: { origin } });
}

test.describe('notas editor at phone size', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test('someone on the Notas list writes a nota by touch, keeps it a draft, publishes it and takes it back', async ({
    page,
  }) => {
    // A whole story in one test, with three visits to the public page: give it time on a busy machine.
    test.slow();
    await signIn(page, notasEditor.email, notasEditor.password);
    await removeLeftovers(page);
    await page.goto('/admin/notas');
    await expect(page.getByRole('article', { name: 'Nota más reciente' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Nueva nota' }).tap();
    await expect(page).toHaveURL(/\/admin\/notas\/nueva$/);
    await page.getByLabel('Título', { exact: true }).fill(TITLE);
    await editor(page).tap();
    await page.keyboard.type('Gran caravana');
    await tool(page, 'Título de sección').tap();
    await page.keyboard.press('Enter');
    await tool(page, 'Párrafo normal').tap();
    await page.keyboard.type('Salimos a las ');
    await tool(page, 'Negrita (N)').tap();
    await page.keyboard.type('seis');
    await tool(page, 'Negrita (N)').tap();
    await page.keyboard.type(' en punto.');
    await page.keyboard.press('Enter');
    await tool(page, 'Lista con viñetas').tap();
    await page.keyboard.type('Agua');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Gorras');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Más en ');
    await tool(page, 'Enlace').tap();
    const link = page.getByRole('dialog', { name: 'Insertar enlace' });
    await link.getByLabel('Dirección (URL)').fill('https://example.org/ruta');
    await link.getByLabel('Texto del enlace').fill('la ruta');
    await expectNoSeriousA11yViolations(page);
    await link.getByRole('button', { name: 'Insertar enlace' }).tap();
    await expect(link).toBeHidden();
    await tool(page, 'Imagen por URL').tap();
    const image = page.getByRole('dialog', { name: 'Insertar imagen' });
    await image.getByLabel('Dirección de la imagen (URL)').fill(`${new URL(page.url()).origin}/img/caravana.svg`);
    await image.getByLabel('Descripción de la imagen').fill('La caravana');
    await image.getByRole('button', { name: 'Insertar imagen' }).tap();
    await expect(editor(page).locator('h2')).toHaveText('Gran caravana');
    await expect(editor(page).locator('b, strong')).toHaveText('seis');
    await expect(editor(page).locator('ul li')).toHaveText(['Agua', 'Gorras']);
    await expect(editor(page).getByRole('link', { name: 'la ruta' })).toBeVisible();
    await expect(editor(page).getByRole('img', { name: 'La caravana' })).toBeVisible();

    await page.getByRole('button', { name: 'Vista previa' }).tap();
    await expect(page.locator('#nota-vista-previa').getByRole('heading', { name: 'Gran caravana' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Guardar borrador' }).tap();
    await expect(toast(page, 'Nota guardada como borrador.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/notas\/\d+$/);
    await expect(page.getByTestId('nota-estado')).toHaveText('Borrador');
    // Drafts never reach the public site.
    expect(await publicTitles(page)).not.toContain(TITLE);

    await page.getByRole('button', { name: 'Guardar y publicar' }).tap();
    await expect(toast(page, 'Nota publicada.')).toBeVisible();
    await expect(page.getByTestId('nota-estado')).toHaveText('Publicada');
    expect((await publicTitles(page))[0]).toBe(TITLE);

    // What the public sees: the formatting kept, the link made safe.
    const visitor = await page
      .context()
      .browser()
      ?.newPage({ baseURL: new URL(page.url()).origin });
    if (!visitor) throw new Error('no browser');
    await visitor.goto('/notas');
    const card = visitor.getByTestId('nota').filter({ hasText: TITLE });
    await card.getByText('Ver más...').click();
    const content = card.getByTestId('nota-content');
    await expect(content.getByRole('heading', { name: 'Gran caravana' })).toBeVisible();
    await expect(content.locator('b, strong')).toHaveText('seis');
    await expect(content.getByRole('listitem')).toHaveText(['Agua', 'Gorras']);
    await expect(content.getByRole('link', { name: 'la ruta' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(content.getByRole('img', { name: 'La caravana' })).toBeVisible();
    await visitor.close();

    await page.getByRole('button', { name: 'Volver a borrador' }).tap();
    await expect(toast(page, 'La nota volvió a borrador: ya no se muestra en el sitio.')).toBeVisible();
    expect(await publicTitles(page)).not.toContain(TITLE);

    await page.getByRole('button', { name: 'Eliminar' }).tap();
    const confirm = page.getByRole('dialog', { name: 'Eliminar nota' });
    await expect(confirm).toContainText(TITLE);
    await confirm.getByRole('button', { name: 'Eliminar' }).tap();
    await expect(toast(page, 'Nota eliminada.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/notas$/);
    await expect(page.getByRole('article', { name: TITLE })).toHaveCount(0);
  });
});

test('the editor works with the keyboard alone', async ({ page }) => {
  await signIn(page, notasEditor.email, notasEditor.password);
  await page.goto('/admin/notas/nueva');
  const title = page.getByLabel('Título', { exact: true });
  await title.focus();
  await page.keyboard.type('Solo teclado');
  // Title, then the toolbar as one stop, then the text.
  await page.keyboard.press('Tab');
  await expect(tool(page, 'Párrafo normal')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(editor(page)).toBeFocused();
  await page.keyboard.type('Encabezado');
  await page.keyboard.press('Shift+Tab');
  await expect(tool(page, 'Párrafo normal')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tool(page, 'Título de sección')).toBeFocused();
  await page.keyboard.press('Enter');
  // The format applies where the caret was, and the caret goes back there to keep writing.
  await expect(editor(page).locator('h2')).toHaveText('Encabezado');
  await expect(editor(page)).toBeFocused();
  await expect(tool(page, 'Título de sección')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('uno ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('fuerte');
  await expect(editor(page).locator('b, strong')).toHaveText('fuerte');
  await page.keyboard.press('Control+k');
  const link = page.getByRole('dialog', { name: 'Insertar enlace' });
  await expect(link.getByLabel('Dirección (URL)')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(link).toBeHidden();
  await expectNoSeriousA11yViolations(page);
});

test('someone on the Notas list only cannot open the records or the agenda editor', async ({ page }) => {
  await signIn(page, notasEditor.email, notasEditor.password);
  await page.goto('/admin');
  const sections = page.getByRole('navigation', { name: 'Secciones de administración' });
  await expect(sections.getByRole('link')).toHaveText(['Notas']);
  await page.goto('/admin/registros');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  expect((await page.request.get('/api/admin/records?department=cabimas')).status()).toBe(404);
});
