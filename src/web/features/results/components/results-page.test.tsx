import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Breakdown, Results, Timeline } from '#shared/features/results/results';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { ResultsPage } from './results-page';

const CANDIDATES = [
  { code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8', photoUrl: '/candidatos/fa.svg' },
  { code: 'LC', name: 'Luisa Contreras', colour: '#B45309', photoUrl: '/candidatos/lc.svg' },
  { code: 'NR', name: 'Nelson Rincón', colour: '#047857', photoUrl: '/candidatos/nr.svg' },
];

function results(votes: [number, number, number], denominator = 5373): Results {
  return {
    candidates: CANDIDATES.map((c, i) => ({ ...c, votes: votes[i]!, percent: (votes[i]! / denominator) * 100 })),
    denominator,
    ballots: 3456,
    computedAt: '2026-11-23T03:30:00.000Z',
  };
}

const BREAKDOWN: Breakdown = {
  candidates: CANDIDATES.map(({ code, name, colour }) => ({ code, name, colour })),
  rows: [
    {
      slug: 'bolivar',
      title: 'Bolívar',
      total: 100,
      voted: 50,
      validated: 25,
      percentComplete: 25,
      reviewed: 0,
      votes: { FA: 30, LC: 10, NR: 5 },
      photos: 80,
    },
    {
      slug: 'cabimas',
      title: 'Cabimas',
      total: 2000,
      voted: 1500,
      validated: 1200,
      percentComplete: 60,
      reviewed: 0,
      votes: { FA: 700, LC: 900, NR: 40 },
      photos: 4100,
    },
    {
      slug: 'sucre',
      title: 'Sucre',
      total: 0,
      voted: 0,
      validated: 0,
      percentComplete: 0,
      reviewed: 0,
      votes: { FA: 0, LC: 0, NR: 0 },
      photos: 0,
    },
  ],
  computedAt: '2026-11-23T03:30:00.000Z',
};

/** Stands in for the browser's EventSource (jsdom has none): the test pushes events and failures. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  constructor(public url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown) {
    this.readyState = 1;
    for (const l of this.listeners.get(type) ?? []) l(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  fail({ closed }: { closed: boolean }) {
    this.readyState = closed ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
  static get last(): FakeEventSource {
    return FakeEventSource.instances.at(-1)!;
  }
}

/** A day without votes yet: the timeline says so (no chart to draw in jsdom). */
const TIMELINE: Timeline = {
  candidates: BREAKDOWN.candidates,
  denominator: 5373,
  day: '2026-11-22',
  dayStartsAt: '2026-11-22T04:00:00.000Z',
  before: { FA: 0, LC: 0, NR: 0 },
  buckets: [],
  closedAt: null,
  computedAt: '2026-11-23T03:30:00.000Z',
};

function serve(current: () => Results) {
  const calls = { results: 0, timeline: 0 };
  server.use(
    http.get('*/api/results', () => {
      calls.results += 1;
      return HttpResponse.json(current());
    }),
    http.get('*/api/results/breakdown', () => HttpResponse.json(BREAKDOWN)),
    http.get('*/api/results/timeline', () => {
      calls.timeline += 1;
      return HttpResponse.json(TIMELINE);
    }),
  );
  return calls;
}

function ShowLocation() {
  const location = useLocation();
  return <output data-testid="ubicacion">{`${location.pathname}${location.search}`}</output>;
}

const card = (code: string) => screen.getByTestId(`candidato-${code}`);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  FakeEventSource.instances = [];
});

describe('ResultsPage', () => {
  it('says one vote and one record in the singular', async () => {
    serve(() => ({ ...results([1, 0, 2]), ballots: 1 }));
    renderWithProviders(<ResultsPage />);
    await screen.findByTestId('candidato-FA');
    expect(within(card('FA')).getByTestId('votos')).toHaveTextContent(/^1 voto$/);
    expect(within(card('LC')).getByTestId('votos')).toHaveTextContent(/^0 votos$/);
    expect(within(card('NR')).getByTestId('votos')).toHaveTextContent(/^2 votos$/);
    expect(screen.getByText(/1 trámite votado/)).toBeInTheDocument();
  });

  it('shows each candidate’s photo, percentage with two decimals, count in da-DK and a bar, and the denominator', async () => {
    serve(() => results([1234, 2345, 345]));
    renderWithProviders(<ResultsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'RESULTADOS POSTULACIONES' })).toBeInTheDocument();
    await screen.findByTestId('candidato-FA');

    expect(within(card('FA')).getByRole('img', { name: 'Foto de Fernando Álvarez' })).toHaveAttribute(
      'src',
      '/candidatos/fa.svg',
    );
    expect(within(card('FA')).getByTestId('porcentaje')).toHaveTextContent('22,97 %');
    expect(within(card('FA')).getByTestId('votos')).toHaveTextContent('1.234 votos');
    expect(within(card('LC')).getByTestId('porcentaje')).toHaveTextContent('43,64 %');
    expect(within(card('LC')).getByTestId('votos')).toHaveTextContent('2.345 votos');
    expect(within(card('NR')).getByTestId('porcentaje')).toHaveTextContent('6,42 %');
    const bar = within(card('LC')).getByRole('progressbar', { name: 'Porcentaje de Luisa Contreras' });
    expect(bar).toHaveAttribute('aria-valuenow', '43.64');
    expect(bar.firstElementChild).toHaveStyle({ backgroundColor: '#B45309' });
    expect(screen.getByText(/Porcentajes sobre 5\.373 electores/)).toBeInTheDocument();
    expect(screen.getByText(/3\.456 trámites votados/)).toBeInTheDocument();
    // No EventSource in this browser: the page says it polls, and when it last updated.
    expect(screen.getByTestId('estado-en-vivo')).toHaveTextContent('se actualiza cada 5 segundos');
    expect(screen.getByTestId('actualizado')).toHaveTextContent(/^Actualizado a las? /);
  });

  it('caps the bar at 100% when the votes pass the denominator', async () => {
    serve(() => results([6000, 0, 0]));
    renderWithProviders(<ResultsPage />);
    await screen.findByTestId('candidato-FA');
    expect(within(card('FA')).getByTestId('porcentaje')).toHaveTextContent('111,67 %');
    expect(within(card('FA')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows totals pushed by the live stream at once, and says it is live', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const calls = serve(() => results([1234, 2345, 345]));
    renderWithProviders(<ResultsPage pollMs={50} />);
    expect(screen.getByTestId('estado-en-vivo')).toHaveTextContent('Conectando…');
    await screen.findByTestId('candidato-FA');
    expect(FakeEventSource.last.url).toBe('/api/results/stream');

    act(() => FakeEventSource.last.emit('resultados', results([1300, 2345, 345])));
    expect(within(card('FA')).getByTestId('porcentaje')).toHaveTextContent('24,20 %');
    expect(within(card('FA')).getByTestId('votos')).toHaveTextContent('1.300 votos');
    expect(screen.getByTestId('estado-en-vivo')).toHaveTextContent('En vivo');
    // Live: no polling.
    const before = calls.results;
    await new Promise((r) => setTimeout(r, 200));
    expect(calls.results).toBe(before);
  });

  it('follows the map’s figures and the timeline on the live stream itself: no request for them on a vote', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const asked = { breakdown: 0 };
    const calls = serve(() => results([1234, 2345, 345]));
    server.use(
      http.get('*/api/results/breakdown', () => {
        asked.breakdown += 1;
        return HttpResponse.json(BREAKDOWN);
      }),
    );
    renderWithProviders(<ResultsPage />);
    expect(await screen.findByTestId('cuadro-sucre')).toHaveAccessibleName('Sucre: sin registros.');
    const before = { breakdown: asked.breakdown, timeline: calls.timeline };
    // The stream opens with everything whole.
    act(() => {
      FakeEventSource.last.emit('resultados', results([1234, 2345, 345]));
      FakeEventSource.last.emit('avance', { ...BREAKDOWN, whole: true });
      FakeEventSource.last.emit('linea', { ...TIMELINE, whole: true });
    });
    expect(await screen.findByText('Todavía no hay votos hoy.')).toBeInTheDocument();

    // Sucre's first records, all validated: the change carries its row alone, and recolours its square.
    act(() => {
      FakeEventSource.last.emit('resultados', results([1235, 2345, 345]));
      FakeEventSource.last.emit('avance', {
        ...BREAKDOWN,
        rows: [{ ...BREAKDOWN.rows[2]!, total: 4, voted: 4, validated: 4, photos: 12 }],
        whole: false,
      });
    });
    await waitFor(() =>
      expect(screen.getByTestId('cuadro-sucre')).toHaveAccessibleName(
        'Sucre: 100,00\u00a0% validado, 4 de 4 trámites; 4 votados.',
      ),
    );
    // The other squares kept their figures.
    expect(screen.getByTestId('cuadro-cabimas')).toHaveAccessibleName(/^Cabimas: 60,00/);
    expect({ breakdown: asked.breakdown, timeline: calls.timeline }).toEqual(before);
  });

  it('updates the per-municipality table from the stream’s change of its row, as the cards', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let asked = 0;
    serve(() => results([1234, 2345, 345]));
    server.use(
      http.get('*/api/results/breakdown', () => {
        asked += 1;
        return HttpResponse.json(BREAKDOWN);
      }),
    );
    renderWithProviders(<ResultsPage />);
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('row', { name: /^Cabimas/ })).toHaveTextContent('Cabimas2.0001.5001.200');
    act(() => {
      FakeEventSource.last.emit('resultados', results([1234, 2345, 345]));
      FakeEventSource.last.emit('avance', { ...BREAKDOWN, whole: true });
    });
    const askedBefore = asked;

    // A vote in Cabimas: one event brings the cards and the table together.
    const cabimas = BREAKDOWN.rows[1]!;
    act(() => {
      FakeEventSource.last.emit('resultados', results([1235, 2345, 345]));
      FakeEventSource.last.emit('avance', {
        ...BREAKDOWN,
        rows: [{ ...cabimas, voted: 1501, votes: { ...cabimas.votes, FA: 701 } }],
        whole: false,
      });
    });
    expect(within(card('FA')).getByTestId('votos')).toHaveTextContent('1.235 votos');
    expect(within(table).getByRole('row', { name: /^Cabimas/ })).toHaveTextContent('Cabimas2.0001.5011.200');
    expect(within(table).getByRole('row', { name: /^Bolívar/ })).toHaveTextContent('Bolívar10050');
    expect(asked).toBe(askedBefore);
  });

  it('polls when the stream fails and opens a new stream by itself', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    let votes: [number, number, number] = [10, 20, 30];
    const calls = serve(() => results(votes));
    renderWithProviders(<ResultsPage pollMs={50} stream={{ reconnectMs: 30 }} />);
    await screen.findByTestId('candidato-FA');
    act(() => FakeEventSource.last.emit('resultados', results(votes)));
    expect(screen.getByTestId('estado-en-vivo')).toHaveAttribute('data-status', 'live');

    // The server went away: the browser gave up on this stream.
    const first = FakeEventSource.last;
    act(() => first.fail({ closed: true }));
    expect(screen.getByTestId('estado-en-vivo')).toHaveTextContent('Sin conexión en vivo');
    votes = [11, 20, 30];
    await waitFor(() => expect(within(card('FA')).getByTestId('votos')).toHaveTextContent('11 votos'));
    const polled = calls.results;
    await waitFor(() => expect(calls.results).toBeGreaterThan(polled + 1));

    // A new stream was opened without a reload; its first totals make the page live again.
    await waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThan(1));
    expect(first.closed).toBe(true);
    act(() => FakeEventSource.last.emit('resultados', results([12, 20, 30])));
    expect(screen.getByTestId('estado-en-vivo')).toHaveTextContent('En vivo');
    expect(within(card('FA')).getByTestId('votos')).toHaveTextContent('12 votos');
  });

  it('replaces a stream that went silent (a dead connection gives no error)', async () => {
    // The page's clock is fake (the watchdog's interval, the reconnect wait, Date.now): the pings come
    // 80 ms apart and the silence lasts 300 ms however busy the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.stubGlobal('EventSource', FakeEventSource);
    serve(() => results([1, 2, 3]));
    renderWithProviders(<ResultsPage pollMs={50} stream={{ reconnectMs: 20, silenceMs: 150 }} />);
    await vi.waitFor(() => expect(screen.getByTestId('candidato-FA')).toBeInTheDocument());
    const first = FakeEventSource.last;
    act(() => first.emit('resultados', results([1, 2, 3])));
    expect(screen.getByTestId('estado-en-vivo')).toHaveAttribute('data-status', 'live');
    // Pings keep it alive...
    for (let i = 0; i < 3; i++) {
      await act(() => vi.advanceTimersByTimeAsync(80));
      act(() => first.emit('ping', { at: new Date().toISOString() }));
    }
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(screen.getByTestId('estado-en-vivo')).toHaveAttribute('data-status', 'live');
    // ...silence does not: the watchdog gives up on it past 150 ms, and a new stream opens 20 ms later.
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByTestId('estado-en-vivo')).toHaveAttribute('data-status', 'polling');
    expect(first.closed).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(FakeEventSource.instances.length).toBeGreaterThan(1);
  });

  it('opens projector mode from the URL, keeps updating, and leaves with the button or Escape', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    serve(() => results([1234, 2345, 345]));
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <ResultsPage />
        <ShowLocation />
      </>,
      { route: '/resultados?proyector=1' },
    );
    const dialog = await screen.findByRole('dialog', { name: 'RESULTADOS POSTULACIONES' });
    expect(within(dialog).getByText('22,97 %')).toBeInTheDocument();
    expect(within(dialog).getByText(/Porcentajes sobre 5\.373 electores/)).toBeInTheDocument();
    act(() => FakeEventSource.last.emit('resultados', results([1300, 2345, 345])));
    expect(within(dialog).getByText('24,20 %')).toBeInTheDocument();
    expect(within(dialog).getByText('En vivo')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Salir del modo proyector' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('ubicacion')).toHaveTextContent(/^\/resultados$/);

    await user.click(screen.getByRole('button', { name: 'Modo proyector' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getByTestId('ubicacion')).toHaveTextContent('/resultados?proyector=1');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('after the close shows the close view the page gives beside the map, without the toggle to the timeline', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    serve(() => results([1234, 2345, 345]));
    renderWithProviders(
      <ResultsPage
        closeView={(live) => <p data-testid="vista-cierre">Al cierre; ahora FA {live.candidates[0]?.votes}</p>}
      />,
      { route: '/resultados?proyector=1' },
    );
    const dialog = await screen.findByRole('dialog', { name: 'RESULTADOS POSTULACIONES' });
    // The live figures reach the close view (the late arrivals apart are drawn with them).
    expect(within(dialog).getByTestId('vista-cierre')).toHaveTextContent('Al cierre; ahora FA 1234');
    expect(within(dialog).getByTestId('proyector-cierre')).toBeInTheDocument();
    expect(await within(dialog).findByRole('heading', { name: 'Mapa: trámites validados' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Ver mapa y línea de tiempo' })).toBeNull();
    expect(within(dialog).queryByText(/toca un cuadro/)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Salir del modo proyector' })).toBeInTheDocument();
  });

  it('sorts the breakdown by any column and links both downloads', async () => {
    serve(() => results([1, 2, 3]));
    const user = userEvent.setup();
    renderWithProviders(<ResultsPage />);
    const table = await screen.findByRole('table');
    const firstRow = () => within(table).getAllByRole('row')[1]!;
    expect(within(firstRow()).getByRole('rowheader')).toHaveTextContent('Bolívar');
    expect(within(table).getByText('2.000')).toBeInTheDocument();
    expect(within(table).getByText('60,00 %')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: /^LC/ }));
    expect(within(firstRow()).getByRole('rowheader')).toHaveTextContent('Cabimas');
    expect(within(table).getByRole('columnheader', { name: /^LC/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(table).getByRole('button', { name: /^LC/ }));
    expect(within(firstRow()).getByRole('rowheader')).toHaveTextContent('Sucre');
    expect(within(table).getByRole('columnheader', { name: /^LC/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(table).getByRole('button', { name: /^Municipio/ }));
    expect(within(firstRow()).getByRole('rowheader')).toHaveTextContent('Bolívar');

    // Totals row.
    const totals = within(table).getAllByRole('row').at(-1)!;
    expect(totals).toHaveTextContent('Total2.1001.5501.225');
    expect(screen.getByRole('link', { name: 'Descargar tabla (CSV)' })).toHaveAttribute(
      'href',
      '/api/results/breakdown.csv',
    );
    expect(screen.getByRole('link', { name: 'Descargar trámites validados (CSV)' })).toHaveAttribute(
      'href',
      '/api/results/validated.csv',
    );
  });

  it('prints with a header of its own: the campaign, the page, the day and the time of printing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T17:05:00Z'));
    serve(() => results([1, 2, 3]));
    renderWithProviders(<ResultsPage campaignName="Comando Zulia" />);
    const header = screen.getByTestId('cabecera-impresa');
    // Only on paper (print:block), and before anything else on it.
    expect(header).toHaveClass('hidden', 'print:block');
    expect(header).toHaveTextContent('Comando Zulia · Resultados');
    expect(header).toHaveTextContent('Impreso el 23 de noviembre de 2026 a la 1:05 p. m. (hora de Caracas)');
    // The dialog opens later: the time is the printing's.
    vi.setSystemTime(new Date('2026-11-23T18:40:00Z'));
    act(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    expect(header).toHaveTextContent('Impreso el 23 de noviembre de 2026 a las 2:40 p. m. (hora de Caracas)');
    await screen.findByRole('table');
    // What only works on screen stays off the paper.
    expect(screen.getByRole('button', { name: 'Modo proyector' }).parentElement).toHaveClass('print:hidden');
    expect(screen.getByTestId('estado-en-vivo').parentElement).toHaveClass('print:hidden');
  });

  it('says on a narrow screen that the table scrolls, with a shadow on the edge until its last column', async () => {
    const box = (el: Element) => el instanceof HTMLDivElement && el.className.includes('overflow-x-auto');
    const widths = { scroll: 900, client: 390 };
    const scrollWidth = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return box(this) ? widths.scroll : 0;
    });
    const clientWidth = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return box(this) ? widths.client : 0;
    });
    try {
      serve(() => results([1, 2, 3]));
      renderWithProviders(<ResultsPage />);
      const table = await screen.findByRole('table');
      expect(screen.getByTestId('tabla-desliza')).toHaveTextContent(
        'La tabla tiene 8 columnas: deslízala hacia la izquierda para ver las demás.',
      );
      expect(screen.getByTestId('tabla-sombra')).toBeInTheDocument();
      const scroller = table.parentElement as HTMLDivElement;
      scroller.scrollLeft = 510;
      act(() => {
        scroller.dispatchEvent(new Event('scroll'));
      });
      expect(screen.queryByTestId('tabla-sombra')).not.toBeInTheDocument();
      expect(screen.getByTestId('tabla-desliza')).toBeInTheDocument();
    } finally {
      scrollWidth.mockRestore();
      clientWidth.mockRestore();
    }
  });
});
