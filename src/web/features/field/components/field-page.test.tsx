import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldOverview, FieldPace, FieldValidator, FieldView } from '#shared/features/field/field';
import type { Session } from '#shared/platform/session';
import { WAITING_STEPS } from '#web/platform/charts/tile-colours';
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

/** Ana voted twice this last hour; Beto has not voted for 40 minutes and his phone is stuck; Carla never voted. */
const PACE: FieldPace = {
  generatedAt: AT,
  idleAfterMinutes: 30,
  validators: [
    {
      email: 'beto@example.org',
      slug: 'lagunillas',
      title: 'Lagunillas',
      lastHour: 1,
      lastActivityAt: minutesAgo(40),
      idle: true,
      waiting: 1_234,
      stuck: true,
    },
    {
      email: 'carla@example.org',
      slug: 'cabimas',
      title: 'Cabimas',
      lastHour: 0,
      lastActivityAt: null,
      idle: true,
      waiting: 0,
      stuck: false,
    },
    {
      email: 'ana@example.org',
      slug: 'cabimas',
      title: 'Cabimas',
      lastHour: 2,
      lastActivityAt: minutesAgo(3),
      idle: false,
      waiting: 1,
      stuck: false,
    },
  ],
};

const allClear = (): FieldOverview =>
  overview({
    departments: overview().departments.map((d) => ({ ...d, withWaiting: 0, waiting: 0, stuck: 0 })),
    validators: [],
  });

/** A coordinator whose menu has no Resultados: Campo does not open the live stream for them. */
let session: Session = {
  user: { email: 'coordinadora@example.org', role: 'staff', mustChangePassword: false },
  menu: [{ title: 'Cabimas', path: '/validation/cabimas' }],
  home: '/validation/cabimas',
  logoutRoute: '/',
};

function api(answers: FieldView[], overviews: FieldOverview[] = [overview()]) {
  const asked: string[] = [];
  const cleared: { slug: string; body: unknown }[] = [];
  server.use(
    http.get('*/api/auth/session', () => HttpResponse.json(session)),
    http.get('*/api/field/pace', () => {
      asked.push('ritmo');
      return HttpResponse.json(PACE);
    }),
    http.get('*/api/field', () => {
      asked.push('todos');
      const n = asked.filter((a) => a === 'todos').length;
      return HttpResponse.json(overviews[Math.min(n - 1, overviews.length - 1)]);
    }),
    http.get('*/api/field/:slug', ({ params }) => {
      asked.push(String(params.slug));
      const n = asked.filter((a) => a !== 'todos' && a !== 'ritmo').length;
      return HttpResponse.json(answers[Math.min(n - 1, answers.length - 1)]);
    }),
    http.post('*/api/field/:slug/clear', async ({ params, request }) => {
      cleared.push({ slug: String(params.slug), body: await request.json() });
      return HttpResponse.json({ cleared: 2 });
    }),
  );
  return { asked, cleared, departments: () => asked.filter((a) => a !== 'todos' && a !== 'ritmo') };
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

  it('after a restore from a copy, says per validator what was sent again, what from before still waits, and who has not checked', async () => {
    const [beto, ana, carla] = view().validators as [FieldValidator, FieldValidator, FieldValidator];
    api([
      view({
        validators: [
          { ...beto, recovery: { resent: 2, fromBefore: 5, checked: true } },
          { ...ana, recovery: { resent: 3, fromBefore: 0, checked: true } },
          { ...carla, recovery: { resent: 0, fromBefore: 0, checked: false } },
        ],
      }),
    ]);
    renderAt('/campo/cabimas');
    const table = await screen.findByRole('table', { name: 'Validadores de Cabimas' });
    const waiting = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[1]?.textContent);
    expect(waiting).toEqual([
      '1.2345 de antes de la pérdida por reenviar2 reenviados tras la restauración',
      '13 reenviados tras la restauración',
      '0Su teléfono aún no revisó la restauración',
    ]);
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

describe('FieldPage: the night at a glance', () => {
  it('colours each department’s square by what waits on its phones, marks the stuck, and its table agrees', async () => {
    api([view()]);
    renderAt('/campo');
    const lagunillas = await screen.findByTestId('cuadro-lagunillas');
    expect(lagunillas).toHaveAccessibleName(
      'Lagunillas: 1.234 por enviar en 1 de 4 validadores; 1 validador atascado.',
    );
    expect(lagunillas.dataset.fill).toBe(WAITING_STEPS[4]?.fill);
    expect(screen.getByTestId('cuadro-cabimas').dataset.fill).toBe(WAITING_STEPS[1]?.fill);
    expect(screen.getByTestId('cuadro-baralt').dataset.fill).toBe(WAITING_STEPS[0]?.fill);
    await userEvent.click(screen.getByText('Tabla del mapa'));
    const line = screen.getByTestId('mapa-campo-tabla').querySelector('tr[data-slug="lagunillas"]') as HTMLElement;
    expect(
      within(line)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['4', '1', '1.234', '1', '200 o más por enviar']);
  });

  it('shows each validator’s pace, the idle and the stuck flagged in words', async () => {
    api([view()]);
    renderAt('/campo');
    const table = await screen.findByTestId('tabla-ritmo');
    const rowOf = (email: string) => within(table).getByRole('row', { name: new RegExp(`^${email}`) });
    expect(rowOf('beto@example.org')).toHaveTextContent('beto@example.orgLagunillas1hace 40 minAtascado1.234');
    expect(rowOf('carla@example.org')).toHaveTextContent('carla@example.orgCabimas0Sin votos hoyInactivo0');
    expect(rowOf('ana@example.org')).toHaveTextContent('ana@example.orgCabimas2hace 3 minActivo1');
    expect(screen.getByText('2 de 3 sin votar hace más de 30 min.')).toBeInTheDocument();
  });

  it('opens a department from its square', async () => {
    const { departments } = api([view()]);
    renderAt('/campo');
    await userEvent.click(await screen.findByTestId('cuadro-cabimas'));
    await waitFor(() => expect(departments()).toContain('cabimas'));
  });
});

describe('FieldPage: live', () => {
  class FakeEventSource {
    static instances: FakeEventSource[] = [];
    private listeners = new Map<string, () => void>();
    constructor(public url: string) {
      FakeEventSource.instances.push(this);
    }
    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, listener);
    }
    close() {}
    emit(type: string) {
      this.listeners.get(type)?.();
    }
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    FakeEventSource.instances = [];
  });

  it('asks for the field and the pace again on each change of the departments’ figures on the live stream (a vote, a photo), for someone who may open Resultados', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    session = {
      user: { email: 'jefa@example.org', role: 'admin', mustChangePassword: false },
      menu: [{ title: 'Resultados', path: '/resultados' }],
      home: '/resultados',
      logoutRoute: '/',
    };
    const { asked } = api([view()]);
    renderAt('/campo');
    await screen.findByTestId('tabla-ritmo');
    await waitFor(() => expect(FakeEventSource.instances.map((s) => s.url)).toEqual(['/api/results/stream']));
    const before = {
      todos: asked.filter((a) => a === 'todos').length,
      ritmo: asked.filter((a) => a === 'ritmo').length,
    };
    // The map's event: it comes with a vote and with a photo (the totals' event does not come with a photo).
    act(() => FakeEventSource.instances[0]?.emit('avance'));
    await waitFor(() => {
      expect(asked.filter((a) => a === 'todos').length).toBe(before.todos + 1);
      expect(asked.filter((a) => a === 'ritmo').length).toBeGreaterThan(before.ritmo);
    });
  });
});
