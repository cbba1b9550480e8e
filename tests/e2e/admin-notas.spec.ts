import { test as base, expect, type Page } from '@playwright/test';
import { WORD_LIST_STYLES, WORD_WRITTEN_BULLETS } from '#web/testing/word-clipboard';
import { type AdminServer, startAdminServer } from './admin-server';
import { openPage } from './support/app-ready';
import { expectNoSeriousA11yViolations } from './support/axe';
import { E2E_ACCOUNTS } from './support/seed-auth';
import { useStoredSession } from './support/sessions';

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
  await openPage(visitor, '/notas');
  await expect(visitor.getByTestId('nota').first()).toBeVisible();
  const titles = await visitor.getByTestId('nota').getByRole('heading').allTextContents();
  await visitor.close();
  return titles;
}

/** Deletes what an earlier attempt of this test left, so the public list is as the other specs expect. */
async function removeLeftovers(page: Page, origin: string) {
  const list = (await (await page.request.get(`/api/admin/notas?q=${encodeURIComponent('prueba e2e')}`)).json()) as {
    items: { id: number }[];
  };
  for (const n of list.items) await page.request.delete(`/api/admin/notas/${n.id}`, { headers: { origin } });
}

// These tests publish and delete notas: on a server of their own, so the public list the other specs
// read on the shared server never shows them halfway (two specs run at once).
const test = base.extend<object, { server: AdminServer }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies first
    async ({}, use) => {
      const server = await startAdminServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.origin),
});

test.describe('notas editor at phone size', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test('someone on the Notas list writes a nota by touch, keeps it a draft, publishes it and takes it back', async ({
    page,
    server,
  }) => {
    // A whole story in one test, with three visits to the public page: give it time on a busy machine.
    test.slow();
    await useStoredSession(page, server.origin, notasEditor.email, notasEditor.password);
    await removeLeftovers(page, server.origin);
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
    await openPage(visitor, '/notas');
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

test('the editor works with the keyboard alone', async ({ page, server }) => {
  // On a busy machine this story has taken 25 s.
  test.slow();
  await useStoredSession(page, server.origin, notasEditor.email, notasEditor.password);
  await page.goto('/admin/notas/nueva');
  // The editor is loaded after the form; until it is there, Tab would go past where it will be.
  await expect(editor(page)).toBeVisible();
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

/** Pastes into the editor what the browser hands over on Ctrl+V: a paste event carrying the clipboard. */
async function pasteHtml(page: Page, html: string) {
  await editor(page).click();
  await editor(page).evaluate((element, clipboardHtml) => {
    const clipboard = new DataTransfer();
    clipboard.setData('text/html', clipboardHtml);
    clipboard.setData('text/plain', element.textContent ?? '');
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
  }, html);
}

/**
 * A clipboard as Google Docs, Word and web pages fill it: a wrapper, headings, inline styles, classes, a
 * script, a style sheet, an event handler, a table with widths, Word's pretend list, a frame, a
 * javascript: link, a picture that cannot load and one that can.
 */
const RICH_CLIPBOARD = (origin: string) =>
  [
    '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b">',
    '<h1 style="font-family:Arial;color:#c00">Plan de la semana</h1>',
    '<h2 dir="ltr" style="line-height:1.38"><span style="font-size:16pt;font-family:Arial">Lunes</span></h2>',
    '<p class="c4" style="color:red;font-size:20px;text-align:center" onclick="window.__pasteRan=1">Reunión en la ',
    '<span style="font-weight:700">sede</span> a las <span style="font-style:italic">8</span>.</p>',
    '<script>window.__pasteRan = 1</script><style>p { color: red }</style>',
    '<table style="border:1px solid" border="1"><colgroup><col width="120"><col width="80"></colgroup>',
    '<thead><tr><th style="background:yellow">Municipio</th><th>Responsable</th></tr></thead>',
    '<tbody><tr><td style="color:blue" align="right">Cabimas</td><td>Ana</td></tr></tbody></table>',
    "<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'>",
    "<span style='mso-list:Ignore'>·<span>&nbsp;&nbsp; </span></span>Agua<o:p></o:p></p>",
    "<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'>",
    "<span style='mso-list:Ignore'>·<span>&nbsp;&nbsp; </span></span>Gorras<o:p></o:p></p>",
    '<iframe src="https://example.org/marco"></iframe>',
    '<p><a href="javascript:window.__pasteRan=1">truco</a> y <a href="https://example.org/ruta" target="_self" ',
    'style="color:green">la ruta</a> <img src="/no-existe.png" onerror="window.__pasteRan=1" alt="rota">',
    `<img src="${origin}/img/caravana.svg" alt="La caravana" style="width:50px" class="wp-image-3"></p></b>`,
  ].join('');

/** What the editor keeps of it: the structure a nota may hold, and nothing else. */
const PASTED_HTML = (origin: string) =>
  [
    '<h1>Plan de la semana</h1><h2>Lunes</h2>',
    '<p>Reunión en la <strong>sede</strong> a las <em>8</em>.</p>',
    '<table><tbody><tr><th><p>Municipio</p></th><th><p>Responsable</p></th></tr>',
    '<tr><td><p>Cabimas</p></td><td><p>Ana</p></td></tr></tbody></table>',
    '<ul><li><p>Agua</p></li><li><p>Gorras</p></li></ul>',
    `<p>truco y <a href="https://example.org/ruta">la ruta</a> <img src="${origin}/img/caravana.svg" alt="La caravana"></p>`,
  ].join('');

test('a rich clipboard pasted into the editor keeps what a nota may hold, and the nota reads the same on /notas', async ({
  page,
  server,
}) => {
  test.slow();
  const title = 'Nota pegada prueba e2e';
  await useStoredSession(page, server.origin, notasEditor.email, notasEditor.password);
  await removeLeftovers(page, server.origin);
  const origin = server.origin;
  await page.goto('/admin/notas/nueva');
  await page.getByLabel('Título', { exact: true }).fill(title);
  await pasteHtml(page, RICH_CLIPBOARD(origin));
  await expect(editor(page).getByRole('heading', { name: 'Plan de la semana', level: 1 })).toBeVisible();
  await expect(editor(page).getByRole('table').getByRole('cell')).toHaveText(['Cabimas', 'Ana']);
  await expect(editor(page).getByRole('table').getByRole('columnheader')).toHaveText(['Municipio', 'Responsable']);
  await expect(editor(page).getByRole('listitem')).toHaveText(['Agua', 'Gorras']);
  await expect(editor(page).getByRole('img', { name: 'La caravana' })).toBeVisible();
  await expect(editor(page).getByRole('img', { name: 'rota' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/admin/notas');
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(toast(page, 'Nota guardada como borrador.')).toBeVisible();
  const sentHtml = ((await sent).postDataJSON() as { contentHtml: string }).contentHtml;
  expect(sentHtml).toBe(PASTED_HTML(origin));
  // Nothing pasted ran: no script, no event handler, no javascript: link.
  expect(await page.evaluate(() => (window as { __pasteRan?: number }).__pasteRan)).toBeUndefined();

  // The server's sanitiser had nothing to take out: it only adds rel and target to links and loading to
  // pictures (and writes <img … />).
  const withoutServerAdditions = (html: string) =>
    html.replace(/ (rel|target|loading)="[^"]*"/g, '').replace(/ \/>/g, '>');
  const id = Number(page.url().split('/').at(-1));
  const stored = ((await (await page.request.get(`/api/admin/notas/${id}`)).json()) as { contentHtml: string })
    .contentHtml;
  expect(withoutServerAdditions(stored)).toBe(sentHtml);

  await page.getByRole('button', { name: 'Guardar y publicar' }).click();
  await expect(toast(page, 'Nota publicada.')).toBeVisible();
  // A visitor of its own (axe needs a page in a context it can reach).
  const visitorContext = await page.context().browser()?.newContext({ baseURL: origin });
  if (!visitorContext) throw new Error('no browser');
  const visitor = await visitorContext.newPage();
  await openPage(visitor, '/notas');
  const card = visitor.getByTestId('nota').filter({ hasText: title });
  await card.getByText('Ver más...').click();
  const content = card.getByTestId('nota-content');
  expect(withoutServerAdditions(await content.evaluate((element) => element.innerHTML))).toBe(sentHtml);
  await expect(content.getByRole('heading', { name: 'Plan de la semana', level: 1 })).toBeVisible();
  await expect(content.getByRole('columnheader')).toHaveText(['Municipio', 'Responsable']);
  await expect(content.getByRole('cell')).toHaveText(['Cabimas', 'Ana']);
  await expect(content.getByRole('listitem')).toHaveText(['Agua', 'Gorras']);
  await expect(content.getByRole('link', { name: 'la ruta' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(content.getByRole('img', { name: 'La caravana' })).toBeVisible();
  await expectNoSeriousA11yViolations(visitor);
  await visitorContext.close();
  await removeLeftovers(page, server.origin);
});

test('lists copied from Word become lists in Chromium, with none of Word’s bullets left', async ({ page, server }) => {
  await useStoredSession(page, server.origin, notasEditor.email, notasEditor.password);
  await page.goto('/admin/notas/nueva');
  // Lists made with Word's list styles (the list named by the paragraph's class).
  await pasteHtml(page, WORD_LIST_STYLES);
  await expect(editor(page).locator('ul > li > p')).toHaveText(['Cabimas', 'Plaza Bolívar, 9:00 a. m.', 'Lagunillas']);
  await expect(editor(page).locator('ul ul > li')).toHaveText('Plaza Bolívar, 9:00 a. m.');
  expect(await editor(page).innerText()).not.toMatch(/[·§]/);

  // Bullets and numbers written out before the text.
  await editor(page).press('Control+a');
  await editor(page).press('Delete');
  await pasteHtml(page, WORD_WRITTEN_BULLETS);
  await expect(editor(page).locator('ul > li')).toHaveText(['Agua', 'Gorras']);
  await expect(editor(page).locator('ol > li')).toHaveText(['Caravana', 'Mitin']);
  expect(await editor(page).innerText()).not.toMatch(/[·§]|^\d+\./m);
});

test('Tab leaves the text from inside a table too, without adding rows', async ({ page, server }) => {
  await useStoredSession(page, server.origin, notasEditor.email, notasEditor.password);
  await page.goto('/admin/notas/nueva');
  await pasteHtml(page, '<table><tr><th>Municipio</th></tr><tr><td>Cabimas</td></tr></table>');
  await editor(page).getByRole('cell', { name: 'Cabimas' }).click();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Vista previa' })).toBeFocused();
  await expect(editor(page).getByRole('row')).toHaveCount(2);
  await page.keyboard.press('Shift+Tab');
  await expect(editor(page)).toBeFocused();
  await expect(editor(page).getByRole('row')).toHaveCount(2);
});

test('someone on the Notas list only cannot open the records or the agenda editor', async ({ page, server }) => {
  await useStoredSession(page, server.origin, notasEditor.email, notasEditor.password);
  await page.goto('/admin');
  const sections = page.getByRole('navigation', { name: 'Secciones de administración' });
  await expect(sections.getByRole('link')).toHaveText(['Notas']);
  await page.goto('/admin/registros');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  expect((await page.request.get('/api/admin/records?department=cabimas')).status()).toBe(404);
});
