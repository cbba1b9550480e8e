import { onlineManager } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { type ReactNode, useState } from 'react';
import { createPath, MemoryRouter, type Navigator, Route, Router, Routes, type To, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '#shared/platform/messages';
import type { Session } from '#shared/platform/session';
import { RequireAccess } from '#web/features/auth/components/require-access';
import { readCopy, saveCopy } from '#web/features/records/device/device-copies';
import { purgeSeen, rememberedOwner, rememberOwner } from '#web/features/records/device/device-hints';
import { deviceOutbox } from '#web/features/records/outbox/device-outbox';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { AppProvider, createTestQueryClient } from '#web/platform/provider';
import { rememberedSession } from '#web/platform/session/known-session';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { RootLayout } from './root-layout';

const ADMIN: Session = {
  user: { email: 'jefa@example.org', role: 'admin', mustChangePassword: false },
  menu: [
    { title: 'Resultados', path: '/resultados' },
    { title: 'Notas', path: '/notas' },
    { title: 'Agenda', path: '/agenda' },
  ],
  home: '/resultados',
  logoutRoute: '/agenda',
};

/** Each page drawn, with whom the phone remembered at that moment. */
const drawn: { path: string; owner: string | null; session: Session | null }[] = [];

function Where() {
  const location = useLocation();
  useDocumentTitle(location.pathname === '/notas' ? 'Notas' : '');
  drawn.push({ path: location.pathname, owner: rememberedOwner(), session: rememberedSession() });
  return <main data-testid="where">{location.pathname}</main>;
}

function renderLayout(route: string, session: Session, calls: string[] = []) {
  let current = session;
  server.use(
    http.post('*/api/auth/logout-all', () => {
      calls.push('logout-all');
      current = { user: null, menu: [], home: null, logoutRoute: '/' };
      return HttpResponse.json({ redirectTo: session.logoutRoute });
    }),
    http.get('*/api/site', () =>
      HttpResponse.json({ campaignName: 'Comando Zulia', leaderName: 'X', today: '2026-11-22' }),
    ),
    http.get('*/api/auth/session', () => HttpResponse.json(current)),
    http.post('*/api/auth/logout', () => {
      current = { user: null, menu: [], home: null, logoutRoute: '/' };
      return HttpResponse.json({ redirectTo: session.logoutRoute });
    }),
  );
  const queryClient = createTestQueryClient();
  return render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route element={<RootLayout />}>
            <Route path="*" element={<Where />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </AppProvider>,
  );
}

const nav = () => screen.getByRole('navigation', { name: 'Principal' });

describe('navbar fed by the session', () => {
  beforeEach(() => {
    // The desktop navbar (the mobile one hides its links in the slide-over).
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1440 });
  });

  it('shows a staff member their departments, minus the current page, and Cerrar sesión', async () => {
    renderLayout('/resultados', ADMIN);
    expect(await within(nav()).findByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    const links = within(nav())
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual(['Comando Zulia', 'Notas', 'Agenda']);
    expect(within(nav()).queryByRole('link', { name: 'Iniciar sesión' })).not.toBeInTheDocument();
  });

  it('shows visitors the public menu and the login icon link', async () => {
    renderLayout('/', { user: null, menu: [], home: null, logoutRoute: '/' });
    expect(await within(nav()).findByRole('link', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(within(nav()).queryByRole('button', { name: 'Cerrar sesión' })).not.toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Agenda' })).toBeInTheDocument();
  });

  it('shows the login icon link to someone signed in without a department', async () => {
    renderLayout('/notas', {
      user: { email: 'x@example.org', role: 'staff', mustChangePassword: false },
      menu: [],
      home: null,
      logoutRoute: '/',
    });
    expect(await within(nav()).findByRole('link', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(within(nav()).queryByRole('button', { name: 'Cerrar sesión' })).not.toBeInTheDocument();
  });

  it('logs out to the route the server names and shows the visitor menu', async () => {
    const user = userEvent.setup();
    renderLayout('/resultados', ADMIN);
    await user.click(await within(nav()).findByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/agenda'));
    expect(await within(nav()).findByRole('link', { name: 'Iniciar sesión' })).toBeInTheDocument();
  });

  it('while signing out, a page drawn before the logout route (a slow phone lagging behind) never sends to /login', async () => {
    // A router whose navigations are drawn only when the test says so: on a busy phone the page on screen
    // lags behind the address, and the sign-in's landing page may be drawn after the sign-out has begun.
    const asked: string[] = [];
    let draw: (path: string) => void = () => {};
    const path = (to: To) => (typeof to === 'string' ? to : createPath(to));
    const navigator: Navigator = {
      createHref: path,
      go: () => {},
      push: (to) => void asked.push(path(to)),
      replace: (to) => void asked.push(path(to)),
    };
    function LaggingRouter({ children }: { children: ReactNode }) {
      const [location, setLocation] = useState('/login');
      draw = (to) => act(() => setLocation(to));
      return (
        <Router location={location} navigator={navigator}>
          {children}
        </Router>
      );
    }
    let current: Session = ADMIN;
    let sessionReads = 0;
    server.use(
      http.get('*/api/site', () =>
        HttpResponse.json({ campaignName: 'Comando Zulia', leaderName: 'X', today: '2026-11-22' }),
      ),
      http.get('*/api/auth/session', () => {
        sessionReads += 1;
        return HttpResponse.json(current);
      }),
      http.post('*/api/auth/logout', () => {
        current = { user: null, menu: [], home: null, logoutRoute: '/' };
        return HttpResponse.json({ redirectTo: ADMIN.logoutRoute });
      }),
    );
    const queryClient = createTestQueryClient();
    render(
      <AppProvider queryClient={queryClient}>
        <LaggingRouter>
          <Routes>
            <Route element={<RootLayout />}>
              <Route
                path="/resultados"
                element={
                  <RequireAccess path="/resultados" notFound={<p>no</p>}>
                    <Where />
                  </RequireAccess>
                }
              />
              <Route path="*" element={<Where />} />
            </Route>
          </Routes>
        </LaggingRouter>
      </AppProvider>,
    );
    const user = userEvent.setup();
    await user.click(await within(nav()).findByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(asked).toEqual(['/agenda']));
    // The sign-in's landing page is drawn now, late, before the logout route: the session is asked again
    // there, answers nobody, and the page stays blank instead of sending the person to /login.
    const readsBefore = sessionReads;
    draw('/resultados');
    await waitFor(() => expect(sessionReads).toBeGreaterThan(readsBefore));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(asked).toEqual(['/agenda']);
    expect(screen.queryByTestId('where')).not.toBeInTheDocument();

    // Arrived at the logout route: from here on a protected page goes to /login again.
    draw('/agenda');
    expect(await within(nav()).findByRole('link', { name: 'Iniciar sesión' })).toBeInTheDocument();
    draw('/resultados');
    await waitFor(() => expect(asked).toEqual(['/agenda', '/login?next=%2Fresultados']));
  });

  it('has forgotten the person on the phone before it shows them signed out: a page opened at once finds nobody', async () => {
    const user = userEvent.setup();
    renderLayout('/resultados', ADMIN);
    await user.click(await within(nav()).findByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/agenda'));
    // The logout route, from its very first drawing on: no remembered session or owner (what a reload,
    // offline, would go by to count the items as this person's).
    const first = drawn.find((d) => d.path === '/agenda');
    expect(first).toEqual({ path: '/agenda', owner: null, session: null });
  });

  it('says plainly that signing out needs a connection, and keeps the person signed in', async () => {
    const user = userEvent.setup();
    renderLayout('/resultados', ADMIN);
    const button = await within(nav()).findByRole('button', { name: 'Cerrar sesión' });
    server.use(http.post('*/api/auth/logout', () => HttpResponse.error()));
    onlineManager.setOnline(false);
    try {
      await user.click(button);
      expect(await screen.findByText(messages.session.signOutNeedsConnection)).toBeInTheDocument();
      expect(screen.getByTestId('where')).toHaveTextContent('/resultados');
      expect(within(nav()).getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('has a working menu icon on wide screens too: it opens the slide-over menu', async () => {
    const user = userEvent.setup();
    renderLayout('/resultados', ADMIN);
    await user.click(await within(nav()).findByRole('button', { name: 'Abrir menú' }));
    const menu = await screen.findByTestId('mobile-menu');
    expect(within(menu).getByRole('link', { name: 'Notas' })).toBeInTheDocument();
    expect(within(menu).getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    // Who is signed in, said above the logout button.
    expect(within(menu).getByTestId('sesion-de')).toHaveTextContent('Sesión iniciada como jefa@example.org');
  });

  it('gives a validator with one department a menu with something in it: where they are, Envíos, Cerrar sesión', async () => {
    const user = userEvent.setup();
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
    renderLayout('/validation/cabimas', {
      user: { email: 'val@example.org', role: 'staff', mustChangePassword: false },
      menu: [{ title: 'Cabimas', path: '/validation/cabimas' }],
      home: '/validation/cabimas',
      logoutRoute: '/',
    });
    await user.click(await within(nav()).findByRole('button', { name: 'Abrir menú' }));
    const menu = await screen.findByTestId('mobile-menu');
    // Their department is named, not linked: the spec hides the link to the page being shown.
    expect(within(menu).getByTestId('menu-aqui')).toHaveTextContent('Estás en Cabimas');
    expect(within(menu).queryByRole('link', { name: 'Cabimas' })).not.toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Envíos' })).toHaveAttribute('href', '/envios');
    expect(within(menu).getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();

    // Envíos leads back to their department, by name.
    await user.click(within(menu).getByRole('link', { name: 'Envíos' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/envios'));
    await user.click(within(nav()).getByRole('button', { name: 'Abrir menú' }));
    const again = await screen.findByTestId('mobile-menu');
    expect(within(again).getByRole('link', { name: 'Cabimas' })).toHaveAttribute('href', '/validation/cabimas');
    expect(within(again).queryByRole('link', { name: 'Envíos' })).not.toBeInTheDocument();
  });

  it('signs out on every device from the menu, after asking; cancelling changes nothing', async () => {
    const user = userEvent.setup();
    const calls: string[] = [];
    renderLayout('/resultados', ADMIN, calls);
    const openMenu = async () => {
      await user.click(await within(nav()).findByRole('button', { name: 'Abrir menú' }));
      await user.click(
        within(await screen.findByTestId('mobile-menu')).getByRole('button', {
          name: 'Cerrar sesión en todos los dispositivos',
        }),
      );
      return screen.findByRole('dialog', { name: 'Cerrar sesión en todos los dispositivos' });
    };
    await user.click(within(await openMenu()).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);

    const ask = await openMenu();
    expect(ask).toHaveTextContent('Se cerrará tu sesión en este y en todos los teléfonos y computadoras');
    await user.click(within(ask).getByRole('button', { name: 'Cerrar todas las sesiones' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/agenda'));
    expect(calls).toEqual(['logout-all']);
    expect(await within(nav()).findByRole('link', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the frame usable while the session is asked: no cover, an inline status, a menu that works', async () => {
    const user = userEvent.setup();
    const { gate, release } = createGate();
    // On a bad connection the answer may take a minute; here it never comes until the test is done.
    server.use(
      http.get('*/api/site', () =>
        HttpResponse.json({ campaignName: 'Comando Zulia', leaderName: 'X', today: '2026-11-22' }),
      ),
      http.get('*/api/auth/session', async () => {
        await gate;
        return HttpResponse.json(ADMIN);
      }),
    );
    const queryClient = createTestQueryClient();
    render(
      <AppProvider queryClient={queryClient}>
        <MemoryRouter initialEntries={['/resultados']}>
          <Routes>
            <Route element={<RootLayout />}>
              <Route
                path="/resultados"
                element={
                  <RequireAccess path="/resultados" notFound={<p>no</p>}>
                    <p>RESULTADOS</p>
                  </RequireAccess>
                }
              />
              <Route path="*" element={<Where />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppProvider>,
    );
    const main = screen.getByRole('main');
    expect(within(main).getByRole('status')).toHaveTextContent('Confirmando…');
    expect(screen.queryByTestId('loading-cover')).not.toBeInTheDocument();
    await user.click(within(nav()).getByRole('link', { name: 'Agenda' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/agenda');
    release();
  });

  it('names the tab after the page and the campaign', async () => {
    renderLayout('/notas', ADMIN);
    await waitFor(() => expect(document.title).toBe('Notas · Comando Zulia'));
  });

  it('sends a person with a one-time password to /login, whatever page they open', async () => {
    renderLayout('/resultados', {
      ...ADMIN,
      user: { ...(ADMIN.user as NonNullable<Session['user']>), mustChangePassword: true },
      menu: [],
      home: null,
    });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
  });

  it('closes the menu on Escape and gives the focus back to its button', async () => {
    const user = userEvent.setup();
    renderLayout('/resultados', ADMIN);
    const button = await within(nav()).findByRole('button', { name: 'Abrir menú' });
    await user.click(button);
    await screen.findByTestId('mobile-menu');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('mobile-menu')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });

  it('counts the items waiting on the phone, and asks before signing out; the items stay, the lists go', async () => {
    const user = userEvent.setup();
    // A vote kept while the connection was down, and a list kept for offline use.
    server.use(http.post('*/api/validation/cabimas/records/7/vote', () => HttpResponse.error()));
    const kept = await deviceOutbox().addVote({
      owner: ADMIN.user?.email ?? '',
      slug: 'cabimas',
      recordId: 7,
      recordName: 'Persona 7',
      candidates: ['FA'],
    });
    saveCopy('summary|cabimas', 'cabimas', { total: 1, voted: 0, validated: 0 });
    await waitFor(async () => expect(await readCopy('summary|cabimas')).toBeDefined());

    renderLayout('/resultados', ADMIN);
    expect(await within(nav()).findByRole('link', { name: '1 envío pendiente' })).toHaveAttribute('href', '/envios');
    await user.click(await within(nav()).findByRole('button', { name: 'Cerrar sesión' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hay envíos sin terminar' });
    expect(dialog).toHaveTextContent('1 voto o foto de esta cuenta espera en este teléfono');
    // The safe answer is the one in focus: Enter keeps the items.
    expect(within(dialog).getByRole('button', { name: 'Cerrar sesión y conservarlos' })).toHaveFocus();
    // Asked, and still signed in until the person answers.
    expect(screen.getByTestId('where')).toHaveTextContent('/resultados');
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar sesión y conservarlos' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/agenda'));
    await waitFor(async () => expect(await readCopy('summary|cabimas')).toBeUndefined());
    expect(
      deviceOutbox()
        .unsent()
        .map((i) => i.key),
    ).toEqual([kept.key]);
  });

  it('deletes waiting items only after a second question that names them; refused items are not counted', async () => {
    const user = userEvent.setup();
    const email = ADMIN.user?.email ?? '';
    server.use(
      http.post('*/api/validation/cabimas/records/7/vote', () => HttpResponse.error()),
      http.post('*/api/validation/cabimas/records/8/vote', () =>
        HttpResponse.json(
          { statusCode: 409, error: 'Conflict', message: 'Este trámite ya fue votado.' },
          { status: 409 },
        ),
      ),
    );
    // Record 8's vote is refused (for good); record 7's waits for a connection.
    await deviceOutbox().addVote({
      owner: email,
      slug: 'cabimas',
      recordId: 8,
      recordName: 'Persona 8',
      candidates: [],
    });
    deviceOutbox().connect(email);
    await waitFor(() =>
      expect(
        deviceOutbox()
          .unsent(email)
          .map((i) => i.state),
      ).toEqual(['rejected']),
    );
    deviceOutbox().connect(null);
    await deviceOutbox().addVote({
      owner: email,
      slug: 'cabimas',
      recordId: 7,
      recordName: 'Persona 7',
      candidates: ['FA'],
    });

    renderLayout('/resultados', ADMIN);
    // The refusal can never succeed: the badge counts only what waits.
    expect(await within(nav()).findByRole('link', { name: '1 envío pendiente' })).toBeInTheDocument();
    await user.click(await within(nav()).findByRole('button', { name: 'Cerrar sesión' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hay envíos sin terminar' });
    expect(dialog).toHaveTextContent('1 voto o foto de esta cuenta espera en este teléfono');
    // No one-tap deletion: the first step only offers to think about it.
    expect(within(dialog).queryByRole('button', { name: /^Borrar y cerrar/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Borrar estos envíos…' }));
    const second = await screen.findByRole('dialog', { name: '¿Borrar 1 envío sin enviar?' });
    expect(within(second).getByRole('list', { name: 'Se perderán' })).toHaveTextContent('Voto (FA) de Persona 7');
    expect(within(second).getByRole('button', { name: 'No borrar' })).toHaveFocus();
    // 'No borrar' goes back to the first question; nothing was deleted or signed out.
    await user.click(within(second).getByRole('button', { name: 'No borrar' }));
    const back = await screen.findByRole('dialog', { name: 'Hay envíos sin terminar' });
    await user.click(within(back).getByRole('button', { name: 'Borrar estos envíos…' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: '¿Borrar 1 envío sin enviar?' })).getByRole('button', {
        name: 'Borrar y cerrar sesión',
      }),
    );
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/agenda'));
    // What waited is gone; the refusal stays, for its owner to read.
    await waitFor(() =>
      expect(
        deviceOutbox()
          .unsent(email)
          .map((i) => i.recordId),
      ).toEqual([8]),
    );
  });

  it('after a session ended elsewhere, forgets the lists and the person, keeps their items, and says so on /login', async () => {
    const email = ADMIN.user?.email ?? '';
    server.use(http.post('*/api/validation/cabimas/records/7/vote', () => HttpResponse.error()));
    await deviceOutbox().addVote({
      owner: email,
      slug: 'cabimas',
      recordId: 7,
      recordName: 'Persona 7',
      candidates: ['FA'],
    });
    saveCopy('summary|cabimas', 'cabimas', { total: 1, voted: 0, validated: 0 });
    await waitFor(async () => expect(await readCopy('summary|cabimas')).toBeDefined());
    // The phone knew this person; the server now says nobody (an admin ended the session).
    rememberOwner(email);
    renderLayout('/login', { user: null, menu: [], home: null, logoutRoute: '/' });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Tu sesión terminó. Tu 1 voto o foto guardado en este teléfono no se perdió: se enviará cuando vuelvas a entrar con tu cuenta.',
    );
    await waitFor(async () => expect(await readCopy('summary|cabimas')).toBeUndefined());
    expect(rememberedOwner()).toBeNull();
    expect(deviceOutbox().waiting(email)).toHaveLength(1);
    // Nobody's count in the navbar.
    expect(within(nav()).queryByRole('link', { name: /envío/ })).not.toBeInTheDocument();
  });

  it("forgets the lists it kept at its next contact after 'Borrar datos personales', once", async () => {
    const email = ADMIN.user?.email ?? '';
    rememberOwner(email);
    const page = { items: [{ id: 7, nombre: 'Yusmary Chourio', telefono: '0414-6123457' }], nextCursor: null };
    saveCopy('page|cabimas|0|0', 'cabimas', page);
    await waitFor(async () => expect(await readCopy('page|cabimas|0|0')).toBeDefined());
    // No purge yet: the copies stay.
    const first = renderLayout('/resultados', ADMIN);
    expect(await within(nav()).findByRole('link', { name: 'Notas' })).toBeInTheDocument();
    expect(await readCopy('page|cabimas|0|0')).toBeDefined();
    first.unmount();

    // The session now says a purge ran: the names and phones kept on the phone go.
    const second = renderLayout('/resultados', { ...ADMIN, personalDataPurgedAt: '2026-11-29T02:00:00.000Z' });
    await waitFor(async () => expect(await readCopy('page|cabimas|0|0')).toBeUndefined());
    await waitFor(() => expect(purgeSeen()).toBe('2026-11-29T02:00:00.000Z'));
    second.unmount();
    // What is read after it (initials, no phone) is kept again, and the same purge does not take it.
    saveCopy('page|cabimas|0|0', 'cabimas', { items: [], nextCursor: null });
    await waitFor(async () => expect(await readCopy('page|cabimas|0|0')).toBeDefined());
    renderLayout('/notas', { ...ADMIN, personalDataPurgedAt: '2026-11-29T02:00:00.000Z' });
    expect(await screen.findByTestId('where')).toHaveTextContent('/notas');
    expect(await readCopy('page|cabimas|0|0')).toBeDefined();
  });

  it('does not look signed out without a connection: the session and campaign the phone last knew', async () => {
    // Online once: the server confirms the session and the campaign's name.
    const online = renderLayout('/resultados', ADMIN);
    expect(await within(nav()).findByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    await waitFor(() => expect(within(nav()).getByRole('link', { name: 'Comando Zulia' })).toBeInTheDocument());
    online.unmount();

    server.use(http.get('*/api/*', () => HttpResponse.error()));
    const queryClient = createTestQueryClient();
    render(
      <AppProvider queryClient={queryClient}>
        <MemoryRouter initialEntries={['/resultados']}>
          <Routes>
            <Route element={<RootLayout />}>
              <Route path="*" element={<Where />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppProvider>,
    );
    expect(await within(nav()).findByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Comando Zulia' })).toBeInTheDocument();
    expect(within(nav()).queryByRole('link', { name: 'Iniciar sesión' })).not.toBeInTheDocument();
  });
});
