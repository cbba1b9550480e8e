import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthProvider } from '#shared/features/auth/auth';
import type { Session } from '#shared/platform/session';
import { AppProvider, createTestQueryClient } from '#web/platform/provider';
import { rememberedSession, rememberSession } from '#web/platform/session/known-session';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { LoginPage } from './login-page';

const VISITOR: Session = { user: null, menu: [], home: null, logoutRoute: '/' };
const VALIDATOR: Session = {
  user: { email: 'ana@example.org', role: 'staff', mustChangePassword: false },
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

const LOCAL: AuthProvider = { provider: 'local' };
const FIREBASE: AuthProvider = { provider: 'firebase', apiKey: 'clave-web', emulatorUrl: 'http://127.0.0.1:9099' };

// The Firebase SDK's boundary: signing in, its auth-state listener and signing out. Nothing else is mocked.
const sdk = vi.hoisted(() => ({
  listener: undefined as ((user: unknown) => void) | undefined,
  signIn: vi.fn(),
  signOut: vi.fn(),
  emulator: vi.fn(),
}));
vi.mock('firebase/auth', () => ({
  initializeAuth: () => ({ currentUser: null }),
  inMemoryPersistence: { type: 'NONE' },
  connectAuthEmulator: sdk.emulator,
  onAuthStateChanged: (_auth: unknown, listener: (user: unknown) => void) => {
    sdk.listener = listener;
    return () => {};
  },
  signInWithEmailAndPassword: sdk.signIn,
  signOut: sdk.signOut,
}));
afterEach(() => {
  sdk.listener?.(null); // the SDK module outlives a test: it starts the next one holding nobody
  sdk.signIn.mockReset();
  sdk.signOut.mockReset();
});

function renderLogin(route = '/login', provider: AuthProvider = LOCAL) {
  server.use(http.get('*/api/auth/provider', () => HttpResponse.json(provider)));
  const queryClient = createTestQueryClient();
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
  it('says it is confirming, inline and without the cover, while the session is unknown; then the form', async () => {
    const { gate, release } = createGate();
    server.use(
      http.get('*/api/auth/session', async () => {
        await gate;
        return HttpResponse.json(VISITOR);
      }),
    );
    renderLogin();
    expect(screen.getByRole('status')).toHaveTextContent('Confirmando…');
    expect(screen.queryByTestId('loading-cover')).not.toBeInTheDocument();
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
    sessionIs({
      user: { email: 'nadie@example.org', role: 'staff', mustChangePassword: false },
      menu: [],
      home: null,
      logoutRoute: '/',
    });
    renderLogin();
    expect(await screen.findByText(/no tiene acceso a ningún departamento/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText('Correo electrónico')).not.toBeInTheDocument());
  });

  it('signing out there, the phone forgets the person too: the next one on a shared phone is not shown as them', async () => {
    const person: Session = {
      user: { email: 'nadie@example.org', role: 'staff', mustChangePassword: false },
      menu: [],
      home: null,
      logoutRoute: '/',
    };
    sessionIs(person);
    rememberSession({ ...person, menu: [{ title: 'Cabimas', path: '/validation/cabimas' }] });
    server.use(http.post('*/api/auth/logout', () => HttpResponse.json({ redirectTo: '/' })));
    renderLogin();
    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/'));
    expect(rememberedSession()).toBeNull();
  });
});

describe('LoginPage where Firebase checks passwords', () => {
  const signedInAs = (idToken: string) => {
    const user = { getIdToken: async () => idToken };
    sdk.signIn.mockImplementation(async () => {
      sdk.listener?.(user);
      return { user };
    });
    sdk.signOut.mockImplementation(async () => sdk.listener?.(null));
  };
  const sdkRefuses = async (code: string) => {
    const { FirebaseError } = await import('firebase/app');
    sdk.signIn.mockRejectedValue(new FirebaseError(code, `Firebase: Error (${code}).`));
  };

  async function fillAndSubmit(email: string, password: string) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Correo electrónico'), email);
    if (password) await user.type(screen.getByLabelText('Contraseña'), password);
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
  }

  it('signs in with the SDK (against the emulator when given), sends the ID token once and follows our session', async () => {
    sessionIs(VISITOR);
    signedInAs('id-token-1');
    const bodies: unknown[] = [];
    const passwordPosts = vi.fn();
    server.use(
      http.post('*/api/auth/firebase', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(VALIDATOR);
      }),
      http.post('*/api/auth/login', () => {
        passwordPosts();
        return HttpResponse.json(VALIDATOR);
      }),
    );
    renderLogin('/login', FIREBASE);
    await fillAndSubmit('ana@example.org', 'secreto123');
    expect(await screen.findByTestId('where')).toHaveTextContent('/validation/coquivacoa');
    expect(sdk.signIn).toHaveBeenCalledWith(expect.anything(), 'ana@example.org', 'secreto123');
    expect(sdk.emulator).toHaveBeenCalledWith(expect.anything(), 'http://127.0.0.1:9099', { disableWarnings: true });
    expect(bodies).toEqual([{ idToken: 'id-token-1' }]);
    expect(passwordPosts).not.toHaveBeenCalled();
  });

  it('checks the form in the browser before the SDK is asked', async () => {
    sessionIs(VISITOR);
    renderLogin('/login', FIREBASE);
    await fillAndSubmit('ana@example.org', '12345');
    expect(await screen.findByText('La contraseña debe tener al menos 6 caracteres.')).toBeInTheDocument();
    expect(sdk.signIn).not.toHaveBeenCalled();
  });

  it.each([
    ['auth/invalid-credential', 'Error en usuario o contraseña.'],
    ['auth/wrong-password', 'Error en usuario o contraseña.'],
    ['auth/user-not-found', 'Error en usuario o contraseña.'],
    ['auth/user-disabled', 'Error en usuario o contraseña.'],
    ['auth/too-many-requests', 'Demasiados intentos de inicio de sesión. Intenta de nuevo más tarde.'],
    [
      'auth/network-request-failed',
      'No se pudo contactar el servicio de inicio de sesión. Revisa tu conexión e intenta de nuevo.',
    ],
  ])('shows %s as "%s" and sends nothing to our server', async (code, message) => {
    sessionIs(VISITOR);
    await sdkRefuses(code);
    const posted = vi.fn();
    server.use(
      http.post('*/api/auth/firebase', () => {
        posted();
        return HttpResponse.json(VALIDATOR);
      }),
    );
    renderLogin('/login', FIREBASE);
    await fillAndSubmit('ana@example.org', 'secreto123');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it('signs the SDK out again when our server refuses the person', async () => {
    sessionIs(VISITOR);
    signedInAs('id-token-2');
    server.use(
      http.post('*/api/auth/firebase', () =>
        HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', message: 'Error en usuario o contraseña.' },
          { status: 401 },
        ),
      ),
    );
    renderLogin('/login', FIREBASE);
    await fillAndSubmit('nadie@example.org', 'secreto123');
    expect(await screen.findByText('Error en usuario o contraseña.')).toBeInTheDocument();
    await waitFor(() => expect(sdk.signOut).toHaveBeenCalledTimes(1));
  });

  it('signs the SDK out when the form shows, that is when our session is gone', async () => {
    sessionIs(VISITOR);
    sdk.signOut.mockImplementation(async () => sdk.listener?.(null));
    renderLogin('/login', FIREBASE);
    await screen.findByLabelText('Correo electrónico');
    // The SDK was loaded by an earlier sign-in of this tab and still holds that person.
    sdk.listener?.({ getIdToken: async () => 'viejo' });
    cleanup();
    renderLogin('/login', FIREBASE);
    await screen.findByLabelText('Correo electrónico');
    await waitFor(() => expect(sdk.signOut).toHaveBeenCalledTimes(1));
  });

  it('after a one-time password, asks only for a new one (checked here first), then goes to the department', async () => {
    sessionIs({
      ...VALIDATOR,
      user: { ...(VALIDATOR.user as Session['user'] & object), mustChangePassword: true },
      menu: [],
      home: null,
    });
    const posted: unknown[] = [];
    server.use(
      http.post('*/api/auth/password', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json(VALIDATOR);
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Elige tu contraseña' })).toBeInTheDocument();
    expect(screen.getByText('ana@example.org')).toBeInTheDocument();
    expect(screen.getByLabelText('Contraseña nueva')).toHaveAttribute('autocomplete', 'new-password');

    // The one-time password opened this session: it is not typed a second time.
    expect(screen.queryByLabelText(/un solo uso/)).not.toBeInTheDocument();
    expect(screen.getAllByLabelText(/contraseña/i).filter((e) => e.tagName === 'INPUT')).toHaveLength(2);
    expect(screen.getByLabelText('Contraseña nueva')).toHaveAccessibleDescription(
      'Al menos 10 caracteres, y que no se adivine fácilmente (como 1234567890, 11111111111 o password123).',
    );

    // Shorter than 10: said here, nothing sent.
    await user.type(screen.getByLabelText('Contraseña nueva'), 'corta-123');
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), 'corta-123');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText('Una contraseña nueva debe tener al menos 10 caracteres.')).toBeInTheDocument();
    expect(posted).toEqual([]);
    await user.clear(screen.getByLabelText('Contraseña nueva'));
    await user.clear(screen.getByLabelText('Repite la contraseña nueva'));

    // One character over and over: said here too, nothing sent.
    await user.type(screen.getByLabelText('Contraseña nueva'), '11111111111');
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), '11111111111');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(
      await screen.findByText('Una contraseña nueva no puede ser un mismo carácter repetido. Elige otra.'),
    ).toBeInTheDocument();
    expect(posted).toEqual([]);
    await user.clear(screen.getByLabelText('Contraseña nueva'));
    await user.clear(screen.getByLabelText('Repite la contraseña nueva'));

    await user.type(screen.getByLabelText('Contraseña nueva'), 'mi-clave-2026');
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), 'mi-clave-2025');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByText('Las dos contraseñas nuevas no coinciden.')).toBeInTheDocument();
    expect(screen.getByLabelText('Repite la contraseña nueva')).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toEqual([]);

    await user.clear(screen.getByLabelText('Repite la contraseña nueva'));
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), 'mi-clave-2026');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/validation/coquivacoa'));
    expect(posted).toEqual([{ newPassword: 'mi-clave-2026' }]);
  });

  it('shows the server’s refusal of a common password, and sends again once it is changed', async () => {
    sessionIs({
      ...VALIDATOR,
      user: { ...(VALIDATOR.user as Session['user'] & object), mustChangePassword: true },
      menu: [],
      home: null,
    });
    const posted: unknown[] = [];
    server.use(
      http.post('*/api/auth/password', async ({ request }) => {
        const body = (await request.json()) as { newPassword: string };
        posted.push(body);
        return body.newPassword === 'password123'
          ? HttpResponse.json(
              {
                statusCode: 400,
                error: 'Bad Request',
                message: 'Esa contraseña es de las más usadas y se adivina enseguida. Elige otra menos común.',
              },
              { status: 400 },
            )
          : HttpResponse.json(VALIDATOR);
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Contraseña nueva'), 'password123');
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Esa contraseña es de las más usadas y se adivina enseguida. Elige otra menos común.',
    );
    await user.clear(screen.getByLabelText('Contraseña nueva'));
    await user.clear(screen.getByLabelText('Repite la contraseña nueva'));
    await user.type(screen.getByLabelText('Contraseña nueva'), 'río-lago-2026');
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), 'río-lago-2026');
    await user.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/validation/coquivacoa'));
    expect(posted).toEqual([{ newPassword: 'password123' }, { newPassword: 'río-lago-2026' }]);
  });
});
