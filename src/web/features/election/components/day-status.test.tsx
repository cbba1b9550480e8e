import { act, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElectionStatus } from '#shared/features/election/election';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { DayBanner, DayPill } from './day-status';

// 5:35 p. m. in Caracas; the close set in advance at 6:00 p. m. there (22:00 UTC).
const SERVER_NOW = new Date('2026-11-28T21:35:00.000Z');
const CLOSE = '2026-11-28T22:00:00.000Z';

/** The server's status, its clock `skewMs` ahead of the phone's; `asked` counts the requests. */
function election(status: Partial<ElectionStatus> = {}, skewMs = 0) {
  const seen = { asked: 0, closed: false };
  server.use(
    http.get('*/api/election', () => {
      seen.asked += 1;
      // Once asked after the close, the server says so itself.
      const body: ElectionStatus = seen.closed
        ? { phase: 'cerrada', closesAt: null, closedAt: CLOSE, lateArrivals: 0, now: CLOSE, epoch: null }
        : {
            phase: 'en_curso',
            closesAt: CLOSE,
            closedAt: null,
            lateArrivals: 0,
            now: new Date(Date.now() + skewMs).toISOString(),
            epoch: null,
            ...status,
          };
      return HttpResponse.json(body);
    }),
  );
  return seen;
}

/** Moves the phone's clock (and its ticking timer) on. */
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

afterEach(() => {
  vi.useRealTimers();
});

describe('the countdown to the close', () => {
  it('counts down on the server’s clock, warns when the close is near, and says the day closed when it comes', async () => {
    // The phone's clock is half an hour behind the server's: the countdown does not believe it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date(SERVER_NOW.getTime() - 30 * 60_000));
    const seen = election({}, 30 * 60_000);
    renderWithProviders(<DayBanner forValidators />);
    const banner = await screen.findByTestId('jornada');
    expect(banner).toHaveTextContent('La jornada cierra a las 6:00 p. m. — faltan 25 min');
    expect(screen.queryByText(/Quedan pocos minutos/)).toBeNull();

    await advance(60_000);
    expect(banner).toHaveTextContent('La jornada cierra a las 6:00 p. m. — faltan 24 min');

    // Fifteen minutes before: the warning.
    await advance(9 * 60_000);
    expect(banner).toHaveTextContent('faltan 15 min');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Quedan pocos minutos: registra ya los votos y fotos que te falten.',
    );

    await advance(14 * 60_000 + 30_000);
    expect(banner).toHaveTextContent('falta menos de 1 min');

    // The close's time: closed at once, and the server is asked again.
    const askedBefore = seen.asked;
    seen.closed = true;
    await advance(30_000);
    expect(await screen.findByRole('heading', { name: 'Jornada cerrada' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent(
      'La jornada cerró a las 6:00 p. m. Ya no se reciben votos ni fotos nuevos. Lo que este teléfono guardó antes del cierre se sigue enviando.',
    );
    expect(screen.queryByText(/faltan/)).toBeNull();
    await vi.waitFor(() => expect(seen.asked).toBeGreaterThan(askedBefore));
  });

  it('counts hours too while the close is far', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-11-28T19:55:00.000Z'));
    election();
    renderWithProviders(<DayBanner forValidators />);
    expect(await screen.findByTestId('jornada')).toHaveTextContent(
      'La jornada cierra a las 6:00 p. m. — faltan 2 h 5 min',
    );
  });

  it('shows the phase when no close is set, and nothing during the drill (it has its own band)', async () => {
    election({ phase: 'preparacion', closesAt: null });
    const preparing = renderWithProviders(<DayBanner forValidators />);
    expect(await screen.findByTestId('jornada')).toHaveTextContent(
      'Jornada en preparación: todavía no se reciben votos ni fotos.',
    );
    preparing.unmount();
    // A page opened again shows the answer the phone kept until the server's new one arrives.
    election({ phase: 'en_curso', closesAt: null });
    const underWay = renderWithProviders(<DayBanner forValidators />);
    await vi.waitFor(() => expect(screen.getByTestId('jornada')).toHaveTextContent('Jornada en curso'));
    underWay.unmount();
    const seen = election({ phase: 'simulacro', closesAt: null });
    renderWithProviders(<DayBanner forValidators />);
    await vi.waitFor(() => expect(seen.asked).toBe(1));
    await vi.waitFor(() => expect(screen.queryByTestId('jornada')).toBeNull());
  });

  it('puts the phase, the countdown and the close in the navbar, the full sentence as its name', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(SERVER_NOW);
    election();
    renderWithProviders(<DayPill />);
    const pill = await screen.findByTestId('jornada-navbar');
    expect(pill).toHaveTextContent('Cierra en 25 min');
    expect(pill).toHaveAttribute('title', 'La jornada cierra a las 6:00 p. m. — faltan 25 min');
    await advance(25 * 60_000);
    expect(pill).toHaveTextContent('Jornada cerrada');
    expect(pill).toHaveAttribute('title', 'La jornada cerró a las 6:00 p. m.');
  });
});

describe('without a connection', () => {
  it('a page opened offline shows the day the phone last heard, says how old it is, and closes it when its time comes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(SERVER_NOW);
    election();
    const online = renderWithProviders(<DayBanner forValidators />);
    expect(await screen.findByTestId('jornada')).toHaveTextContent('faltan 25 min');
    expect(screen.queryByTestId('jornada-sin-conexion')).toBeNull();
    online.unmount();

    // Ten minutes later the phone has no network, and the page is opened again (a new app, nothing in memory).
    await advance(10 * 60_000);
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    server.use(http.get('*/api/election', () => HttpResponse.error()));
    renderWithProviders(<DayBanner forValidators />);
    const banner = await screen.findByTestId('jornada');
    expect(banner).toHaveTextContent('La jornada cierra a las 6:00 p. m. — faltan 15 min');
    expect(screen.getByTestId('jornada-sin-conexion')).toHaveTextContent(
      'Sin conexión: la jornada como estaba a las 5:35 p. m.',
    );

    // The close's time passes offline: the page shows the day closed (no 'Votar' follows from it).
    await advance(15 * 60_000);
    expect(await screen.findByRole('heading', { name: 'Jornada cerrada' })).toBeVisible();
    onLine.mockRestore();
  });
});
