import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { AdminDepartment } from '#shared/features/departments/departments';
import type { AdminUser, BulkAccessResult, CreateUserResult } from '#shared/features/people/people';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import PeopleAdminPage from './people-admin-page';

const user = (id: number, email: string, over: Partial<AdminUser> = {}): AdminUser => ({
  id,
  email,
  role: 'staff',
  disabled: false,
  lastLoginAt: null,
  createdAt: '2026-11-01T12:00:00.000Z',
  secondFactor: false,
  departments: [],
  smsPhones: [],
  ...over,
});

const USERS = [
  user(1, 'jefa@example.org', { role: 'admin', lastLoginAt: '2026-11-22T14:05:00.000Z' }),
  user(2, 'ana@example.org', { departments: [{ slug: 'cabimas', title: 'Cabimas' }], secondFactor: true }),
  user(3, 'apagada@example.org', { disabled: true }),
];

const DEPARTMENTS: { items: AdminDepartment[] } = {
  items: [
    {
      slug: 'resultados',
      title: 'Resultados',
      kind: 'page',
      path: '/resultados',
      members: 0,
      total: 0,
      voted: 0,
      validated: 0,
    },
    {
      slug: 'cabimas',
      title: 'Cabimas',
      kind: 'municipality',
      path: '/validation/cabimas',
      members: 1,
      total: 4,
      voted: 2,
      validated: 1,
    },
    {
      slug: 'sucre',
      title: 'Sucre',
      kind: 'municipality',
      path: '/validation/sucre',
      members: 0,
      total: 0,
      voted: 0,
      validated: 0,
    },
  ],
};

function api() {
  const state = { queries: [] as URLSearchParams[], bodies: [] as { url: string; method: string; body: unknown }[] };
  const record = async (request: Request) => {
    const body = await request.json();
    state.bodies.push({ url: new URL(request.url).pathname, method: request.method, body });
    return body as Record<string, unknown>;
  };
  server.use(
    http.get('*/api/auth/session', () =>
      HttpResponse.json({
        user: { email: 'jefa@example.org', role: 'admin' },
        menu: [{ title: 'Administración', path: '/admin', sections: ['personas'] }],
        home: '/admin',
        logoutRoute: '/',
      }),
    ),
    http.get('*/api/admin/users', ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.queries.push(params);
      const q = params.get('q') ?? '';
      const items = USERS.filter((u) => u.email.includes(q));
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 50 });
    }),
    http.post('*/api/admin/users', async ({ request }) => {
      await record(request);
      const body: CreateUserResult = {
        user: user(9, 'nueva@example.org', { departments: [{ slug: 'sucre', title: 'Sucre' }] }),
        oneTimePassword: 'k7mp-x2qa-9fht',
      };
      return HttpResponse.json(body, { status: 201 });
    }),
    http.patch('*/api/admin/users/:id', async ({ request, params }) => {
      await record(request);
      return HttpResponse.json({ ...USERS.find((u) => u.id === Number(params.id)), disabled: true });
    }),
    http.put('*/api/admin/users/:id/sms-phones', async ({ request }) => {
      await record(request);
      return HttpResponse.json({ ...(USERS[1] as AdminUser), smsPhones: ['+584141234567'] });
    }),
    http.post('*/api/admin/users/:id/sessions/end', ({ request }) => {
      state.bodies.push({ url: new URL(request.url).pathname, method: request.method, body: null });
      return HttpResponse.json({ user: USERS[1], sessionsEnded: 3 });
    }),
    http.post('*/api/admin/users/:id/second-factor/reset', ({ request }) => {
      state.bodies.push({ url: new URL(request.url).pathname, method: request.method, body: null });
      return HttpResponse.json({ user: { ...USERS[1], secondFactor: false } });
    }),
    http.post('*/api/admin/users/:id/password', async ({ request }) => {
      await record(request);
      return HttpResponse.json({ user: USERS[1], oneTimePassword: 'abcd-efgh-jkmn', sessionsEnded: 2 });
    }),
    http.post('*/api/admin/access/bulk', async ({ request }) => {
      const body = await record(request);
      const result: BulkAccessResult = {
        slug: 'sucre',
        title: 'Sucre',
        action: 'grant',
        dryRun: body.dryRun === true,
        lines: [
          {
            line: 1,
            text: 'uno@lote.org',
            email: 'uno@lote.org',
            status: 'added',
            message: 'Recibirá acceso. Todavía no tiene cuenta.',
            hasAccount: false,
          },
          {
            line: 2,
            text: 'nada',
            email: null,
            status: 'invalid',
            message: 'No es un correo válido.',
            hasAccount: null,
          },
        ],
        summary: { changed: 1, unchanged: 0, invalid: 1, duplicate: 0 },
      };
      return HttpResponse.json(result);
    }),
  );
  return state;
}

const renderPage = (passwordsHere = true) =>
  renderWithProviders(<PeopleAdminPage departments={DEPARTMENTS.items} passwordsHere={passwordsHere} />, {
    route: '/admin/personas',
  });

describe('PeopleAdminPage', () => {
  it('lists accounts with role, state, last sign-in and departments; no changes offered on one’s own account', async () => {
    api();
    renderPage();
    const ana = await screen.findByRole('article', { name: 'ana@example.org' });
    expect(within(ana).getByText('Personal')).toBeInTheDocument();
    expect(within(ana).getByText('Cabimas')).toBeInTheDocument();
    expect(within(ana).getByText('Nunca ha iniciado sesión')).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'apagada@example.org' })).getByText('Desactivada'),
    ).toBeInTheDocument();
    const me = screen.getByRole('article', { name: 'jefa@example.org' });
    expect(within(me).getByText(/^Último ingreso: 22 nov/)).toBeInTheDocument();
    expect(within(me).queryByRole('button', { name: /Desactivar/ })).not.toBeInTheDocument();
    expect(screen.getByText('Mostrando 1–3 de 3 personas')).toBeInTheDocument();
  });

  it('searches by e-mail once typing stops', async () => {
    const state = api();
    renderPage();
    await screen.findByRole('article', { name: 'ana@example.org' });
    await userEvent.type(screen.getByLabelText('Buscar por correo'), 'ana');
    await waitFor(() => expect(state.queries.at(-1)?.get('q')).toBe('ana'));
    expect(state.queries.filter((q) => q.get('q') === 'a')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'jefa@example.org' })).not.toBeInTheDocument());
  });

  it('creates an account: checks the e-mail first, then shows the one-time password once with a copy button', async () => {
    const state = api();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Nueva persona' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva persona' });
    await userEvent.type(within(dialog).getByLabelText('Correo electrónico'), 'no-es-correo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear cuenta' }));
    expect(await within(dialog).findByText('El formato del email es inválido.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Correo electrónico')).toHaveAttribute('aria-invalid', 'true');
    expect(state.bodies).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText('Correo electrónico'));
    await userEvent.type(within(dialog).getByLabelText('Correo electrónico'), ' Nueva@Example.org');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Sucre' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear cuenta' }));
    const secret = await screen.findByRole('dialog', { name: 'Contraseña temporal' });
    expect(state.bodies[0]).toEqual({
      url: '/api/admin/users',
      method: 'POST',
      body: { email: 'nueva@example.org', role: 'staff', password: null, departments: ['sucre'] },
    });
    expect(within(secret).getByTestId('one-time-password-value')).toHaveTextContent('k7mp-x2qa-9fht');
    expect(within(secret).getByText(/no se volverá a mostrar/)).toBeInTheDocument();
    expect(within(secret).getByRole('note')).toHaveTextContent('Vale 72 horas.');
    await userEvent.click(within(secret).getByRole('button', { name: 'Copiar contraseña' }));
    expect(writeText).toHaveBeenCalledWith('k7mp-x2qa-9fht');
    expect(await screen.findByText('Contraseña copiada')).toBeInTheDocument();
    await userEvent.click(within(secret).getByRole('button', { name: 'Listo' }));
    await waitFor(() => expect(screen.queryByText('k7mp-x2qa-9fht')).not.toBeInTheDocument());
  });

  it('asks a password the admin writes for at least 10 characters before sending it', async () => {
    const state = api();
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Nueva persona' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva persona' });
    await userEvent.type(within(dialog).getByLabelText('Correo electrónico'), 'nueva@example.org');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Escribirla yo' }));
    expect(within(dialog).getByText('Al menos 10 caracteres, y que no se adivine fácilmente.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Contraseña nueva'), 'corta-123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear cuenta' }));
    expect(
      await within(dialog).findByText('Una contraseña nueva debe tener al menos 10 caracteres.'),
    ).toBeInTheDocument();
    expect(state.bodies).toHaveLength(0);
  });

  it('asks for no password where Firebase Auth checks them: none to write, none to generate, none to reset', async () => {
    const state = api();
    renderPage(false);
    const ana = await screen.findByRole('article', { name: 'ana@example.org' });
    expect(within(ana).queryByRole('button', { name: /Nueva contraseña/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Nueva persona' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva persona' });
    expect(within(dialog).queryByRole('group', { name: 'Contraseña' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/Entrará con su cuenta de Firebase/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Correo electrónico'), 'nueva@example.org');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear cuenta' }));
    await waitFor(() => expect(state.bodies).toHaveLength(1));
    expect(state.bodies[0]?.body).toMatchObject({ email: 'nueva@example.org', password: null });
  });

  it('asks before disabling an account, and resets a password showing the new one', async () => {
    const state = api();
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Desactivar: ana@example.org' }));
    const confirm = await screen.findByRole('dialog', { name: 'Desactivar cuenta' });
    expect(within(confirm).getByText(/se cerrarán sus sesiones abiertas/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Desactivar' }));
    await waitFor(() =>
      expect(state.bodies.at(-1)).toEqual({ url: '/api/admin/users/2', method: 'PATCH', body: { disabled: true } }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Nueva contraseña: ana@example.org' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Nueva contraseña' })).getByRole('button', {
        name: 'Generar contraseña',
      }),
    );
    const secret = await screen.findByRole('dialog', { name: 'Contraseña temporal' });
    expect(within(secret).getByTestId('one-time-password-value')).toHaveTextContent('abcd-efgh-jkmn');
    expect(state.bodies.at(-1)).toEqual({ url: '/api/admin/users/2/password', method: 'POST', body: {} });
  });

  it('closes the password dialog while its request is held, and still shows the new password when it comes', async () => {
    api();
    const { gate, release } = createGate();
    let held = 0;
    server.use(
      http.post('*/api/admin/users/:id/password', async () => {
        held += 1;
        await gate;
        return HttpResponse.json({ user: USERS[1], oneTimePassword: 'abcd-efgh-jkmn', sessionsEnded: 2 });
      }),
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Nueva contraseña: ana@example.org' }));
    const confirm = await screen.findByRole('dialog', { name: 'Nueva contraseña' });
    await user.click(within(confirm).getByRole('button', { name: 'Generar contraseña' }));
    await waitFor(() => expect(held).toBe(1));
    expect(within(confirm).getByRole('button', { name: 'Generar contraseña' })).toBeDisabled();
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    release();
    // The server shows it once only: it is not lost because the dialog that asked was closed.
    const secret = await screen.findByRole('dialog', { name: 'Contraseña temporal' });
    expect(within(secret).getByTestId('one-time-password-value')).toHaveTextContent('abcd-efgh-jkmn');
    expect(held).toBe(1);
  });

  it('signs a person out on every device after asking, and says how many sessions ended', async () => {
    const state = api();
    renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Cerrar sesión en todos los dispositivos: ana@example.org' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Cerrar sesión en todos los dispositivos' });
    expect(within(confirm).getByText(/Podrá volver a entrar con su contraseña/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cerrar sus sesiones' }));
    expect(await screen.findByText('Se cerraron 3 sesiones de ana@example.org')).toBeInTheDocument();
    expect(state.bodies.at(-1)).toEqual({ url: '/api/admin/users/2/sessions/end', method: 'POST', body: null });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Not on the admin's own card, nor on a disabled account (it has no sessions).
    for (const email of ['jefa@example.org', 'apagada@example.org']) {
      expect(
        screen.queryByRole('button', { name: `Cerrar sesión en todos los dispositivos: ${email}` }),
      ).not.toBeInTheDocument();
    }
  });

  it('says who has a second factor, and offers to remove it only there', async () => {
    api();
    renderPage();
    const card = async (email: string) => screen.getByRole('article', { name: email });
    await screen.findByRole('button', { name: 'Quitar segundo factor: ana@example.org' });
    expect(within(await card('ana@example.org')).getByText('Segundo factor: activo')).toBeInTheDocument();
    for (const email of ['jefa@example.org', 'apagada@example.org']) {
      expect(within(await card(email)).getByText('Segundo factor: no')).toBeInTheDocument();
    }
    // Not on an account without one, nor on the admin's own card.
    expect(
      screen.queryByRole('button', { name: 'Quitar segundo factor: apagada@example.org' }),
    ).not.toBeInTheDocument();
  });

  it('sets the numbers a person votes by SMS from, one a line', async () => {
    const state = api();
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Números para SMS: ana@example.org' }));
    const dialog = await screen.findByRole('dialog', { name: 'Números para votar por SMS' });
    await userEvent.type(within(dialog).getByLabelText('Números'), '0414-123 45 67{enter}0424 7654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar números' }));
    expect(await screen.findByText('Números para SMS de ana@example.org guardados')).toBeInTheDocument();
    expect(state.bodies.at(-1)).toEqual({
      url: '/api/admin/users/2/sms-phones',
      method: 'PUT',
      body: { phones: ['0414-123 45 67', '0424 7654321'] },
    });
  });

  it('removes a person’s second factor after asking (a lost phone), never on the admin’s own card', async () => {
    const state = api();
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Quitar segundo factor: ana@example.org' }));
    const confirm = await screen.findByRole('dialog', { name: 'Quitar segundo factor' });
    expect(within(confirm).getByText(/Queda en la auditoría/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Quitar segundo factor' }));
    expect(
      await screen.findByText('Segundo factor quitado a ana@example.org; sus sesiones se cerraron.'),
    ).toBeInTheDocument();
    expect(state.bodies.at(-1)).toEqual({ url: '/api/admin/users/2/second-factor/reset', method: 'POST', body: null });
    expect(screen.queryByRole('button', { name: 'Quitar segundo factor: jefa@example.org' })).not.toBeInTheDocument();
  });

  it('gives access in bulk: review first, then apply, with a report per line', async () => {
    const state = api();
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Acceso en bloque' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acceso en bloque' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revisar' }));
    expect(await within(dialog).findByText('Pega al menos un correo.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Correos'), 'uno@lote.org{enter}nada');
    await userEvent.selectOptions(within(dialog).getByLabelText('Departamento'), 'sucre');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revisar' }));
    const report = await within(dialog).findByTestId('bulk-report');
    expect(within(report).getByRole('status')).toHaveTextContent(
      'Revisión (sin cambios): 1 reciben acceso en Sucre; 0 sin cambio; 1 línea inválida; 0 repetidas.',
    );
    expect(within(report).getByText('Se añadirá')).toBeInTheDocument();
    expect(within(report).getByText('No es un correo válido.')).toBeInTheDocument();
    expect(state.bodies.at(-1)?.body).toEqual({
      text: 'uno@lote.org\nnada',
      slug: 'sucre',
      action: 'grant',
      dryRun: true,
    });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Aplicar' }));
    await waitFor(() => expect(within(dialog).getByText('Añadido')).toBeInTheDocument());
    expect(state.bodies.at(-1)?.body).toMatchObject({ dryRun: false });
    // Invalid lines stay in the box to be fixed.
    expect(within(dialog).getByLabelText('Correos')).toHaveValue('uno@lote.org\nnada');
  });
});
