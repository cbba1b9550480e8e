import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldOverview, FieldValidator, FieldView } from '#shared/features/field/field';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { FIELD_REFRESH_MS } from '../api/get-field';
import { FieldPage } from './field-page';

const AT = '2026-12-06T14:00:00.000Z';
const minutesAgo = (n: number) => new Date(new Date(AT).getTime() - n * 60_000).toISOString();

function view(overrides: Partial<FieldView> = {}): FieldView {
  return {
    slug: 'cabimas',
    title: 'Cabimas',
    generatedAt: AT,
    stuckAfterMinutes: 10,
    validators: [
      {
        email: 'beto@example.org',
        lastSeenAt: minutesAgo(1),
        // A day without signal in a large municipality: the count is written as every count is.
        waiting: 1_234,
        oldestWaitingAt: minutesAgo(25),
        lastSuccessAt: minutesAgo(40),
        lastError: { message: 'No hay conexión con el servidor.', at: minutesAgo(2) },
        stuck: true,
        devices: 1,
      },
      {
        email: 'ana@example.org',
        lastSeenAt: minutesAgo(0),
        waiting: 1,
        oldestWaitingAt: minutesAgo(3),
        lastSuccessAt: minutesAgo(0),
        lastError: null,
        stuck: false,
        devices: 1,
      },
      {
        email: 'carla@example.org',
        lastSeenAt: null,
        waiting: 0,
        oldestWaitingAt: null,
        lastSuccessAt: null,
        lastError: null,
        stuck: false,
        devices: 0,
      },
    ],
    ...overrides,
  };
}

function overview(overrides: Partial<FieldOverview> = {}): FieldOverview {
  const [beto, ana] = view().validators as [FieldValidator, FieldValidator];
  return {
    generatedAt: AT,
    stuckAfterMinutes: 10,
    // As the server sorts them: those with someone stuck first.
    departments: [
      { slug: 'lagunillas', title: 'Lagunillas', validators: 4, withWaiting: 1, waiting: 1_234, stuck: 1 },
      { slug: 'cabimas', title: 'Cabimas', validators: 3, withWaiting: 1, waiting: 1, stuck: 0 },
      { slug: 'baralt', title: 'Baralt', validators: 2, withWaiting: 0, waiting: 0, stuck: 0 },
    ],
    validators: [
      { ...beto, slug: 'lagunillas', title: 'Lagunillas' },
      { ...ana, slug: 'cabimas', title: 'Cabimas' },
    ],
    ...overrides,
  };
}

const allClear = (): FieldOverview =>
  overview({
    departments: overview().departments.map((d) => ({ ...d, withWaiting: 0, waiting: 0, stuck: 0 })),
    validators: [],
  });

function api(answers: FieldView[], overviews: FieldOverview[] = [overview()]) {
  const asked: string[] = [];
  const cleared: { slug: string; body: unknown }[] = [];
  server.use(
    http.get('*/api/field', () => {
      asked.push('todos');
      const n = asked.filter((a) => a === 'todos').length;
      return HttpResponse.json(overviews[Math.min(n - 1, overviews.length - 1)]);
    }),
    http.get('*/api/field/:slug', ({ params }) => {
      asked.push(String(params.slug));
      const n = asked.filter((a) => a !== 'todos').length;
      return HttpResponse.json(answers[Math.min(n - 1, answers.length - 1)]);
    }),
    http.post('*/api/field/:slug/clear', async ({ params, request }) => {
      cleared.push({ slug: String(params.slug), body: await request.json() });
      return HttpResponse.json({ cleared: 2 });
    }),
  );
  return { asked, cleared, departments: () => asked.filter((a) => a !== 'todos') };
}

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/campo" element={<FieldPage slug={undefined} />} />
      <Route path="/campo/:slug" element={<RoutedFieldPage />} />
    </Routes>,
    { route },
  );

function RoutedFieldPage() {
  const { slug } = useParams();
  return <FieldPage slug={slug} />;
}

afterEach(() => vi.useRealTimers());

describe('FieldPage, every department', () => {
  it('opens on every department: the stuck validators first, wherever they are, and no all-clear while anyone is stuck', async () => {
    api([view()]);
    renderAt('/campo');
    const table = await screen.findByRole('table', {
      name: 'Validadores con envíos por enviar, de todos los municipios y parroquias',
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'beto@example.orgAtascado',
      'ana@example.org',
    ]);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'Lagunillas' })).toHaveAttribute(
      'href',
      '/campo/lagunillas',
    );
    expect(
      screen.getByText(/1 validador tiene envíos esperando hace más de 10 min en 1 municipio o parroquia\./),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Nadie tiene envíos atascados/)).not.toBeInTheDocument();

    const departments = screen.getByRole('table', { name: 'Municipios y parroquias' });
    expect(
      within(departments)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [
          within(r).getByRole('rowheader').textContent,
          ...within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ]),
    ).toEqual([
      ['Lagunillas', '4', '1.234', '1'],
      ['Cabimas', '3', '1', '0'],
      ['Baralt', '2', '0', '0'],
    ]);
    expect(screen.getByLabelText('Municipio o parroquia')).toHaveValue('');
  });

  it('says all is clear only when it is in every department', async () => {
    api([view()], [allClear()]);
    renderAt('/campo');
    expect(await screen.findByText(/Nadie tiene envíos atascados\./)).toBeInTheDocument();
    expect(screen.getByText('Ningún teléfono tiene envíos por enviar.')).toBeInTheDocument();
  });

  it('goes to one department from the list and back to all of them', async () => {
    const calls = api([view()]);
    renderAt('/campo');
    await screen.findByRole('table', { name: 'Municipios y parroquias' });
    await userEvent.selectOptions(screen.getByLabelText('Municipio o parroquia'), 'cabimas');
    expect(await screen.findByRole('table', { name: 'Validadores de Cabimas' })).toBeInTheDocument();
    expect(calls.departments()).toEqual(['cabimas']);
    await userEvent.selectOptions(screen.getByLabelText('Municipio o parroquia'), 'Todos');
    expect(await screen.findByRole('table', { name: 'Municipios y parroquias' })).toBeInTheDocument();
  });

  it('clears a phone that went quiet after asking, and says so', async () => {
    const calls = api([view()], [overview(), allClear()]);
    renderAt('/campo');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Quitar aviso de beto@example.org en Lagunillas' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Quitar aviso' });
    expect(dialog).toHaveTextContent(
      '¿Quitar los 1.234 envíos que el teléfono de beto@example.org dijo tener por enviar en Lagunillas?',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Quitar aviso' }));
    expect(await screen.findByText('Aviso de beto@example.org quitado.')).toBeInTheDocument();
    expect(calls.cleared).toEqual([{ slug: 'lagunillas', body: { email: 'beto@example.org' } }]);
    // Asked again at once: the all-clear is now true.
    expect(await screen.findByText(/Nadie tiene envíos atascados\./)).toBeInTheDocument();
  });
});

describe('FieldPage, one department', () => {
  it('shows per validator the last report, what waits, the oldest and the last error; the stuck first and marked', async () => {
    api([view()]);
    renderAt('/campo/cabimas');
    const table = await screen.findByRole('table', { name: 'Validadores de Cabimas' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'beto@example.orgAtascado',
      'ana@example.org',
      'carla@example.org',
    ]);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['hace 1 min', '1.234', 'hace 25 min', 'No hay conexión con el servidor. hace 2 min', 'Quitar aviso']);
    expect(
      within(rows[2] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Nunca', '0', '—', '—', '']);
    expect(screen.getByText(/1 validador tiene envíos esperando hace más de 10 min\./)).toBeInTheDocument();
    // The time ends with its own period ('a. m.'): the sentence adds none.
    expect(screen.getByText(/^Actualizado a las/).textContent).toMatch(/^Actualizado a las 10:00:00\sa\.\sm\.$/);
    expect(screen.getByLabelText('Municipio o parroquia')).toHaveValue('cabimas');
  });

  it('asks again by itself, and the row clears when the items have arrived', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = api([
      view(),
      view({
        validators: view().validators.map((v) => ({ ...v, waiting: 0, oldestWaitingAt: null, stuck: false })),
      }),
    ]);
    renderAt('/campo/cabimas');
    expect(await screen.findByText('Atascado')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(FIELD_REFRESH_MS);
    await waitFor(() => expect(screen.queryByText('Atascado')).not.toBeInTheDocument());
    expect(calls.departments()).toEqual(['cabimas', 'cabimas']);
    expect(screen.getByText(/Nadie tiene envíos atascados\./)).toBeInTheDocument();
  });

  it('changes department from the list', async () => {
    const calls = api([view(), view({ slug: 'lagunillas', title: 'Lagunillas', validators: [] })]);
    renderAt('/campo/cabimas');
    await screen.findByRole('table', { name: 'Validadores de Cabimas' });
    await userEvent.selectOptions(screen.getByLabelText('Municipio o parroquia'), 'lagunillas');
    expect(await screen.findByText('Nadie está en la lista de este municipio.')).toBeInTheDocument();
    expect(calls.departments()).toEqual(['cabimas', 'lagunillas']);
  });
});
