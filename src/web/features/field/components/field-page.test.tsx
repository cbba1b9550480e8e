import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldView } from '#shared/features/field/field';
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

function api(answers: FieldView[]) {
  const asked: string[] = [];
  server.use(
    http.get('*/api/field', () =>
      HttpResponse.json({
        departments: [
          { slug: 'cabimas', title: 'Cabimas' },
          { slug: 'lagunillas', title: 'Lagunillas' },
        ],
      }),
    ),
    http.get('*/api/field/:slug', ({ params }) => {
      asked.push(String(params.slug));
      return HttpResponse.json(answers[Math.min(asked.length - 1, answers.length - 1)]);
    }),
  );
  return asked;
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

describe('FieldPage', () => {
  it('shows per validator the last report, what waits, the oldest and the last error; the stuck first and marked', async () => {
    api([view()]);
    renderAt('/campo');
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
    ).toEqual(['hace 1 min', '1.234', 'hace 25 min', 'No hay conexión con el servidor. hace 2 min']);
    expect(
      within(rows[2] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Nunca', '0', '—', '—']);
    expect(screen.getByText(/1 validador tiene envíos esperando hace más de 10 min\./)).toBeInTheDocument();
    // The time ends with its own period ('a. m.'): the sentence adds none.
    expect(screen.getByText(/^Actualizado a las/).textContent).toMatch(/^Actualizado a las 10:00:00\sa\.\sm\.$/);
    expect(screen.getByLabelText('Municipio o parroquia')).toHaveValue('cabimas');
  });

  it('asks again by itself, and the row clears when the items have arrived', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked = api([
      view(),
      view({
        validators: view().validators.map((v) => ({ ...v, waiting: 0, oldestWaitingAt: null, stuck: false })),
      }),
    ]);
    renderAt('/campo/cabimas');
    expect(await screen.findByText('Atascado')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(FIELD_REFRESH_MS);
    await waitFor(() => expect(screen.queryByText('Atascado')).not.toBeInTheDocument());
    expect(asked).toEqual(['cabimas', 'cabimas']);
    expect(screen.getByText(/Nadie tiene envíos atascados\./)).toBeInTheDocument();
  });

  it('changes department from the list', async () => {
    const asked = api([view(), view({ slug: 'lagunillas', title: 'Lagunillas', validators: [] })]);
    renderAt('/campo/cabimas');
    await screen.findByRole('table', { name: 'Validadores de Cabimas' });
    await userEvent.selectOptions(screen.getByLabelText('Municipio o parroquia'), 'lagunillas');
    expect(await screen.findByText('Nadie está en la lista de este municipio.')).toBeInTheDocument();
    expect(asked).toEqual(['cabimas', 'lagunillas']);
  });
});
