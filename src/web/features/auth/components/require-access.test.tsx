import { render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Session } from '#shared/platform/session';
import { AppProvider, createTestQueryClient } from '#web/platform/provider';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { RequireAccess } from './require-access';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderGuarded(route: string, session: Session | (() => Promise<Response>)) {
  server.use(
    http.get('*/api/auth/session', typeof session === 'function' ? session : () => HttpResponse.json(session)),
  );
  const queryClient = createTestQueryClient();
  return render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route
            path="/validation/:slug"
            element={
              <RequireAccess path={route.split('?')[0]!} notFound={<h1>Página no encontrada</h1>}>
                <h1>PÁGINA PROTEGIDA</h1>
              </RequireAccess>
            }
          />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </AppProvider>,
  );
}

const validatorOf = (slug: string): Session => ({
  user: { email: 'ana@example.org', role: 'staff', mustChangePassword: false },
  menu: [{ title: slug, path: `/validation/${slug}` }],
  home: `/validation/${slug}`,
  logoutRoute: '/',
});

describe('RequireAccess', () => {
  it('says it is confirming, inline and without the cover, until the session is known; then the page', async () => {
    const { gate, release } = createGate();
    renderGuarded('/validation/cabimas', async () => {
      await gate;
      return HttpResponse.json(validatorOf('cabimas'));
    });
    expect(screen.getByRole('status')).toHaveTextContent('Confirmando…');
    expect(screen.queryByTestId('loading-cover')).not.toBeInTheDocument();
    expect(screen.queryByText('PÁGINA PROTEGIDA')).not.toBeInTheDocument();
    release();
    expect(await screen.findByText('PÁGINA PROTEGIDA')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the not-found screen for a department that is not theirs', async () => {
    renderGuarded('/validation/lagunillas', validatorOf('cabimas'));
    expect(await screen.findByText('Página no encontrada')).toBeInTheDocument();
    expect(screen.queryByText('PÁGINA PROTEGIDA')).not.toBeInTheDocument();
  });

  it('sends visitors to /login with the way back', async () => {
    renderGuarded('/validation/cabimas?pagina=2', { user: null, menu: [], home: null, logoutRoute: '/' });
    expect(await screen.findByTestId('where')).toHaveTextContent('/login?next=%2Fvalidation%2Fcabimas%3Fpagina%3D2');
  });
});
