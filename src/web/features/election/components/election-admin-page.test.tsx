import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ElectionAdmin, Outstanding } from '#shared/features/election/election';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { DrillBand } from './drill-band';
import ElectionAdminPage from './election-admin-page';

const DAY: ElectionAdmin = {
  phase: 'en_curso',
  closesAt: null,
  closedAt: null,
  lateArrivals: 0,
  graceHours: 12,
  closeStamp: null,
  changedAt: '2026-11-28T11:00:00.000Z',
  changedBy: 'jefa@example.org',
  reason: 'Abren los centros',
  drill: null,
  received: { votes: 1234, photos: 2345 },
  now: '2026-11-28T21:35:00.000Z',
  epoch: { number: 1, startedAt: '2026-11-20T10:00:00.000Z', restoredUntil: null },
  late: [],
};

const NOTHING_OUTSTANDING: Outstanding = {
  closedAt: null,
  graceEndsAt: null,
  generatedAt: '2026-11-28T23:30:00.000Z',
  total: 0,
  departments: [],
};

function api(day: ElectionAdmin, outstanding: Outstanding = NOTHING_OUTSTANDING) {
  const sent: { url: string; body: unknown }[] = [];
  const status = { phase: day.phase, closesAt: day.closesAt, closedAt: day.closedAt, lateArrivals: day.lateArrivals };
  server.use(
    http.get('*/api/admin/election', () => HttpResponse.json(day)),
    http.get('*/api/election', () => HttpResponse.json({ ...status, now: day.now })),
    http.get('*/api/election/outstanding', () => HttpResponse.json(outstanding)),
    http.get('*/api/auth/session', () => HttpResponse.json({ user: null, menu: [], home: null, logoutRoute: '/' })),
    http.get('*/api/admin/election/copy', () =>
      HttpResponse.json({ kind: 'litestream', lagSeconds: 1, answering: true, checkedAt: day.now }),
    ),
    http.put('*/api/admin/election/phase', async ({ request }) => {
      const body = (await request.json()) as { phase: ElectionAdmin['phase'] };
      sent.push({ url: 'phase', body });
      return HttpResponse.json({ ...status, phase: body.phase });
    }),
    http.post('*/api/admin/election/drill/end', async ({ request }) => {
      const body = await request.json();
      sent.push({ url: 'drill/end', body });
      return HttpResponse.json({
        message: 'Simulacro terminado y borrado: 50 votos y 20 fotos. La jornada está en Preparación.',
        votes: 50,
        photos: 20,
        filesDeleted: 60,
      });
    }),
  );
  return sent;
}

describe('Jornada', () => {
  it('shows the phase and its last change, and changes it with a reason', async () => {
    const sent = api({ ...DAY, phase: 'preparacion' });
    renderWithProviders(<ElectionAdminPage />);
    expect(await screen.findByText('Preparación')).toBeVisible();
    expect(screen.getByText(/Abren los centros/)).toBeVisible();
    const form = screen.getByRole('form', { name: 'Cambiar de fase' });
    await userEvent.selectOptions(within(form).getByLabelText('Nueva fase'), 'en_curso');
    await userEvent.click(within(form).getByRole('button', { name: 'Cambiar fase' }));
    // No reason: nothing sent, the field says why.
    expect(await within(form).findByText('Indica el motivo del cambio.')).toBeVisible();
    expect(sent).toEqual([]);
    await userEvent.type(within(form).getByLabelText('Motivo'), 'Abren los centros');
    await userEvent.click(within(form).getByRole('button', { name: 'Cambiar fase' }));
    await waitFor(() =>
      expect(sent).toEqual([{ url: 'phase', body: { phase: 'en_curso', reason: 'Abren los centros' } }]),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('chooses no phase for the admin: the close is never one click away', async () => {
    const sent = api(DAY);
    renderWithProviders(<ElectionAdminPage />);
    const form = await screen.findByRole('form', { name: 'Cambiar de fase' });
    expect(within(form).getByLabelText('Nueva fase')).toHaveValue('');
    await userEvent.type(within(form).getByLabelText('Motivo'), 'Cierre de mesas');
    await userEvent.click(within(form).getByRole('button', { name: 'Cambiar fase' }));
    expect(await within(form).findByText('Elige la nueva fase.')).toBeVisible();
    expect(sent).toEqual([]);
  });

  it('asks twice, with the ballots and photos received, before closing the day by hand', async () => {
    const sent = api(DAY);
    renderWithProviders(<ElectionAdminPage />);
    const form = await screen.findByRole('form', { name: 'Cambiar de fase' });
    await userEvent.selectOptions(within(form).getByLabelText('Nueva fase'), 'cerrada');
    await userEvent.type(within(form).getByLabelText('Motivo'), 'Cierre de mesas');
    await userEvent.click(within(form).getByRole('button', { name: 'Cambiar fase' }));
    const first = await screen.findByRole('dialog', { name: 'Cerrar la jornada' });
    expect(first).toHaveTextContent('Hasta ahora se recibieron 1.234 votos y 2.345 fotos.');
    expect(first).toHaveTextContent('durante 12 horas de gracia');
    await userEvent.click(within(first).getByRole('button', { name: 'Continuar' }));
    const second = await screen.findByRole('dialog', { name: '¿Cerrar la jornada ahora?' });
    expect(second).toHaveTextContent('la jornada cierra ahora con 1.234 votos y 2.345 fotos');
    expect(sent).toEqual([]);
    // Cancelling the second question sends nothing either.
    await userEvent.click(within(second).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([]);

    await userEvent.click(within(form).getByRole('button', { name: 'Cambiar fase' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Cerrar la jornada' })).getByRole('button', {
        name: 'Continuar',
      }),
    );
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '¿Cerrar la jornada ahora?' })).getByRole('button', {
        name: 'Cerrar con 1.234 votos y 2.345 fotos',
      }),
    );
    await waitFor(() =>
      expect(sent).toEqual([{ url: 'phase', body: { phase: 'cerrada', reason: 'Cierre de mesas' } }]),
    );
  });

  it('offers to reopen a closed day, and lists what arrived after the close as late', async () => {
    api({
      ...DAY,
      phase: 'cerrada',
      closedAt: '2026-11-28T22:00:00.000Z',
      lateArrivals: 1,
      late: [
        {
          kind: 'vote',
          slug: 'cabimas',
          title: 'Cabimas',
          recordId: 12,
          record: 'Ana Pérez',
          by: 'ana@example.org',
          at: '2026-11-28T23:10:00.000Z',
        },
      ],
    });
    renderWithProviders(<ElectionAdminPage />);
    expect(await screen.findByText('La jornada cerró a las 6:00 p. m.')).toBeVisible();
    await userEvent.selectOptions(screen.getByLabelText('Nueva fase'), 'en_curso');
    expect(screen.getByRole('button', { name: 'Reabrir la jornada' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Llegaron después del cierre de las 6:00 p. m.: 1' })).toBeVisible();
    // Named by its record and its person, not by an id.
    expect(screen.getByTestId('llegada-tardia')).toHaveTextContent(
      'Voto de Ana Pérez (trámite 12) · Cabimas · enviado por ana@example.org · 28 nov 2026, 7:10 p. m. — llegó después del cierre',
    );
  });

  it("lists 'Por llegar' after the close, by municipality and validator, with the grace's end", async () => {
    api(
      { ...DAY, phase: 'cerrada', closedAt: '2026-11-28T22:00:00.000Z' },
      {
        closedAt: '2026-11-28T22:00:00.000Z',
        graceEndsAt: '2026-11-29T10:00:00.000Z',
        generatedAt: '2026-11-28T23:30:00.000Z',
        total: 2,
        departments: [
          {
            slug: 'cabimas',
            title: 'Cabimas',
            validators: [
              {
                email: 'ana@example.org',
                items: [
                  { kind: 'vote', recordId: 7, record: 'Bruno Díaz', heardAt: '2026-11-28T21:50:00.000Z' },
                  { kind: 'an', recordId: 7, record: 'Bruno Díaz', heardAt: '2026-11-28T21:51:00.000Z' },
                ],
              },
            ],
          },
        ],
      },
    );
    renderWithProviders(<ElectionAdminPage />);
    const section = await screen.findByRole('region', { name: 'Por llegar' });
    expect(await within(section).findByText('Se aceptan hasta las 6:00 a. m.')).toBeVisible();
    expect(within(section).getByText('2 envíos avisados antes del cierre aún no han llegado.')).toBeVisible();
    expect(within(section).getByRole('heading', { name: 'Cabimas' })).toBeVisible();
    expect(
      within(within(section).getByRole('list', { name: 'Por llegar de ana@example.org en Cabimas' }))
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual([
      'Voto de Bruno Díaz (trámite 7) · avisado el 28 nov 2026, 5:50 p. m.',
      'Foto AN de Bruno Díaz (trámite 7) · avisado el 28 nov 2026, 5:51 p. m.',
    ]);
  });

  it("says when the grace is over, and 'Por llegar' is not shown before the close", async () => {
    api(
      { ...DAY, phase: 'cerrada', closedAt: '2026-11-28T22:00:00.000Z' },
      {
        closedAt: '2026-11-28T22:00:00.000Z',
        graceEndsAt: '2026-11-29T10:00:00.000Z',
        generatedAt: '2026-11-29T10:00:00.000Z',
        total: 0,
        departments: [],
      },
    );
    const closed = renderWithProviders(<ElectionAdminPage />);
    expect(
      await screen.findByText(
        'El plazo de gracia terminó a las 6:00 a. m. Ya no se acepta nada de lo que quedó en los teléfonos.',
      ),
    ).toBeVisible();
    closed.unmount();

    api(DAY);
    renderWithProviders(<ElectionAdminPage />);
    expect(await screen.findByRole('heading', { name: 'Jornada' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Por llegar' })).toBeNull();
  });

  it('says whether the chain at the close was stamped by the time-stamp authority, or will be asked again', async () => {
    api({
      ...DAY,
      phase: 'cerrada',
      closedAt: '2026-11-28T22:00:00.000Z',
      closeStamp: { stampedAt: '2026-11-28T22:00:01.000Z', triedAt: null, error: null },
    });
    const stamped = renderWithProviders(<ElectionAdminPage />);
    expect(
      await screen.findByText('Cadena sellada por la autoridad de sellado de tiempo a las 6:00 p. m.'),
    ).toBeVisible();
    stamped.unmount();

    api({
      ...DAY,
      phase: 'cerrada',
      closedAt: '2026-11-28T22:00:00.000Z',
      closeStamp: {
        stampedAt: null,
        triedAt: '2026-11-28T22:00:00.000Z',
        error: 'time-stamp unavailable: fetch failed',
      },
    });
    renderWithProviders(<ElectionAdminPage />);
    expect(
      await screen.findByText('Cierre sin sello de tiempo: la autoridad de sellado no respondió; se pedirá otra vez.'),
    ).toBeVisible();
  });

  it('asks twice, with the counts, before ending the drill, and sends the counts it showed', async () => {
    const sent = api({ ...DAY, phase: 'simulacro', drill: { votes: 50, photos: 20 } });
    renderWithProviders(<ElectionAdminPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Terminar simulacro' }));
    const first = await screen.findByRole('dialog', { name: 'Terminar simulacro' });
    expect(first).toHaveTextContent('Se borrarán 50 votos y 20 fotos del simulacro.');
    await userEvent.type(within(first).getByLabelText('Motivo'), 'Termina la práctica');
    await userEvent.click(within(first).getByRole('button', { name: 'Continuar' }));
    const second = await screen.findByRole('dialog', { name: '¿Borrar el simulacro?' });
    expect(sent).toEqual([]);
    await userEvent.click(within(second).getByRole('button', { name: 'Borrar 50 votos y 20 fotos' }));
    await waitFor(() =>
      expect(sent).toEqual([{ url: 'drill/end', body: { votes: 50, photos: 20, reason: 'Termina la práctica' } }]),
    );
  });
});

describe('the off-machine copy on Jornada', () => {
  it('says the copy is up to date, and in red once it is more than a minute behind or missing', async () => {
    api(DAY);
    renderWithProviders(<ElectionAdminPage />);
    const fresh = await screen.findByText(
      'La copia fuera de la máquina (Litestream) está al día: le faltan como mucho 1 s de cambios.',
    );
    expect(fresh.closest('[role="status"]')).toHaveClass('text-green-900');
    cleanup();

    server.use(
      http.get('*/api/admin/election/copy', () =>
        HttpResponse.json({ kind: 'standby', lagSeconds: 185, answering: false, checkedAt: DAY.now }),
      ),
    );
    renderWithProviders(<ElectionAdminPage />);
    const behind = await screen.findByText(
      'El servidor PostgreSQL en espera va 3 min por detrás: lo recibido desde entonces solo está en este servidor. No responde.',
    );
    expect(behind.closest('[role="status"]')).toHaveClass('text-red-900');
    cleanup();

    server.use(
      http.get('*/api/admin/election/copy', () =>
        HttpResponse.json({ kind: 'none', lagSeconds: null, answering: false, checkedAt: DAY.now }),
      ),
    );
    renderWithProviders(<ElectionAdminPage />);
    const none = await screen.findByText(/^Sin copia fuera de esta máquina/);
    expect(none.closest('[role="status"]')).toHaveClass('text-red-900');
  });
});

describe('the SIMULACRO band', () => {
  it('shows only during the drill', async () => {
    server.use(
      http.get('*/api/election', () =>
        HttpResponse.json({ phase: 'simulacro', closesAt: null, closedAt: null, lateArrivals: 0 }),
      ),
    );
    renderWithProviders(<DrillBand />);
    expect(await screen.findByRole('status')).toHaveTextContent('SIMULACRO');
  });

  it('on the projector says in words that the figures are practice, under SIMULACRO in large type', async () => {
    server.use(
      http.get('*/api/election', () =>
        HttpResponse.json({ phase: 'simulacro', closesAt: null, closedAt: null, lateArrivals: 0 }),
      ),
    );
    renderWithProviders(<DrillBand large />);
    const band = await screen.findByRole('status');
    expect(within(band).getByText('SIMULACRO')).toHaveClass('font-black');
    expect(band).toHaveTextContent('Estas cifras son de práctica: se borran al terminar el simulacro.');
  });

  it('shows nothing while the day is under way', async () => {
    let asked = false;
    server.use(
      http.get('*/api/election', () => {
        asked = true;
        return HttpResponse.json({ phase: 'en_curso', closesAt: null, closedAt: null, lateArrivals: 0 });
      }),
    );
    renderWithProviders(<DrillBand />);
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByText('SIMULACRO')).toBeNull();
  });
});
