import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AgendaEvent } from '#shared/features/agenda/agenda';
import { addDays, dateInTimeZone } from '#shared/platform/format';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import AgendaAdminPage from './agenda-admin-page';

/** A small agenda API: the events live here and every request is remembered. */
function api(initial: (day: string) => Omit<AgendaEvent, 'id'>[]) {
  const state = {
    events: [] as AgendaEvent[],
    seeded: false,
    posts: [] as unknown[],
    puts: [] as { id: number; body: unknown }[],
    deletes: [] as number[],
    copies: [] as unknown[],
  };
  let next = 1;
  server.use(
    // The server's "today": here the same day as the browser's.
    http.get('*/api/agenda/today', () =>
      HttpResponse.json({ date: dateInTimeZone(new Date()), leaderName: 'Líder', events: [] }),
    ),
    http.get('*/api/admin/agenda', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const from = params.get('from') as string;
      const to = params.get('to') as string;
      if (!state.seeded) {
        state.seeded = true;
        state.events = initial(from).map((e) => ({ ...e, id: next++ }));
      }
      const events = state.events
        .filter((e) => e.fecha >= from && e.fecha <= to)
        .sort((a, b) => a.fecha.localeCompare(b.fecha) || (a.hora24h ?? '').localeCompare(b.hora24h ?? ''));
      return HttpResponse.json({ events });
    }),
    http.post('*/api/admin/agenda', async ({ request }) => {
      const body = (await request.json()) as Omit<AgendaEvent, 'id'>;
      state.posts.push(body);
      const event = { ...body, id: next++ };
      state.events.push(event);
      return HttpResponse.json({ message: 'Evento creado.', event }, { status: 201 });
    }),
    http.put('*/api/admin/agenda/:id', async ({ request, params }) => {
      const body = (await request.json()) as Omit<AgendaEvent, 'id'>;
      const id = Number(params.id);
      state.puts.push({ id, body });
      state.events = state.events.map((e) => (e.id === id ? { ...body, id } : e));
      return HttpResponse.json({ message: 'Evento actualizado.', event: { ...body, id } });
    }),
    http.delete('*/api/admin/agenda/:id', ({ params }) => {
      state.deletes.push(Number(params.id));
      state.events = state.events.filter((e) => e.id !== Number(params.id));
      return HttpResponse.json({ message: 'Evento eliminado.' });
    }),
    http.post('*/api/admin/agenda/copy', async ({ request }) => {
      const body = (await request.json()) as { from: string; to: string };
      state.copies.push(body);
      const copied = state.events
        .filter((e) => e.fecha === body.from)
        .map((e) => ({ ...e, id: next++, fecha: body.to }));
      state.events.push(...copied);
      return HttpResponse.json(
        { message: `Se copiaron ${copied.length} eventos.`, copied: copied.length, skipped: 0, events: copied },
        { status: 201 },
      );
    }),
  );
  return state;
}

const seeded = (day: string) => [
  { fecha: day, hora24h: '18:30', descripcion: 'Caravana de cierre', lugar: 'Av. 5 de Julio' },
  { fecha: day, hora24h: '07:05', descripcion: 'Desayuno con líderes', lugar: null },
  { fecha: addDays(day, 3), hora24h: '09:00', descripcion: 'Asamblea', lugar: 'Cabimas' },
];

const renderPage = () => renderWithProviders(<AgendaAdminPage />, { route: '/admin/agenda' });

describe('AgendaAdminPage', () => {
  it('shows the day’s events by time with both time formats, and the days ahead', async () => {
    api(seeded);
    renderPage();
    const list = await screen.findByRole('list', { name: /^Eventos del/ });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Desayuno con líderes', 'Caravana de cierre']);
    expect(within(cards[1] as HTMLElement).getByText('18:30')).toBeInTheDocument();
    expect(within(cards[1] as HTMLElement).getByText('6:30 PM')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('Sin lugar')).toBeInTheDocument();
    expect(screen.getByText('Hoy', { selector: 'span' })).toBeInTheDocument();
    const ahead = screen.getByRole('complementary', { name: 'Próximos días con eventos' });
    await userEvent.click(within(ahead).getByRole('button', { name: /1 evento/ }));
    expect(await screen.findByRole('article', { name: 'Asamblea' })).toBeInTheDocument();
  });

  it('checks the 24-hour time in the form before sending, then creates the event', async () => {
    const state = api(seeded);
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Caravana de cierre' });
    await user.click(screen.getByRole('button', { name: 'Nuevo evento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo evento' });
    await user.type(within(dialog).getByLabelText('Hora (24 horas)'), '7:75');
    await user.type(within(dialog).getByLabelText('Descripción'), 'Rueda de prensa');
    await user.click(within(dialog).getByRole('button', { name: 'Crear evento' }));
    expect(
      within(dialog).getByText('La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Hora (24 horas)')).toHaveAttribute('aria-invalid', 'true');
    expect(state.posts).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Hora (24 horas)'));
    await user.type(within(dialog).getByLabelText('Hora (24 horas)'), '9:15');
    await user.type(within(dialog).getByLabelText('Lugar'), 'Sede');
    await user.click(within(dialog).getByRole('button', { name: 'Crear evento' }));
    expect(await screen.findByText('Evento creado.')).toBeInTheDocument();
    expect(state.posts).toEqual([
      {
        fecha: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        hora24h: '09:15',
        descripcion: 'Rueda de prensa',
        lugar: 'Sede',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const list = screen.getByRole('list', { name: /^Eventos del/ });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('article')
          .map((c) => c.getAttribute('aria-label')),
      ).toEqual(['Desayuno con líderes', 'Rueda de prensa', 'Caravana de cierre']),
    );
  });

  it('edits an event, and deletes one only after confirming', async () => {
    const state = api(seeded);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Editar: Caravana de cierre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar evento' });
    expect(within(dialog).getByLabelText('Hora (24 horas)')).toHaveValue('18:30');
    await user.clear(within(dialog).getByLabelText('Descripción'));
    await user.type(within(dialog).getByLabelText('Descripción'), 'Gran caravana');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByRole('article', { name: 'Gran caravana' })).toBeInTheDocument();
    expect(state.puts[0]).toMatchObject({ body: { descripcion: 'Gran caravana', hora24h: '18:30' } });

    await user.click(screen.getByRole('button', { name: 'Eliminar: Desayuno con líderes' }));
    const confirm = await screen.findByRole('dialog', { name: 'Eliminar evento' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(state.deletes).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Eliminar: Desayuno con líderes' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Eliminar evento' })).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText('Evento eliminado.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Desayuno con líderes' })).not.toBeInTheDocument(),
    );
    expect(state.deletes).toHaveLength(1);
  });

  it('copies the day to another and then shows that day', async () => {
    const state = api(seeded);
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Caravana de cierre' });
    await user.click(screen.getByRole('button', { name: 'Copiar día' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copiar día' });
    expect(dialog).toHaveTextContent(/Copia los 2 eventos del /);
    const target = within(dialog).getByLabelText('Copiar al día') as HTMLInputElement;
    const tomorrow = target.value;
    await user.click(within(dialog).getByRole('button', { name: 'Copiar eventos' }));
    expect(await screen.findByText('Se copiaron 2 eventos.')).toBeInTheDocument();
    expect(state.copies).toEqual([{ from: addDays(tomorrow, -1), to: tomorrow }]);
    await waitFor(() => expect(screen.getByLabelText('Día')).toHaveValue(tomorrow));
    expect(await screen.findByRole('article', { name: 'Caravana de cierre' })).toBeInTheDocument();
  });

  it('closes the delete dialog with Escape while its request is held; the answer then comes as a toast, sent once', async () => {
    const state = api(seeded);
    const { gate, release } = createGate();
    let held = 0;
    server.use(
      http.delete('*/api/admin/agenda/:id', async ({ params }) => {
        held += 1;
        await gate;
        state.deletes.push(Number(params.id));
        state.events = state.events.filter((e) => e.id !== Number(params.id));
        return HttpResponse.json({ message: 'Evento eliminado.' });
      }),
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Eliminar: Desayuno con líderes' }));
    let confirm = await screen.findByRole('dialog', { name: 'Eliminar evento' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(held).toBe(1));
    expect(within(confirm).getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Opened again while the first request is still out: it can be closed, not sent a second time.
    await user.click(screen.getByRole('button', { name: 'Eliminar: Desayuno con líderes' }));
    confirm = await screen.findByRole('dialog', { name: 'Eliminar evento' });
    expect(within(confirm).getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    release();
    expect(await screen.findByText('Evento eliminado.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Desayuno con líderes' })).not.toBeInTheDocument(),
    );
    expect(held).toBe(1);
    expect(state.deletes).toHaveLength(1);
  });

  it('closes the event form with Cancelar while it saves; a refusal then comes as a toast', async () => {
    const state = api(seeded);
    const { gate, release } = createGate();
    server.use(
      http.post('*/api/admin/agenda', async ({ request }) => {
        state.posts.push(await request.json());
        await gate;
        return HttpResponse.json(
          { statusCode: 409, error: 'Conflict', message: 'Ya hay un evento a esa hora.' },
          { status: 409 },
        );
      }),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Caravana de cierre' });
    await user.click(screen.getByRole('button', { name: 'Nuevo evento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo evento' });
    await user.type(within(dialog).getByLabelText('Hora (24 horas)'), '09:15');
    await user.type(within(dialog).getByLabelText('Descripción'), 'Rueda de prensa');
    await user.click(within(dialog).getByRole('button', { name: 'Crear evento' }));
    expect(await within(dialog).findByRole('button', { name: 'Guardando…' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    release();
    expect(await screen.findByText('Ya hay un evento a esa hora.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(state.posts).toHaveLength(1);
  });
});
