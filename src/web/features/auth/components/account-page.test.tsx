import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { OpenSession, OpenSessions } from '#shared/features/auth/auth';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { AccountPage } from './account-page';

const session = (id: number, ip: string | null, place: string | null): OpenSession => ({
  id,
  device: `Navegador ${id}`,
  ip,
  place,
  createdAt: '2026-11-22T12:00:00.000Z',
  lastUsedAt: '2026-11-22T12:30:00.000Z',
  current: id === 1,
});

function api(answer: OpenSessions) {
  server.use(
    http.get('*/api/auth/session', () =>
      HttpResponse.json({ user: { email: 'ana@example.org', role: 'staff' }, menu: [], home: null, logoutRoute: '/' }),
    ),
    http.get('*/api/auth/second-factor', () => HttpResponse.json({ enabled: false, recoveryCodesLeft: 0 })),
    http.get('*/api/auth/sessions', () => HttpResponse.json(answer)),
  );
}

const DB_IP = { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com' };

describe('Tu cuenta: Sesiones abiertas', () => {
  it('shows the place of each IP where known, and credits the place database', async () => {
    api({
      sessions: [
        session(1, '190.36.10.4', 'Maracaibo, Venezuela'),
        session(2, '192.168.1.5', 'Red local'),
        session(3, '203.0.113.9', null),
      ],
      placeSource: DB_IP,
    });
    renderWithProviders(<AccountPage />, { route: '/cuenta' });
    const list = await screen.findByRole('list');
    expect(within(list).getByText('IP 190.36.10.4 · Maracaibo, Venezuela')).toBeInTheDocument();
    expect(within(list).getByText('IP 192.168.1.5 · Red local')).toBeInTheDocument();
    // Nothing invented where the database does not know the address.
    expect(within(list).getByText('IP 203.0.113.9')).toBeInTheDocument();
    const credit = screen.getByRole('link', { name: 'IP Geolocation by DB-IP' });
    expect(credit).toHaveAttribute('href', 'https://db-ip.com');
  });

  it('tells identical sessions apart by when each was opened, and marks this one', async () => {
    const same = {
      device: 'Chrome en Android',
      ip: '190.36.10.4',
      place: null,
      lastUsedAt: '2026-11-22T12:30:00.000Z',
    };
    api({
      sessions: [
        { ...same, id: 1, createdAt: '2026-11-22T11:00:00.000Z', current: true },
        { ...same, id: 2, createdAt: '2026-11-21T23:15:00.000Z', current: false },
      ],
      placeSource: null,
    });
    renderWithProviders(<AccountPage />, { route: '/cuenta' });
    const [mine, other] = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(mine).toHaveTextContent('(esta sesión)');
    expect(mine).toHaveTextContent('Abierta: 22 nov 2026, 7:00 a. m.');
    expect(other).toHaveTextContent('Abierta: 21 nov 2026, 7:15 p. m.');
    expect(other).not.toHaveTextContent('(esta sesión)');
    expect(
      screen.getByRole('button', { name: 'Cerrar la sesión de Chrome en Android abierta el 21 nov 2026, 7:15 p. m.' }),
    ).toBeInTheDocument();
  });

  it('credits no one when no place comes from the database', async () => {
    api({ sessions: [session(1, '127.0.0.1', 'Red local'), session(2, null, null)], placeSource: DB_IP });
    renderWithProviders(<AccountPage />, { route: '/cuenta' });
    expect(await screen.findByText('IP 127.0.0.1 · Red local')).toBeInTheDocument();
    expect(screen.getByText('IP desconocida')).toBeInTheDocument();
    expect(screen.queryByText(/Lugares según la IP/)).not.toBeInTheDocument();
  });
});
