import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../../../tests/support/msw-server';
import type { Session } from '../../../../shared/auth';
import { AppProvider } from '../../../app/provider';
import { LoginPage } from './login-page';

const VISITOR: Session = { user: null, menu: [], home: null, logoutRoute: '/' };
const VALIDATOR: Session = {
  user: { email: 'ana@example.org', role: 'staff' },
  menu: [
    { title: 'Coquivacoa', path: '/validation/coquivacoa' },
    { title: 'Cabimas', path: '/validation/cabimas' },
  ],
  home: '/validation/coquivacoa',
  logoutRoute: '/',
};

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderLogin(route = '/login') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </AppProvider>,
  );
}

const sessionIs = (session: Session) => server.use(http.get('*/api/auth/session', () => HttpResponse.json(session)));

describe('LoginPage', () => {
  it('shows the loading cover while the session is unknown, then the form', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/api/auth/session', async () => {
        await gate;
        return HttpResponse.json(VISITOR);
      }),
    );
    renderLogin();
    expect(screen.getByTestId('loading-cover')).toHaveTextContent('Confirmando');
    release();
    expect(await screen.findByLabelText('Correo electrónico')).toBeInTheDocument();
    expect(screen.getByLabelText('Contraseña')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeInTheDocument();
  });

  it.each([
    ['', '', 'Debes completar todos los campos de la forma.'],
    ['ana@example.org', '', 'Debes completar todos los campos de la forma.'],
    ['no-es-correo', 'secreto123', 'El formato del email es inválido.'],
    ['ana@example.org', '12345', 'La contraseña debe tener al menos 6 caracteres.'],
  ])('checks "%s" / "%s" in the browser first: %s', async (email, password, message) => {
    sessionIs(VISITOR);
    const posted = vi.fn();
    server.use(
      http.post('*/api/auth/login', () => {
        posted();
        return HttpResponse.json(VALIDATOR);
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    if (email) await user.type(await screen.findByLabelText('Correo electrónico'), email);
    if (password) await user.type(screen.getByLabelText('Contraseña'), password);
    await user.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it('shows the server’s message for wrong credentials', async () => {
    sessionIs(VISITOR);
    server.use(
      http.post('*/api/auth/login', () =>
        HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', message: 'Error en usuario o contraseña.' },
          { status: 401 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Correo electrónico'), 'ana@example.org');
    await user.type(screen.getByLabelText('Contraseña'), 'incorrecta');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Error en usuario o contraseña.')).toBeInTheDocument();
  });

  it('toggles the password’s visibility with a button that says what it does', async () => {
    sessionIs(VISITOR);
    const user = userEvent.setup();
    renderLogin();
    const input = await screen.findByLabelText('Contraseña');
    await user.type(input, 'secreto123');
    await user.click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Ocultar contraseña' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('sends the person to their first department after signing in', async () => {
    sessionIs(VISITOR);
    let body: unknown;
    server.use(
      http.post('*/api/auth/login', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(VALIDATOR);
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Correo electrónico'), 'Ana@Example.org');
    await user.type(screen.getByLabelText('Contraseña'), 'secreto123');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/validation/coquivacoa');
    expect(body).toEqual({ email: 'Ana@Example.org', password: 'secreto123' });
  });

  it('goes back to the page asked for before, but only within this site', async () => {
    sessionIs(VALIDATOR);
    renderLogin('/login?next=%2Fvalidation%2Fcabimas%3Fq%3D1');
    expect(await screen.findByTestId('where')).toHaveTextContent('/validation/cabimas?q=1');
  });

  it.each(['https://evil.example/', '//evil.example/x', '/\\evil.example'])('ignores next=%s', async (next) => {
    sessionIs(VALIDATOR);
    renderLogin(`/login?next=${encodeURIComponent(next)}`);
    expect(await screen.findByTestId('where')).toHaveTextContent('/validation/coquivacoa');
  });

  it('tells a signed-in person without a department, and offers to sign out', async () => {
    sessionIs({ user: { email: 'nadie@example.org', role: 'staff' }, menu: [], home: null, logoutRoute: '/' });
    renderLogin();
    expect(await screen.findByText(/no tiene acceso a ningún departamento/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText('Correo electrónico')).not.toBeInTheDocument());
  });
});
