import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { NotaAdmin } from '#shared/features/notas/notas.admin';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import NotasAdminPage from './notas-admin-page';

const WORDPRESS =
  'Las notas de este sitio se administran en WordPress: créalas y edítalas allí. Aquí no se pueden cambiar.';

function nota(id: number, overrides: Partial<NotaAdmin> = {}): NotaAdmin {
  return {
    id,
    title: `Nota ${id}`,
    contentHtml: `<p>Texto ${id}</p>`,
    status: 'borrador',
    publishedAt: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * The notas editor API, in memory. The server "sanitises" by dropping <script> and, so that its answer can
 * be told from what was sent, the <u> tags.
 */
function api(options: { notas?: NotaAdmin[]; source?: 'local' | 'wordpress' } = {}) {
  const state = { notas: options.notas ?? [], posts: [] as unknown[], puts: [] as unknown[], actions: [] as string[] };
  const clean = (html: string) => html.replace(/<script>.*?<\/script>|<\/?u>/g, '');
  server.use(
    http.get('*/api/admin/notas', () =>
      HttpResponse.json(
        options.source === 'wordpress'
          ? { source: 'wordpress', notice: WORDPRESS, items: [], page: 1, pageSize: 20, total: 0, totalPages: 1 }
          : {
              source: 'local',
              items: state.notas.map(({ contentHtml, ...n }) => ({
                ...n,
                excerpt: contentHtml.replace(/<[^>]+>/g, ''),
              })),
              page: 1,
              pageSize: 20,
              total: state.notas.length,
              totalPages: 1,
            },
      ),
    ),
    http.get('*/api/admin/notas/:id', ({ params }) => {
      const found = state.notas.find((n) => n.id === Number(params.id));
      return found
        ? HttpResponse.json(found)
        : HttpResponse.json({ statusCode: 404, error: 'Not Found', message: 'La nota no existe.' }, { status: 404 });
    }),
    http.post('*/api/admin/notas', async ({ request }) => {
      const body = (await request.json()) as { title: string; contentHtml: string; publish: boolean };
      state.posts.push(body);
      const created = nota(state.notas.length + 1, {
        title: body.title,
        contentHtml: clean(body.contentHtml),
        status: body.publish ? 'publicada' : 'borrador',
        publishedAt: body.publish ? '2026-11-22T10:00:00.000Z' : null,
      });
      state.notas.push(created);
      return HttpResponse.json(
        { message: body.publish ? 'Nota publicada.' : 'Nota guardada como borrador.', nota: created },
        { status: 201 },
      );
    }),
    http.put('*/api/admin/notas/:id', async ({ request, params }) => {
      const body = (await request.json()) as { title: string; contentHtml: string };
      state.puts.push(body);
      const index = state.notas.findIndex((n) => n.id === Number(params.id));
      const updated = { ...(state.notas[index] as NotaAdmin), title: body.title, contentHtml: clean(body.contentHtml) };
      state.notas[index] = updated;
      return HttpResponse.json({ message: 'Cambios guardados.', nota: updated });
    }),
    http.post('*/api/admin/notas/:id/:action', ({ params }) => {
      state.actions.push(`${params.action} ${params.id}`);
      const index = state.notas.findIndex((n) => n.id === Number(params.id));
      const publish = params.action === 'publish';
      const changed: NotaAdmin = {
        ...(state.notas[index] as NotaAdmin),
        status: publish ? 'publicada' : 'borrador',
        publishedAt: publish ? '2026-11-22T10:00:00.000Z' : null,
      };
      state.notas[index] = changed;
      return HttpResponse.json({
        message: publish ? 'Nota publicada.' : 'La nota volvió a borrador: ya no se muestra en el sitio.',
        nota: changed,
      });
    }),
    http.delete('*/api/admin/notas/:id', ({ params }) => {
      state.actions.push(`delete ${params.id}`);
      state.notas = state.notas.filter((n) => n.id !== Number(params.id));
      return HttpResponse.json({ message: 'Nota eliminada.' });
    }),
  );
  return state;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/notas/*" element={<NotasAdminPage />} />
    </Routes>,
    { route },
  );

/** Pastes HTML into the editor, the way a browser hands it over: a paste event carrying the clipboard. */
async function pasteContent(html: string) {
  const editor = await screen.findByRole('textbox', { name: 'Contenido' });
  const event = new Event('paste', { bubbles: true, cancelable: true });
  const clipboard = { 'text/html': html, 'text/plain': html.replace(/<[^>]+>/g, '') };
  Object.defineProperty(event, 'clipboardData', {
    value: {
      types: Object.keys(clipboard),
      getData: (type: string) => clipboard[type as keyof typeof clipboard] ?? '',
    },
  });
  fireEvent(editor, event);
  return editor;
}

// The nota form loads its editor lazily: have the module ready, so the tests wait for React, not for it.
beforeAll(() => import('./rich-text-editor'), 60_000);

// Generous margins (this file only): user-event types key by key, and on a busy machine a whole story can
// pass 5 s; what appears after a save or a navigation can take more than testing-library's 1 s.
configure({ asyncUtilTimeout: 10_000 });
describe('NotasAdminPage', { timeout: 30_000 }, () => {
  it('writes a new nota and publishes it; the editor then holds the HTML as the server stored it', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/notas/nueva');
    await user.type(await screen.findByLabelText('Título'), 'Cierre de campaña');
    await pasteContent('<h2>Mañana</h2><p>Todos a la <b>plaza</b>. <u>Sin falta</u></p><script>alert(1)</script>');
    await user.click(screen.getByRole('button', { name: 'Vista previa' }));
    const preview = document.getElementById('nota-vista-previa') as HTMLElement;
    expect(within(preview).getByRole('heading', { name: 'Mañana' })).toBeInTheDocument();
    expect(preview.innerHTML).not.toContain('<script');

    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    expect(await screen.findByText('Nota publicada.')).toBeInTheDocument();
    // The editor keeps only what a nota may hold: the script never leaves the browser.
    expect(state.posts).toEqual([
      {
        title: 'Cierre de campaña',
        contentHtml: '<h2>Mañana</h2><p>Todos a la <strong>plaza</strong>. <u>Sin falta</u></p>',
        publish: true,
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'Editar nota' })).toBeInTheDocument();
    expect(screen.getByTestId('nota-estado')).toHaveTextContent('Publicada');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Contenido' }).innerHTML).toBe(
        '<h2>Mañana</h2><p>Todos a la <strong>plaza</strong>. Sin falta</p>',
      ),
    );
  });

  it('asks for a title and some content before sending anything', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/notas/nueva');
    await user.click(await screen.findByRole('button', { name: 'Guardar borrador' }));
    expect(screen.getByText('Escribe el título de la nota.')).toBeInTheDocument();
    expect(screen.getByText('Escribe el contenido de la nota.')).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Contenido' })).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByLabelText('Título'), 'Sin texto');
    await pasteContent('<p>&nbsp;</p><p><br></p>');
    await user.click(screen.getByRole('button', { name: 'Guardar borrador' }));
    expect(screen.getByText('Escribe el contenido de la nota.')).toBeInTheDocument();
    expect(state.posts).toEqual([]);
  });

  it('edits a published nota, takes it back to draft, and deletes it after confirming', async () => {
    // An editor's desk screen: a phone (jsdom's 1024 px is under the spec's 1100) shows two toasts at a
    // time, and jsdom never ends a toast's exit animation, so the third would wait for ever.
    const width = window.innerWidth;
    window.innerWidth = 1280;
    onTestFinished(() => {
      window.innerWidth = width;
    });
    const state = api({ notas: [nota(1, { status: 'publicada', publishedAt: '2026-11-20T10:00:00.000Z' })] });
    const user = userEvent.setup();
    renderAt('/admin/notas');
    await user.click(await screen.findByRole('link', { name: 'Editar: Nota 1' }));
    const title = await screen.findByLabelText('Título');
    await user.clear(title);
    await user.type(title, 'Nota corregida');
    await user.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByText('Cambios guardados.')).toBeInTheDocument();
    expect(state.puts).toEqual([{ title: 'Nota corregida', contentHtml: '<p>Texto 1</p>' }]);

    await user.click(screen.getByRole('button', { name: 'Volver a borrador' }));
    expect(await screen.findByText('La nota volvió a borrador: ya no se muestra en el sitio.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('nota-estado')).toHaveTextContent('Borrador'));

    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Eliminar nota' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Nota eliminada.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Notas', level: 2 })).toBeInTheDocument();
    expect(state.actions).toEqual(['unpublish 1', 'delete 1']);
  });

  it('publishes a draft from the list and filters by status', async () => {
    const state = api({ notas: [nota(1), nota(2, { status: 'publicada', publishedAt: '2026-11-20T10:00:00.000Z' })] });
    const user = userEvent.setup();
    renderAt('/admin/notas');
    const draft = await screen.findByRole('article', { name: 'Nota 1' });
    expect(within(draft).getByText('Borrador')).toBeInTheDocument();
    await user.click(within(draft).getByRole('button', { name: 'Publicar: Nota 1' }));
    expect(await screen.findByText('Nota publicada.')).toBeInTheDocument();
    expect(state.actions).toEqual(['publish 1']);
    await user.click(screen.getByRole('radio', { name: 'Borradores' }));
    expect(screen.getByRole('radio', { name: 'Borradores' })).toBeChecked();
  });

  it('writes the pages and the count of a long list with a thousands dot', async () => {
    server.use(
      http.get('*/api/admin/notas', () =>
        HttpResponse.json({ source: 'local', items: [], page: 1, pageSize: 20, total: 1_234, totalPages: 62 }),
      ),
    );
    renderAt('/admin/notas');
    expect(await screen.findByText('Página 1 de 62 (1.234 notas)')).toBeInTheDocument();
  });

  it('says the notas are managed in WordPress and offers no editor', async () => {
    api({ source: 'wordpress' });
    renderAt('/admin/notas');
    expect(await screen.findByText(WORDPRESS)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Nueva nota' })).not.toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });
});
