import { render, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Session } from '#shared/platform/session';
import { AppProvider, createTestQueryClient } from '#web/platform/provider';
import { server } from '#web/testing/msw-server';
import AdminRoute from './admin';

function renderAdmin(session: Session) {
  server.use(
    http.get('*/api/auth/session', () => HttpResponse.json(session)),
    http.get('*/api/admin/settings', () =>
      HttpResponse.json({
        campaignName: 'C',
        leaderName: 'L',
        resultsDenominator: 1,
        logoutRoute: '/',
        photoMaxMb: 20,
      }),
    ),
  );
  const queryClient = createTestQueryClient();
  return render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={['/admin']}>
        <Routes>
          <Route path="admin/*" element={<AdminRoute />} />
        </Routes>
      </MemoryRouter>
    </AppProvider>,
  );
}

const ALL = [
  'personas',
  'departamentos',
  'candidatos',
  'agenda',
  'notas',
  'registros',
  'ajustes',
  'auditoria',
  'jornada',
  'mensajes',
] as const;

describe('the back-office shell', () => {
  it('shows an admin every section', async () => {
    renderAdmin({
      user: { email: 'jefa@example.org', role: 'admin', mustChangePassword: false },
      menu: [{ title: 'Administración', path: '/admin', sections: [...ALL] }],
      home: '/admin',
      logoutRoute: '/',
    });
    const nav = await screen.findByRole('navigation', { name: 'Secciones de administración' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Personas',
      'Departamentos',
      'Candidatos',
      'Agenda',
      'Notas',
      'Registros',
      'Ajustes',
      'Auditoría',
      'Jornada',
      'Mensajes',
    ]);
  });

  it('shows someone on the Agenda list only the agenda', async () => {
    renderAdmin({
      user: { email: 'agenda@example.org', role: 'staff', mustChangePassword: false },
      menu: [
        { title: 'Agenda', path: '/agenda' },
        { title: 'Administración', path: '/admin', sections: ['agenda'] },
      ],
      home: '/agenda',
      logoutRoute: '/',
    });
    const nav = await screen.findByRole('navigation', { name: 'Secciones de administración' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Agenda']);
  });

  it('shows the not-found screen to someone without the entry', async () => {
    renderAdmin({
      user: { email: 'val@example.org', role: 'staff', mustChangePassword: false },
      menu: [{ title: 'Cabimas', path: '/validation/cabimas' }],
      home: '/validation/cabimas',
      logoutRoute: '/',
    });
    expect(await screen.findByRole('heading', { name: 'Página no encontrada' })).toBeInTheDocument();
  });
});
