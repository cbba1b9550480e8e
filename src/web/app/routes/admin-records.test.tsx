import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { RecordAdmin } from '#shared/features/records-admin/records-admin';
import type { ImportEvent, ImportReport } from '#shared/features/records-import/records-import';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import RecordsSection from './admin-records';

const DEPARTMENTS = [
  { slug: 'cabimas', title: 'Cabimas', total: 2, voted: 1, validated: 0, voided: 0 },
  { slug: 'lagunillas', title: 'Lagunillas', total: 0, voted: 0, validated: 0, voided: 0 },
];

function record(id: number, overrides: Partial<RecordAdmin> = {}): RecordAdmin {
  return {
    id,
    departmentSlug: 'cabimas',
    departmentTitle: 'Cabimas',
    comunidad: 'Sector Los Olivos',
    nombre: `Persona ${id}`,
    ubch: 'UBCH 110100001',
    telefono: `0414-100000${id}`,
    status: 'pendiente',
    votedAt: null,
    votes: [],
    photos: 0,
    validated: false,
    votedBy: null,
    validatedBy: null,
    voteCounts: true,
    voteRevision: overrides.votedAt ? 1 : 0,
    code: '',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

function report(overrides: Partial<ImportReport> = {}): ImportReport {
  return {
    mode: 'simulacion',
    applied: false,
    fileName: 'registros.csv',
    bytes: 2048,
    encoding: 'utf-8',
    separator: ';',
    columns: { comunidad: 'Comunidades', nombre: 'Nombre', ubch: 'UBCH', telefono: 'Telefono', department: 'rephrase' },
    rows: 5,
    valid: 2,
    duplicatesInFile: 1,
    duplicatesInDatabase: 1,
    invalid: 1,
    fileProblems: [],
    rowProblems: [{ line: 4, column: 'Telefono', reason: 'El teléfono debe tener entre 7 y 15 dígitos.' }],
    rowProblemsTotal: 1,
    duplicates: [
      { line: 3, nombre: 'Ana Paz', telefono: '0414-1', department: 'Cabimas', sameAsLine: 2, sameAsRecord: null },
      { line: 5, nombre: 'Luis', telefono: '0414-2', department: 'Cabimas', sameAsLine: null, sameAsRecord: 77 },
    ],
    byDepartment: [{ slug: 'cabimas', title: 'Cabimas', rows: 2 }],
    durationMs: 30,
    ...overrides,
  };
}

const ndjson = (events: ImportEvent[]) =>
  new HttpResponse(events.map((e) => `${JSON.stringify(e)}\n`).join(''), {
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
  });

function api(records: RecordAdmin[] = [record(1), record(2, { votedAt: '2026-11-21T10:00:00.000Z', votes: ['FA'] })]) {
  const state = {
    records,
    posts: [] as unknown[],
    voids: [] as unknown[],
    restores: [] as unknown[],
    corrections: [] as unknown[],
    imports: [] as URLSearchParams[],
    lists: [] as URLSearchParams[],
  };
  server.use(
    http.get('*/api/admin/records/departments', () => HttpResponse.json({ items: DEPARTMENTS })),
    http.get('*/api/admin/records', ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.lists.push(params);
      const status = params.get('status');
      const department = params.get('department');
      const q = params.get('q')?.toLowerCase();
      const items = state.records.filter(
        (r) =>
          (!department || r.departmentSlug === department) &&
          (status === 'todos' || r.status === status) &&
          (!q || r.nombre.toLowerCase().includes(q)),
      );
      return HttpResponse.json({ items, nextCursor: null });
    }),
    http.post('*/api/admin/records', async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      state.posts.push(body);
      const created = record(state.records.length + 1, { ...body, departmentSlug: body.department });
      state.records.push(created);
      return HttpResponse.json({ message: 'Registro agregado.', record: created }, { status: 201 });
    }),
    http.post('*/api/admin/records/:id/void', async ({ request, params }) => {
      state.voids.push({ id: Number(params.id), body: await request.json() });
      const index = state.records.findIndex((r) => r.id === Number(params.id));
      const voided = { ...(state.records[index] as RecordAdmin), status: 'anulado' as const };
      state.records[index] = voided;
      return HttpResponse.json({ message: 'Registro anulado: ya no aparece en las listas.', record: voided });
    }),
    http.post('*/api/admin/records/:id/restore', async ({ request, params }) => {
      state.restores.push({ id: Number(params.id), body: await request.json() });
      const index = state.records.findIndex((r) => r.id === Number(params.id));
      const back = { ...(state.records[index] as RecordAdmin), status: 'pendiente' as const, voteCounts: true };
      state.records[index] = back;
      return HttpResponse.json({ message: 'Registro restaurado: vuelve a la lista de validación.', record: back });
    }),
    http.put('*/api/admin/records/:id/vote', async ({ request, params }) => {
      const body = (await request.json()) as { candidates: string[] | null; reason: string; voteRevision: number };
      state.corrections.push({ id: Number(params.id), body });
      const index = state.records.findIndex((r) => r.id === Number(params.id));
      const current = state.records[index] as RecordAdmin;
      // As the server: a correction of another vote than the current one is refused with the record as it is.
      if (body.voteRevision !== current.voteRevision) {
        return HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message:
              'El voto de este registro cambió mientras lo corregías. Revisa el voto actual y vuelve a intentarlo.',
            record: current,
          },
          { status: 409 },
        );
      }
      const fixed = { ...current, votes: body.candidates ?? [], voteRevision: current.voteRevision + 1 };
      state.records[index] = fixed;
      return HttpResponse.json({ message: 'Voto corregido: los resultados ya lo reflejan.', record: fixed });
    }),
    http.get('*/api/candidates', () =>
      HttpResponse.json({
        items: [
          { code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8', photoUrl: '/candidatos/fa.svg' },
          { code: 'LC', name: 'Luisa Contreras', colour: '#B45309', photoUrl: '/candidatos/lc.svg' },
          { code: 'NR', name: 'Nelson Rincón', colour: '#047857', photoUrl: '/candidatos/nr.svg' },
        ],
      }),
    ),
  );
  return state;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/registros/*" element={<RecordsSection />} />
    </Routes>,
    { route },
  );

describe('RecordsAdminPage: the list', () => {
  it('asks the server once the typing in Buscar stops, not once per key', async () => {
    const state = api();
    renderAt('/admin/registros');
    await screen.findByRole('article', { name: 'Persona 1' });
    const searches = () => state.lists.filter((params) => params.has('q')).map((params) => params.get('q'));

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Typed key by key (fireEvent: user-event waits on timers of its own, frozen here).
      const box = screen.getByLabelText('Buscar');
      for (let end = 1; end <= 'Persona 2'.length; end += 1) {
        fireEvent.change(box, { target: { value: 'Persona 2'.slice(0, end) } });
        await act(() => vi.advanceTimersByTimeAsync(100));
      }
      await act(() => vi.advanceTimersByTimeAsync(199));
      expect(searches()).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(1));
      await vi.waitFor(() => expect(searches()).toEqual(['Persona 2']));
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Persona 1' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Persona 2' })).toBeInTheDocument();
  });

  it('lists the municipality’s records with their state, and links the export to it', async () => {
    const voted = { votedAt: '2026-11-21T10:00:00.000Z', votes: ['FA'] };
    api([record(1), record(2, voted), record(3, { ...voted, photos: 3, validated: true })]);
    renderAt('/admin/registros?municipio=cabimas');
    const first = await screen.findByRole('article', { name: 'Persona 1' });
    expect(within(first).getByText('0414-1000001')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Persona 2' })).getByText('Votado: FA')).toBeInTheDocument();
    // The first filter shows every record not voided, the validated too, and its name says just that.
    expect(screen.getByRole('radio', { name: 'Sin anular' })).toBeChecked();
    expect(within(screen.getByRole('article', { name: 'Persona 3' })).getByText('Validado')).toBeInTheDocument();
    expect(screen.getByTestId('registros-resumen')).toHaveTextContent(
      'Cabimas: 2 trámites en la lista de validación (1 sin votar, 1 votado sin las tres fotos, 0 validados) y 0 anulados.',
    );
    expect(screen.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute(
      'href',
      '/api/admin/records/export.csv?department=cabimas&status=pendiente',
    );
  });

  it('shows each record’s SMS code, and after the close offers only what the server still takes', async () => {
    const voted = { votedAt: '2026-11-21T10:00:00.000Z', votes: ['FA'] };
    server.use(
      http.get('*/api/election', () =>
        HttpResponse.json({ phase: 'cerrada', closesAt: null, closedAt: '2026-11-22T05:02:00.000Z', lateArrivals: 0 }),
      ),
    );
    api([record(1, { code: '7K2M9X' }), record(2, voted), record(3, { status: 'anulado' })]);
    renderAt('/admin/registros?municipio=cabimas&estado=todos');
    const first = await screen.findByRole('article', { name: 'Persona 1' });
    expect(within(first).getByTestId('codigo-sms')).toHaveTextContent('7K2M9X');
    expect(await screen.findByTestId('registros-bloqueados')).toHaveTextContent(
      'La jornada cerró a la 1:02 a. m.: para corregir votos, anular o restaurar registros, reábrela en Jornada con un motivo.',
    );
    // Editing a record's details is still taken after the close; correcting, voiding and restoring are not.
    expect(within(first).getByRole('button', { name: 'Editar: Persona 1' })).toBeInTheDocument();
    const second = screen.getByRole('article', { name: 'Persona 2' });
    expect(within(second).queryByRole('button', { name: 'Corregir voto: Persona 2' })).not.toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: 'Anular: Persona 2' })).not.toBeInTheDocument();
    const third = screen.getByRole('article', { name: 'Persona 3' });
    expect(within(third).queryByRole('button', { name: 'Restaurar: Persona 3' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Buscar')).toHaveAttribute(
      'placeholder',
      'Nombre, teléfono, comunidad, UBCH o código SMS',
    );
  });

  it('offers correcting, voiding and restoring while the day is under way', async () => {
    const voted = { votedAt: '2026-11-21T10:00:00.000Z', votes: ['FA'] };
    api([record(2, voted), record(3, { status: 'anulado' })]);
    renderAt('/admin/registros?municipio=cabimas&estado=todos');
    const second = await screen.findByRole('article', { name: 'Persona 2' });
    expect(within(second).getByRole('button', { name: 'Corregir voto: Persona 2' })).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Anular: Persona 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restaurar: Persona 3' })).toBeInTheDocument();
    expect(screen.queryByTestId('registros-bloqueados')).not.toBeInTheDocument();
    // SMS off: a record without a code shows none.
    expect(within(second).queryByTestId('codigo-sms')).not.toBeInTheDocument();
  });

  it('opens on every municipality and parish: a search finds a person anywhere, each card naming where', async () => {
    const state = api([
      record(1, { nombre: 'Ana Finol' }),
      record(2, { nombre: 'Ana Paz', departmentSlug: 'lagunillas', departmentTitle: 'Lagunillas' }),
      record(3, { nombre: 'Luis Rincón' }),
    ]);
    const user = userEvent.setup();
    renderAt('/admin/registros');
    await screen.findByRole('article', { name: 'Luis Rincón' });
    expect(screen.getByLabelText('Municipio o parroquia')).toHaveValue('todos');
    expect(screen.getByRole('option', { name: 'Todos los municipios y parroquias (2)' })).toBeInTheDocument();
    expect(screen.getByTestId('registros-resumen')).toHaveTextContent(
      'Todos los municipios y parroquias: 2 trámites en la lista de validación (1 sin votar, 1 votado sin las tres fotos, 0 validados) y 0 anulados.',
    );
    // One municipality's export only: nothing to export for all of them at once.
    expect(screen.queryByRole('link', { name: 'Exportar CSV' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Buscar'), 'ana');
    const list = screen.getByRole('list', { name: 'Registros de todos los municipios y parroquias' });
    await waitFor(() => expect(within(list).getAllByRole('article')).toHaveLength(2));
    expect(within(screen.getByRole('article', { name: 'Ana Paz' })).getByText('Lagunillas')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Ana Finol' })).getByText('Cabimas')).toBeInTheDocument();
    const last = state.lists.at(-1);
    expect(last?.get('q')).toBe('ana');
    expect(last?.has('department')).toBe(false);

    // Choosing a municipality narrows the same search to it, and its cards no longer repeat its name.
    await user.selectOptions(screen.getByLabelText('Municipio o parroquia'), 'lagunillas');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Ana Finol' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('article', { name: 'Ana Paz' })).queryByText('Lagunillas')).not.toBeInTheDocument();
    expect(state.lists.at(-1)?.get('department')).toBe('lagunillas');
  });

  it('says on the card who voted the record and who validated it', async () => {
    api([
      record(1, {
        votedAt: '2026-11-21T10:00:00.000Z',
        votes: ['FA'],
        photos: 3,
        validated: true,
        votedBy: 'ana@example.org',
        validatedBy: 'luis@example.org',
      }),
      record(2),
    ]);
    renderAt('/admin/registros');
    const card = await screen.findByRole('article', { name: 'Persona 1' });
    expect(within(card).getByText('Votado por').nextSibling).toHaveTextContent('ana@example.org');
    expect(within(card).getByText('Validado por').nextSibling).toHaveTextContent('luis@example.org');
    expect(within(screen.getByRole('article', { name: 'Persona 2' })).queryByText(/por$/)).not.toBeInTheDocument();
  });

  it('checks a new record in the form, then adds it', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/registros');
    await screen.findByRole('article', { name: 'Persona 1' });
    await user.click(screen.getByRole('button', { name: 'Agregar registro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar registro' });
    await user.type(within(dialog).getByLabelText('Teléfono'), 'mañana');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar registro' }));
    expect(within(dialog).getByText('Escribe el nombre.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('El teléfono solo puede tener números, espacios, +, -, paréntesis y puntos.'),
    ).toBeInTheDocument();
    expect(state.posts).toEqual([]);
    await user.type(within(dialog).getByLabelText('Nombre'), 'José Finol');
    await user.clear(within(dialog).getByLabelText('Teléfono'));
    await user.type(within(dialog).getByLabelText('Teléfono'), '0424-1234567');
    await user.selectOptions(within(dialog).getByLabelText('Municipio o parroquia'), 'lagunillas');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar registro' }));
    expect(await screen.findByText('Registro agregado.')).toBeInTheDocument();
    expect(state.posts).toEqual([
      { department: 'lagunillas', comunidad: '', nombre: 'José Finol', ubch: '', telefono: '0424-1234567' },
    ]);
    // It shows the municipality the record went to.
    expect(await screen.findByRole('article', { name: 'José Finol' })).toBeInTheDocument();
  });

  it('voids a record after asking whether its vote still counts (no, by default) and why', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/registros');
    await user.click(await screen.findByRole('button', { name: 'Anular: Persona 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anular registro' });
    const counts = within(dialog).getByRole('group', { name: '¿Su voto (FA) sigue contando en los resultados?' });
    expect(within(counts).getByRole('radio', { name: 'No, deja de contar' })).toBeChecked();
    // The reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Anular registro' }));
    expect(within(dialog).getByText('Escribe el motivo: queda en el registro de auditoría.')).toBeInTheDocument();
    expect(state.voids).toEqual([]);
    await user.type(within(dialog).getByLabelText('Motivo'), 'Repetido');
    await user.click(within(dialog).getByRole('button', { name: 'Anular registro' }));
    expect(await screen.findByText('Registro anulado: ya no aparece en las listas.')).toBeInTheDocument();
    expect(state.voids).toEqual([{ id: 2, body: { reason: 'Repetido', voteCounts: false } }]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Persona 2' })).not.toBeInTheDocument());
  });

  it('closes the void dialog with Escape while its request is held; opened again, it does not send it twice', async () => {
    const state = api();
    const { gate, release } = createGate();
    let held = 0;
    server.use(
      http.post('*/api/admin/records/:id/void', async ({ request, params }) => {
        held += 1;
        state.voids.push({ id: Number(params.id), body: await request.json() });
        await gate;
        const index = state.records.findIndex((r) => r.id === Number(params.id));
        const voided = { ...(state.records[index] as RecordAdmin), status: 'anulado' as const };
        state.records[index] = voided;
        return HttpResponse.json({ message: 'Registro anulado: ya no aparece en las listas.', record: voided });
      }),
    );
    const user = userEvent.setup();
    renderAt('/admin/registros');
    await user.click(await screen.findByRole('button', { name: 'Anular: Persona 2' }));
    let dialog = await screen.findByRole('dialog', { name: 'Anular registro' });
    await user.type(within(dialog).getByLabelText('Motivo'), 'Repetido');
    await user.click(within(dialog).getByRole('button', { name: 'Anular registro' }));
    await waitFor(() => expect(held).toBe(1));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Anular: Persona 2' }));
    dialog = await screen.findByRole('dialog', { name: 'Anular registro' });
    await user.type(within(dialog).getByLabelText('Motivo'), 'Otra vez');
    expect(within(dialog).getByRole('button', { name: 'Anular registro' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    release();
    expect(await screen.findByText('Registro anulado: ya no aparece en las listas.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Persona 2' })).not.toBeInTheDocument());
    expect(state.voids).toEqual([{ id: 2, body: { reason: 'Repetido', voteCounts: false } }]);
  });

  it('keeps the vote of a voided record when told it still counts', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/registros');
    await user.click(await screen.findByRole('button', { name: 'Anular: Persona 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Anular registro' });
    await user.click(within(dialog).getByRole('radio', { name: 'Sí, sigue contando' }));
    await user.type(within(dialog).getByLabelText('Motivo'), 'Se mudó');
    await user.click(within(dialog).getByRole('button', { name: 'Anular registro' }));
    await screen.findByText('Registro anulado: ya no aparece en las listas.');
    expect(state.voids).toEqual([{ id: 2, body: { reason: 'Se mudó', voteCounts: true } }]);
  });

  it('restores a voided record whose vote had stopped counting, with the reason', async () => {
    const state = api([
      record(3, { status: 'anulado', votedAt: '2026-11-21T10:00:00.000Z', votes: ['LC'], voteCounts: false }),
    ]);
    const user = userEvent.setup();
    renderAt('/admin/registros?estado=anulado');
    const card = await screen.findByRole('article', { name: 'Persona 3' });
    expect(card).toHaveTextContent('LC (no cuenta en los resultados)');
    await user.click(within(card).getByRole('button', { name: 'Restaurar: Persona 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restaurar registro' });
    expect(dialog).toHaveTextContent('su voto vuelve a contar en los resultados');
    await user.type(within(dialog).getByLabelText('Motivo'), 'No era repetido');
    await user.click(within(dialog).getByRole('button', { name: 'Restaurar registro' }));
    expect(await screen.findByText('Registro restaurado: vuelve a la lista de validación.')).toBeInTheDocument();
    expect(state.restores).toEqual([{ id: 3, body: { reason: 'No era repetido' } }]);
  });

  it('corrects a vote (other candidates, or none), and clears one, each with its reason', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/registros');
    // Only a voted record offers the correction.
    expect(
      within(await screen.findByRole('article', { name: 'Persona 1' })).queryByRole('button', { name: /Corregir/ }),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Corregir voto: Persona 2' }));
    let dialog = await screen.findByRole('dialog', { name: 'Corregir voto' });
    expect(dialog).toHaveTextContent('Voto actual de Persona 2: FA.');
    expect(await within(dialog).findByRole('checkbox', { name: 'FA Fernando Álvarez' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'FA Fernando Álvarez' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'NR Nelson Rincón' }));
    await user.type(within(dialog).getByLabelText('Motivo'), 'Marcó NR');
    await user.click(within(dialog).getByRole('button', { name: 'Corregir voto' }));
    expect(await screen.findByText('Voto corregido: los resultados ya lo reflejan.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Corregir voto: Persona 2' }));
    dialog = await screen.findByRole('dialog', { name: 'Corregir voto' });
    await user.click(within(dialog).getByRole('radio', { name: /Borrar el voto/ }));
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Motivo'), 'Persona equivocada');
    await user.click(within(dialog).getByRole('button', { name: 'Borrar voto' }));
    await waitFor(() => expect(state.corrections).toHaveLength(2));
    // Each names the vote it corrects: the first the validator's, the second the first correction.
    expect(state.corrections).toEqual([
      { id: 2, body: { reason: 'Marcó NR', candidates: ['NR'], voteRevision: 1 } },
      { id: 2, body: { reason: 'Persona equivocada', candidates: null, voteRevision: 2 } },
    ]);
  });

  it('when the vote changed meanwhile, says so and shows the vote as it is now; the next try corrects that one', async () => {
    const state = api();
    const user = userEvent.setup();
    renderAt('/admin/registros');
    await user.click(await screen.findByRole('button', { name: 'Corregir voto: Persona 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Corregir voto' });
    expect(dialog).toHaveTextContent('Voto actual de Persona 2: FA.');
    await user.click(await within(dialog).findByRole('checkbox', { name: 'NR Nelson Rincón' }));
    await user.type(within(dialog).getByLabelText('Motivo'), 'Marcó NR');
    // Another admin corrects the same vote first.
    state.records[1] = { ...(state.records[1] as RecordAdmin), votes: ['LC'], voteRevision: 2 };
    await user.click(within(dialog).getByRole('button', { name: 'Corregir voto' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'El voto de este registro cambió mientras lo corregías. Revisa el voto actual y vuelve a intentarlo.',
    );
    expect(dialog).toHaveTextContent('Voto actual de Persona 2: LC.');
    expect(screen.queryByText('Voto corregido: los resultados ya lo reflejan.')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Corregir voto' }));
    expect(await screen.findByText('Voto corregido: los resultados ya lo reflejan.')).toBeInTheDocument();
    expect(state.corrections).toEqual([
      { id: 2, body: { reason: 'Marcó NR', candidates: ['FA', 'NR'], voteRevision: 1 } },
      { id: 2, body: { reason: 'Marcó NR', candidates: ['FA', 'NR'], voteRevision: 2 } },
    ]);
  });
});

describe('RecordsAdminPage: the CSV import', () => {
  it('reviews the file first (report by line, duplicates), then imports only the valid rows when asked', async () => {
    const state = api();
    server.use(
      http.post('*/api/admin/records/import', ({ request }) => {
        const params = new URL(request.url).searchParams;
        state.imports.push(params);
        if (params.get('mode') === 'simulacion') {
          return ndjson([
            { type: 'progress', phase: 'revisando', done: 1024, total: 4096 },
            {
              type: 'result',
              status: 200,
              body: { message: 'Revisión terminada: todavía no se importó nada.', report: report() },
            },
          ]);
        }
        return ndjson([
          { type: 'progress', phase: 'guardando', done: 5, total: 5 },
          {
            type: 'result',
            status: 201,
            body: {
              message: 'Se importaron 2 registros.',
              report: report({ mode: 'importar', applied: true }),
            },
          },
        ]);
      }),
    );
    const user = userEvent.setup();
    renderAt('/admin/registros/importar');
    const input = await screen.findByLabelText('Archivo CSV');
    await user.upload(input, new File(['Comunidades;Nombre\n'], 'registros.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Revisar el archivo' }));

    expect(await screen.findByText('Revisión terminada: todavía no se importó nada.')).toBeInTheDocument();
    expect(screen.getByTestId('import-rows')).toHaveTextContent('5');
    expect(screen.getByTestId('import-valid')).toHaveTextContent('2');
    expect(screen.getByTestId('import-invalid')).toHaveTextContent('1');
    const errors = screen.getByRole('table', { name: /Filas con errores/ });
    expect(
      within(errors).getByRole('row', { name: /4 Telefono El teléfono debe tener entre 7 y 15 dígitos\./ }),
    ).toBeInTheDocument();
    const duplicates = screen.getByRole('table', { name: /Repetidas/ });
    expect(within(duplicates).getByText('la línea 2')).toBeInTheDocument();
    expect(within(duplicates).getByText('el registro 77')).toBeInTheDocument();
    expect(state.imports[0]?.get('mode')).toBe('simulacion');

    await user.click(screen.getByRole('button', { name: 'Importar solo las 2 filas válidas' }));
    expect(await screen.findByText('Importación terminada')).toBeInTheDocument();
    expect(screen.getAllByText('Se importaron 2 registros.').length).toBeGreaterThan(0);
    expect(state.imports[1]?.get('mode')).toBe('importar');
    expect(state.imports[1]?.get('omitInvalid')).toBe('1');
    expect(screen.getByRole('link', { name: 'Ver los registros' })).toHaveAttribute('href', '/admin/registros');
  });

  it('shows why a malformed file cannot be imported, and offers no import', async () => {
    api();
    server.use(
      http.post('*/api/admin/records/import', () =>
        HttpResponse.json(
          {
            message: 'No se importó nada: el archivo tiene problemas que impiden leerlo.',
            report: report({
              rows: 0,
              valid: 0,
              invalid: 0,
              rowProblems: [],
              duplicates: [],
              byDepartment: [],
              fileProblems: [
                {
                  line: 3,
                  column: null,
                  reason:
                    'Comillas sin cerrar: el campo que empieza en la línea 3 no se cierra antes del fin del archivo.',
                },
              ],
            }),
          },
          { status: 422 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderAt('/admin/registros/importar');
    await user.upload(await screen.findByLabelText('Archivo CSV'), new File(['"x'], 'malo.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Revisar el archivo' }));
    expect(
      await screen.findByText('No se importó nada: el archivo tiene problemas que impiden leerlo.'),
    ).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'Línea 3: Comillas sin cerrar: el campo que empieza en la línea 3 no se cierra antes del fin del archivo.',
    );
    expect(screen.queryByRole('button', { name: /^Importar/ })).not.toBeInTheDocument();
  });

  it('shows the upload and server phases as a labelled progress bar', async () => {
    api();
    const { gate, release } = createGate();
    server.use(
      http.post('*/api/admin/records/import', async () => {
        await gate;
        return ndjson([
          {
            type: 'result',
            status: 200,
            body: { message: 'Revisión terminada: todavía no se importó nada.', report: report() },
          },
        ]);
      }),
    );
    const user = userEvent.setup();
    renderAt('/admin/registros/importar');
    await user.upload(await screen.findByLabelText('Archivo CSV'), new File(['a'], 'r.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Revisar el archivo' }));
    const bar = await screen.findByRole('progressbar', { name: 'Avance de la importación' });
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByRole('button', { name: 'Revisando…' })).toBeDisabled();
    release();
    expect(await screen.findByText('Revisión terminada: todavía no se importó nada.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
