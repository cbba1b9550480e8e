import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PhotoUploadResult } from '#shared/features/photos/photos';
import type { RecordsPage, RecordsSummary } from '#shared/features/records/records';
import type { ProcedureRecord } from '#shared/platform/records';
import { preparePhoto } from '#web/features/photos/prepare-photo';
import { rightSizeInWorker } from '#web/features/photos/right-size-client';
import { ValidationPage } from '#web/features/records/components/validation-page';
import { BACKOFF } from '#web/features/records/outbox/outbox';
import { createGate } from '#web/testing/gate';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { type TusUploadInfo, tusPhotoHandlers } from '#web/testing/tus-msw';

// jsdom has no OffscreenCanvas: the real worker client sends every photo as it is. Cases that need a
// right-sized photo say what the worker answers.
vi.mock('#web/features/photos/right-size-client', async (importOriginal) => {
  const real = await importOriginal<typeof import('#web/features/photos/right-size-client')>();
  return { ...real, rightSizeInWorker: vi.fn(real.rightSizeInWorker) };
});

const CANDIDATES = {
  items: [
    { code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8', photoUrl: '/candidatos/fa.svg' },
    { code: 'LC', name: 'Luisa Contreras', colour: '#B45309', photoUrl: '/candidatos/lc.svg' },
    { code: 'NR', name: 'Nelson Rincón', colour: '#047857', photoUrl: '/candidatos/nr.svg' },
  ],
};

function record(id: number, overrides: Partial<ProcedureRecord> = {}): ProcedureRecord {
  return {
    id,
    comunidad: `Sector ${id}`,
    nombre: `Persona ${id}`,
    ubch: `UBCH 1101000${id}`,
    telefono: `0414-000000${id}`,
    status: 'pendiente',
    votedAt: null,
    votes: [],
    photos: { gobernador: null, an: null, clez: null },
    validated: false,
    votedBy: null,
    validatedBy: null,
    voteCorrected: false,
    code: 'W79F5Y',
    ...overrides,
  };
}

const slot = (id: number) => ({ id, url: `/api/photos/${id}`, thumbUrl: `/api/photos/${id}?variant=thumb` });

/** A small API: records, summary and candidates of one department, with what each request asked. */
function api(options: { records: ProcedureRecord[]; summary?: RecordsSummary; pageSize?: number }) {
  const state = {
    records: options.records.slice(),
    summary: options.summary ?? { total: options.records.length, voted: 0, validated: 0 },
    listQueries: [] as URLSearchParams[],
    votes: [] as { id: number; body: unknown }[],
  };
  const pageSize = options.pageSize ?? 100;
  server.use(
    http.get('*/api/candidates', () => HttpResponse.json(CANDIDATES)),
    http.get('*/api/photo-settings', () => HttpResponse.json({ sendOriginals: false })),
    http.get('*/api/validation/cabimas/summary', () => HttpResponse.json(state.summary)),
    http.get('*/api/validation/cabimas/records', ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.listQueries.push(params);
      const after = Number(params.get('after') ?? 0);
      const q = (params.get('q') ?? '').toLowerCase();
      const matching = state.records.filter(
        (r) => r.id > after && (!q || r.nombre.toLowerCase().includes(q)) && (params.get('validated') || !r.validated),
      );
      const items = matching.slice(0, pageSize);
      const body: RecordsPage = {
        items,
        nextCursor: matching.length > pageSize ? (items.at(-1)?.id ?? null) : null,
      };
      return HttpResponse.json(body);
    }),
  );
  return state;
}

const ANA = 'ana@example.org';
// The outbox's keys: UUIDs version 7, time first (decision 090).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const renderPage = (props: { owner?: string | null; onSessionEnded?: () => void } = {}) =>
  renderWithProviders(
    <ValidationPage slug="cabimas" title="CABIMAS" owner={ANA} preparePhoto={preparePhoto} {...props} />,
    {
      route: '/validation/cabimas',
    },
  );

/** The state the card shows for each of its items, in order. */
const cardStates = (name: string) =>
  within(screen.getByRole('article', { name }))
    .queryAllByTestId('envio-estado')
    .map((el) => el.textContent);

// Each case drives a whole page through dialogs and uploads in jsdom: seconds each on a busy machine.
describe('ValidationPage', { timeout: 30_000 }, () => {
  it('shows the title, the progress and each record’s community, UBCH, name and phone', async () => {
    api({ records: [record(1), record(2)], summary: { total: 10, voted: 4, validated: 3 } });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'CABIMAS' })).toBeInTheDocument();
    const card = await screen.findByRole('article', { name: 'Persona 1' });
    expect(within(card).getByText('Sector 1')).toBeInTheDocument();
    expect(within(card).getByText('UBCH 11010001')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '0414-0000001' })).toHaveAttribute('href', 'tel:04140000001');
    expect(within(card).getByRole('button', { name: 'Votar: Persona 1' })).toBeEnabled();
    for (const label of ['Gobernador', 'AN', 'CLEZ']) {
      expect(within(card).getByLabelText(`Subir foto ${label} de Persona 1`)).toBeInTheDocument();
    }
    expect(screen.getByText('3 de 10 validados')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Progreso' })).toHaveTextContent('30,00 %');
    expect(screen.getByRole('progressbar', { name: '3 de 10 validados' })).toHaveAttribute('aria-valuenow', '3');
  });

  it('votes: saves the vote on the phone, closes the dialog at once, sends it with a key and says so on the card', async () => {
    const user = userEvent.setup();
    const state = api({ records: [record(1), record(2)] });
    const { gate, release } = createGate();
    const keys: (string | null)[] = [];
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', async ({ params, request }) => {
        const id = Number(params.id);
        const body = (await request.json()) as { candidates: string[] };
        keys.push(request.headers.get('idempotency-key'));
        await gate;
        state.votes.push({ id, body });
        state.summary = { ...state.summary, voted: state.summary.voted + 1 };
        return HttpResponse.json(
          {
            message: 'Votaste con éxito',
            record: record(id, { votedAt: new Date().toISOString(), votes: body.candidates }),
          },
          { status: 201 },
        );
      }),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Votar: Persona 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Votar' });
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(3);
    await user.click(within(dialog).getByRole('checkbox', { name: /FA\s*Fernando Álvarez/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /NR\s*Nelson Rincón/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));

    // Saved on the phone: the dialog is gone before the server answers, and the card says where the vote is.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const voted = screen.getByRole('button', { name: 'Persona 1: votado' });
    expect(voted).toBeDisabled();
    expect(voted).toHaveTextContent('FA, NR');
    await waitFor(() => expect(cardStates('Persona 1')).toEqual([expect.stringMatching(/^Enviando \d+\u00a0%$/)]));
    expect(keys).toEqual([expect.stringMatching(UUID)]);

    release();
    await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Enviado']));
    expect(await screen.findByText('Votaste con éxito')).toBeInTheDocument();
    expect(state.votes).toEqual([{ id: 1, body: { candidates: ['FA', 'NR'] } }]);
    await waitFor(() => expect(screen.getByText('1 votado', { exact: false })).toBeInTheDocument());

    // The next record's dialog starts empty.
    await user.click(screen.getByRole('button', { name: 'Votar: Persona 2' }));
    const next = await screen.findByRole('dialog', { name: 'Votar' });
    for (const box of within(next).getAllByRole('checkbox')) expect(box).not.toBeChecked();
  });

  it('asks the browser to keep the phone’s data once something waits there', async () => {
    const user = userEvent.setup();
    api({ records: [record(1)] });
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', () =>
        HttpResponse.json({ message: 'Votaste con éxito', record: record(1, { votes: ['FA'] }) }, { status: 201 }),
      ),
    );
    const persist = vi.fn(async () => true);
    Object.defineProperty(navigator, 'storage', {
      value: { persisted: async () => false, persist },
      configurable: true,
    });
    try {
      renderPage();
      await screen.findByRole('article', { name: 'Persona 1' });
      expect(persist).not.toHaveBeenCalled();
      await user.click(screen.getByRole('button', { name: 'Votar: Persona 1' }));
      const dialog = await screen.findByRole('dialog', { name: 'Votar' });
      await user.click(within(dialog).getByRole('checkbox', { name: /FA\s*Fernando Álvarez/ }));
      await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
      await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Enviado']));
      expect(persist).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(navigator, 'storage');
    }
  });

  it('keeps one vote however fast ‘Votar’ is tapped twice', async () => {
    const state = api({ records: [record(1)] });
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', async ({ request }) => {
        state.votes.push({ id: 1, body: await request.json() });
        return HttpResponse.json(
          { message: 'Votaste con éxito', record: record(1, { votedAt: 'x', votes: ['LC'] }) },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Votar: Persona 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Votar' });
    await user.click(within(dialog).getByRole('checkbox', { name: /LC/ }));
    const votar = within(dialog).getByRole('button', { name: 'Votar' });
    // Two clicks in the same tick, before React has re-rendered anything.
    act(() => {
      votar.click();
      votar.click();
    });
    await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Enviado']));
    expect(state.votes).toEqual([{ id: 1, body: { candidates: ['LC'] } }]);
  });

  it('cancels: the selection is cleared and nothing is sent; a vote for nobody can be sent', async () => {
    const user = userEvent.setup();
    const state = api({ records: [record(1)] });
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', async ({ request }) => {
        state.votes.push({ id: 1, body: await request.json() });
        return HttpResponse.json(
          { message: 'Votaste con éxito', record: record(1, { votedAt: 'x', votes: [] }) },
          { status: 201 },
        );
      }),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Votar: Persona 1' }));
    let dialog = await screen.findByRole('dialog', { name: 'Votar' });
    await user.click(within(dialog).getByRole('checkbox', { name: /LC/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(state.votes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Votar: Persona 1' }));
    dialog = await screen.findByRole('dialog', { name: 'Votar' });
    expect(within(dialog).getByRole('checkbox', { name: /LC/ })).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    await user.click(within(dialog).getByRole('button', { name: 'Sí, registrar' }));
    await screen.findByText('Votaste con éxito');
    expect(state.votes).toEqual([{ id: 1, body: { candidates: [] } }]);
    expect(screen.getByRole('button', { name: 'Persona 1: votado' })).toHaveTextContent('Ningún candidato');
  });

  it('says on the card, with the server’s reason, when a vote is refused', async () => {
    const user = userEvent.setup();
    api({ records: [record(1)] });
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', () =>
        HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'Este trámite ya fue votado por luis@example.org el 22 nov a las 11:31 p. m.',
          },
          { status: 409 },
        ),
      ),
    );
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Votar: Persona 1' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: /FA/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Rechazado']));
    const card = screen.getByRole('article', { name: 'Persona 1' });
    expect(
      within(card).getByText('Este trámite ya fue votado por luis@example.org el 22 nov a las 11:31 p. m.'),
    ).toBeInTheDocument();
  });

  it('keeps a vote answered 401 on the phone and asks for the session again', async () => {
    const user = userEvent.setup();
    api({ records: [record(1)] });
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', () =>
        HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', message: 'Debes iniciar sesión para continuar.' },
          { status: 401 },
        ),
      ),
    );
    const onSessionEnded = vi.fn();
    renderPage({ onSessionEnded });
    await user.click(await screen.findByRole('button', { name: 'Votar: Persona 1' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: /FA/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    await waitFor(() => expect(onSessionEnded).toHaveBeenCalledTimes(1));
    expect(cardStates('Persona 1')).toEqual(['Guardado en el teléfono']);
    expect(screen.queryByText('Debes iniciar sesión para continuar.')).not.toBeInTheDocument();
  });

  it('covers the screen only while a photo is saved on the phone, then shows its upload on the card', async () => {
    const user = userEvent.setup();
    api({ records: [record(1)] });
    const { gate, release } = createGate();
    let received: TusUploadInfo | undefined;
    let key: string | null = null;
    server.use(
      ...tusPhotoHandlers(async (upload) => {
        key = upload.key;
        received = upload;
        await gate;
        const result: PhotoUploadResult = {
          message: 'Foto cargada con éxito',
          warning: 'Atención: esta misma imagen ya se usó en otro trámite.',
          record: record(1, { photos: { gobernador: slot(77), an: null, clez: null } }),
          photo: {
            id: 77,
            kind: 'gobernador',
            sha256: 'a'.repeat(64),
            sizeBytes: 4,
            contentType: 'image/jpeg',
            width: 1,
            height: 1,
            uploadedBy: 'ana@example.org',
            uploadedAt: new Date().toISOString(),
            path: '/Cabimas/Gobernador/Persona 1.jpg',
          },
        };
        return HttpResponse.json(result, { status: 201 });
      }).handlers,
    );
    renderPage();
    const input = await screen.findByLabelText('Subir foto Gobernador de Persona 1');
    await user.upload(input, new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'IMG_1.JPG', { type: 'image/jpeg' }));
    // While the request is held by the server, the cover is already gone and the card says how it goes.
    await waitFor(() => expect(cardStates('Persona 1')).toEqual([expect.stringMatching(/^Enviando \d+\u00a0%$/)]));
    expect(screen.queryByTestId('loading-cover')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Subir foto Gobernador de Persona 1')).not.toBeInTheDocument();
    await waitFor(() => expect(key).toMatch(UUID));

    release();
    await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Enviado']));
    // A resumable upload for that slot arrived. (jsdom's XMLHttpRequest does not carry a Blob's bytes
    // through MSW; the end-to-end test checks the stored photo.)
    expect(received).toMatchObject({ slug: 'cabimas', recordId: 1, kind: 'gobernador', filename: 'IMG_1.JPG' });
    const link = screen.getByRole('link', { name: 'Ver foto Gobernador de Persona 1' });
    expect(link).toHaveAttribute('href', '/api/photos/77');
    expect(within(link).getByRole('presentation')).toHaveAttribute('src', '/api/photos/77?variant=thumb');
    // The duplicate-image warning is on the card, not in a toast.
    const card = screen.getByRole('article', { name: 'Persona 1' });
    expect(within(card).getByText('Atención: esta misma imagen ya se usó en otro trámite.')).toBeInTheDocument();
    expect(document.querySelector('.Toastify')?.textContent ?? '').not.toContain('Atención');
  });

  it("sends a photo the server answered 'dañada' again by itself, as a fresh upload with the same key and hash, until it is stored", async () => {
    const user = userEvent.setup();
    api({ records: [record(1)] });
    const tus = tusPhotoHandlers((upload) => {
      // The first upload arrived with its first bytes flipped: refused by its hash, whatever else they look like.
      if (tus.uploads.length === 1) {
        return HttpResponse.json(
          {
            statusCode: 422,
            error: 'Unprocessable Entity',
            message: 'La foto llegó dañada; se enviará de nuevo',
            code: 'photo-arrived-damaged',
          },
          { status: 422 },
        );
      }
      const result: PhotoUploadResult = {
        message: 'Foto cargada con éxito',
        warning: null,
        record: record(1, { photos: { gobernador: slot(77), an: null, clez: null } }),
        photo: {
          id: 77,
          kind: 'gobernador',
          sha256: upload.sha256 ?? '',
          sizeBytes: upload.size,
          contentType: 'image/jpeg',
          width: 1,
          height: 1,
          uploadedBy: ANA,
          uploadedAt: new Date().toISOString(),
          path: '/Cabimas/Gobernador/Persona 1.jpg',
        },
      };
      return HttpResponse.json(result, { status: 201 });
    });
    server.use(...tus.handlers);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPage();
      const input = await screen.findByLabelText('Subir foto Gobernador de Persona 1');
      await user.upload(
        input,
        new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'IMG_1.JPG', { type: 'image/jpeg' }),
      );
      await waitFor(() => expect(tus.uploads.length).toBeGreaterThanOrEqual(1));
      // Refused as damaged, it stays waiting on the phone (never 'Rechazado') and, after the usual
      // wait, goes again as a fresh upload of the phone's copy.
      await act(() => vi.advanceTimersByTimeAsync(BACKOFF.firstMs));
      await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Enviado']));
      expect(tus.uploads).toHaveLength(2);
      expect(document.querySelector('.Toastify')?.textContent ?? '').not.toContain('dañada');
      const [first, second] = tus.uploads;
      expect(second?.id).not.toBe(first?.id);
      expect(second).toMatchObject({ key: first?.key, sha256: first?.sha256, kind: 'gobernador' });
      expect(first?.sha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends the right-sized photo by default, and the original when admins chose originals', async () => {
    const user = userEvent.setup();
    const sent: string[] = [];
    const hashes: (string | undefined)[] = [];
    const done = (upload: TusUploadInfo) => {
      sent.push(upload.filename);
      hashes.push(upload.sha256);
      const result: PhotoUploadResult = {
        message: 'Foto cargada con éxito',
        warning: null,
        record: record(1),
        photo: {
          id: 77,
          kind: upload.kind as PhotoUploadResult['photo']['kind'],
          sha256: 'a'.repeat(64),
          sizeBytes: 4,
          contentType: 'image/jpeg',
          width: 1,
          height: 1,
          uploadedBy: ANA,
          uploadedAt: new Date().toISOString(),
          path: '/Cabimas/Gobernador/Persona 1.jpg',
        },
      };
      return HttpResponse.json(result, { status: 201 });
    };
    const photo = () =>
      new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), new Uint8Array(3_000)], 'IMG_1.JPG', {
        type: 'image/jpeg',
      });
    vi.mocked(rightSizeInWorker).mockClear();
    vi.mocked(rightSizeInWorker).mockImplementation(async () => ({
      resized: true,
      data: new Uint8Array(1_000).buffer,
      width: 2560,
      height: 1920,
    }));
    try {
      // Default: the worker makes the JPEG that travels, and the card says how much it saved.
      api({ records: [record(1)] });
      server.use(...tusPhotoHandlers(done).handlers);
      const first = renderPage();
      await user.upload(await screen.findByLabelText('Subir foto Gobernador de Persona 1'), photo());
      await waitFor(() => expect(sent).toEqual(['IMG_1.jpg']));
      expect(rightSizeInWorker).toHaveBeenCalledTimes(1);
      expect(
        within(screen.getByRole('article', { name: 'Persona 1' })).getByTestId('foto-reducida'),
      ).toBeInTheDocument();
      first.unmount();

      // Originals chosen in Ajustes: the photo goes as it was taken, and the worker is not asked.
      vi.mocked(rightSizeInWorker).mockClear();
      api({ records: [record(1)] });
      server.use(http.get('*/api/photo-settings', () => HttpResponse.json({ sendOriginals: true })));
      renderPage();
      await user.upload(await screen.findByLabelText('Subir foto AN de Persona 1'), photo());
      await waitFor(() => expect(sent).toEqual(['IMG_1.jpg', 'IMG_1.JPG']));
      expect(rightSizeInWorker).not.toHaveBeenCalled();
      // Each upload carried the SHA-256 of exactly the bytes it sent: the JPEG made, then the original.
      const hex = async (bytes: Uint8Array<ArrayBuffer>) =>
        Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
      expect(hashes).toEqual([
        await hex(new Uint8Array(1_000)),
        await hex(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Uint8Array(3_000)])),
      ]);
    } finally {
      vi.mocked(rightSizeInWorker).mockReset();
    }
  });

  it('shows the cover while the photo is being saved on the phone', async () => {
    api({ records: [record(1)] });
    server.use(...tusPhotoHandlers(() => new Promise<Response>(() => {})).handlers);
    renderPage();
    const input = await screen.findByLabelText('Subir foto AN de Persona 1');
    let finishReading: (value: ArrayBuffer) => void = () => {};
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'foto.jpg', { type: 'image/jpeg' });
    file.arrayBuffer = () =>
      new Promise<ArrayBuffer>((resolve) => {
        finishReading = resolve;
      });
    await userEvent.setup().upload(input, file);
    const cover = await screen.findByTestId('loading-cover');
    expect(cover).toHaveTextContent('Validando');
    expect(cover).toHaveTextContent('Por favor espere, no cierre la ventana');
    finishReading(new Uint8Array([0xff, 0xd8, 0xff]).buffer);
    await waitFor(() => expect(screen.queryByTestId('loading-cover')).not.toBeInTheDocument());
    expect(cardStates('Persona 1')).toEqual([expect.stringMatching(/^(Guardado en el teléfono|Enviando \d+\u00a0%)$/)]);
  });

  it('says on the card why the server refused a photo, and opens the slot again', async () => {
    const user = userEvent.setup();
    api({ records: [record(1)] });
    server.use(
      ...tusPhotoHandlers(() =>
        HttpResponse.json(
          { statusCode: 415, error: 'Unsupported Media Type', message: 'Formato no permitido: solo JPG, JPEG o HEIC' },
          { status: 415 },
        ),
      ).handlers,
    );
    renderPage();
    const input = await screen.findByLabelText('Subir foto AN de Persona 1');
    await user.upload(input, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'foto.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Rechazado']));
    const card = screen.getByRole('article', { name: 'Persona 1' });
    expect(within(card).getByText('Formato no permitido: solo JPG, JPEG o HEIC')).toBeInTheDocument();
    expect(screen.queryByTestId('loading-cover')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Subir foto AN de Persona 1')).toBeEnabled();
  });

  it('offers admins, and only admins, to replace a filled photo', async () => {
    const user = userEvent.setup();
    api({ records: [record(1, { photos: { gobernador: slot(5), an: null, clez: null } })] });
    let replaced = false;
    server.use(
      ...tusPhotoHandlers(() => {
        replaced = true;
        return HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', message: 'La foto no se pudo leer.' },
          { status: 400 },
        );
      }).handlers,
    );
    const { unmount } = renderPage();
    expect(await screen.findByRole('link', { name: 'Ver foto Gobernador de Persona 1' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Reemplazar foto Gobernador de Persona 1')).not.toBeInTheDocument();
    unmount();

    renderWithProviders(
      <ValidationPage slug="cabimas" title="CABIMAS" owner={ANA} canReplacePhotos preparePhoto={preparePhoto} />,
      {
        route: '/validation/cabimas',
      },
    );
    const input = await screen.findByLabelText('Reemplazar foto Gobernador de Persona 1');
    expect(screen.queryByLabelText('Reemplazar foto AN de Persona 1')).not.toBeInTheDocument();
    await user.upload(input, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'nueva.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByText('La foto no se pudo leer.')).toBeInTheDocument();
    expect(replaced).toBe(true);
  });

  it('refuses other file types before keeping them', async () => {
    api({ records: [record(1)] });
    renderPage();
    const input = await screen.findByLabelText('Subir foto CLEZ de Persona 1');
    // userEvent.upload honours `accept`; a person can still pick "all files" on a phone.
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['x'], 'captura.png', { type: 'image/png' }));
    expect(await screen.findByText('Formato no permitido: solo JPG, JPEG o HEIC')).toBeInTheDocument();
    // A text file named .jpg too: its bytes say what it is.
    await userEvent.setup().upload(input, new File(['hola'], 'foto.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(screen.getAllByText('Formato no permitido: solo JPG, JPEG o HEIC')).toHaveLength(2));
    expect(cardStates('Persona 1')).toEqual([]);
  });

  it('opens without a connection with the list kept on the phone, under ‘Sin conexión’, and keeps votes there', async () => {
    const user = userEvent.setup();
    api({ records: [record(1, { nombre: 'María Pérez' }), record(2, { nombre: 'José Finol' })] });
    const first = renderPage();
    expect(await screen.findByText('María Pérez')).toBeInTheDocument();
    expect(screen.queryByText('Sin conexión')).not.toBeInTheDocument();
    // Give the phone the moment it needs to keep its copy.
    await waitFor(async () => {
      const { readCopy, pageCopyId } = await import('#web/features/records/device/device-copies');
      expect(await readCopy(pageCopyId('cabimas', false, undefined))).toBeDefined();
    });
    first.unmount();

    server.resetHandlers();
    server.use(http.all('*/api/*', () => HttpResponse.error()));
    renderPage({ owner: null });
    expect(await screen.findByText('María Pérez')).toBeInTheDocument();
    expect(screen.getByText('Sin conexión')).toBeInTheDocument();
    expect(
      screen.getByText(/^Lista guardada en el teléfono el \d{1,2} [a-z]{3} a las? \d{1,2}:\d{2} [ap]\. m\. /),
    ).toBeInTheDocument();
    // Searching works on the copy too.
    await user.type(screen.getByLabelText('Buscar'), 'jose');
    await waitFor(() => expect(screen.queryByText('María Pérez')).not.toBeInTheDocument());
    expect(screen.getByText('José Finol')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Buscar'));

    // Voting offline keeps the vote for the last person signed in on this phone.
    await user.click(await screen.findByRole('button', { name: 'Votar: María Pérez' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: /FA/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    await waitFor(() => expect(cardStates('María Pérez')).toEqual(['Guardado en el teléfono']));
    const { deviceOutbox } = await import('#web/features/records/outbox/device-outbox');
    expect(deviceOutbox().unsent(ANA)).toHaveLength(1);
  });

  it('searches by what is typed and can show validated records too', async () => {
    const user = userEvent.setup();
    const state = api({
      records: [
        record(1, { nombre: 'María Pérez' }),
        record(2, { nombre: 'José Finol' }),
        record(3, { validated: true }),
      ],
    });
    renderPage();
    expect(await screen.findByText('María Pérez')).toBeInTheDocument();
    expect(screen.queryByText('Persona 3')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Buscar'), 'josé');
    await waitFor(() => expect(screen.queryByText('María Pérez')).not.toBeInTheDocument());
    expect(screen.getByText('José Finol')).toBeInTheDocument();
    expect(state.listQueries.at(-1)?.get('q')).toBe('josé');
    await user.type(screen.getByLabelText('Buscar'), 'zzz');
    expect(await screen.findByText('Ningún trámite coincide con la búsqueda.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Buscar'));
    await user.click(screen.getByRole('switch', { name: 'Mostrar validados' }));
    expect(await screen.findByText('Persona 3')).toBeInTheDocument();
    expect(state.listQueries.at(-1)?.get('validated')).toBe('1');
  });

  it('loads the next 100 with the cursor as the end of the list comes near', async () => {
    const state = api({ records: Array.from({ length: 130 }, (_, i) => record(i + 1)), pageSize: 100 });
    renderPage();
    // jsdom has no layout, so every card counts as on screen and the next page is asked for at once.
    await waitFor(() => expect(state.listQueries.some((q) => q.get('after') === '100')).toBe(true));
    expect(await screen.findByRole('article', { name: 'Persona 130' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cargar más trámites' })).not.toBeInTheDocument();
    expect(state.listQueries.filter((q) => q.get('after') === '100')).toHaveLength(1);
  });

  it('says there are no trámites when the department has none', async () => {
    api({ records: [], summary: { total: 0, voted: 0, validated: 0 } });
    renderPage();
    expect(await screen.findByText('No hay trámites pendientes en este municipio o parroquia.')).toBeInTheDocument();
  });

  it('shows the completion screen once every record is validated, and lets one review them', async () => {
    const user = userEvent.setup();
    api({ records: [record(1, { validated: true })], summary: { total: 1, voted: 1, validated: 1 } });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Municipio / Parroquia Completada' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir a inicio' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Revisar los trámites validados' }));
    expect(await screen.findByRole('article', { name: 'Persona 1' })).toBeInTheDocument();
  });
});

/** The page as its route composes it, with the day closing when the test says so. */
function ClosingPage({ canReplacePhotos = false }: { canReplacePhotos?: boolean }) {
  const [closed, setClosed] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setClosed(true)}>
        Cerrar la jornada (prueba)
      </button>
      <ValidationPage
        slug="cabimas"
        title="CABIMAS"
        owner={ANA}
        preparePhoto={preparePhoto}
        canReplacePhotos={canReplacePhotos}
        closed={closed}
      />
    </>
  );
}

const CLOSED_MESSAGE = 'La jornada cerró a las 6:00 p. m.';
const refusedAsClosed = () =>
  HttpResponse.json({ statusCode: 409, error: 'Conflict', message: CLOSED_MESSAGE }, { status: 409 });

describe('ValidationPage after the close', { timeout: 30_000 }, () => {
  it('offers no ‘Votar’ and no empty photo slot, and keeps showing what the phone held from before the close', async () => {
    const user = userEvent.setup();
    api({ records: [record(1), record(2), record(3, { photos: { gobernador: slot(5), an: null, clez: null } })] });
    // No signal: what is taken before the close waits on the phone.
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', () =>
        HttpResponse.json({ message: 'Sin señal' }, { status: 503 }),
      ),
      ...tusPhotoHandlers(() => HttpResponse.json({ message: 'Sin señal' }, { status: 503 })).handlers,
    );
    renderWithProviders(<ClosingPage canReplacePhotos />, { route: '/validation/cabimas' });
    await user.click(await screen.findByRole('button', { name: 'Votar: Persona 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Votar' });
    await user.click(within(dialog).getByRole('checkbox', { name: /FA/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    await user.upload(
      screen.getByLabelText('Subir foto AN de Persona 2'),
      new File([new Uint8Array([0xff, 0xd8, 0xff])], 'foto.jpg', { type: 'image/jpeg' }),
    );
    await waitFor(() => expect(cardStates('Persona 2')).toHaveLength(2));
    expect(screen.getByLabelText('Reemplazar foto Gobernador de Persona 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cerrar la jornada (prueba)' }));

    const untouched = screen.getByRole('article', { name: 'Persona 1' });
    expect(within(untouched).queryByRole('button', { name: /Votar/ })).toBeNull();
    expect(within(untouched).getByTestId('voto-cerrado')).toHaveTextContent('Sin votoJornada cerrada');
    expect(within(untouched).queryByLabelText(/Subir foto/)).toBeNull();
    expect(within(untouched).getAllByTestId('foto-cerrada')).toHaveLength(3);

    // What the phone holds from before the close stays, and may still arrive as a late arrival.
    const held = screen.getByRole('article', { name: 'Persona 2' });
    expect(within(held).getByRole('button', { name: 'Persona 2: votado' })).toBeDisabled();
    expect(within(held).getByRole('img', { name: /^Foto AN de Persona 2: / })).toBeInTheDocument();
    expect(within(held).queryByLabelText(/Subir foto/)).toBeNull();
    expect(within(held).getAllByTestId('foto-cerrada')).toHaveLength(2);
    expect(cardStates('Persona 2')).toHaveLength(2);

    // A stored photo is still shown; nobody replaces it after the close.
    const stored = screen.getByRole('article', { name: 'Persona 3' });
    expect(within(stored).getByRole('link', { name: 'Ver foto Gobernador de Persona 3' })).toBeInTheDocument();
    expect(within(stored).queryByLabelText(/Reemplazar foto/)).toBeNull();
  });

  it('never shows ‘Votaste con éxito’ beside a vote refused for the close', async () => {
    const user = userEvent.setup();
    const { gate, release } = createGate();
    api({ records: [record(1), record(2), record(3)] });
    server.use(
      http.post('*/api/validation/cabimas/records/:id/vote', async ({ params, request }) => {
        const id = Number(params.id);
        const body = (await request.json()) as { candidates: string[] };
        // Persona 1's vote was heard of before the close and is taken late; Persona 2's is refused.
        if (id === 2) return refusedAsClosed();
        if (id === 3) await gate;
        return HttpResponse.json(
          {
            message: 'Votaste con éxito',
            record: record(id, { votedAt: new Date().toISOString(), votes: body.candidates }),
          },
          { status: 201 },
        );
      }),
    );
    renderPage();
    const voteFor = async (name: string) => {
      await user.click(await screen.findByRole('button', { name: `Votar: ${name}` }));
      const dialog = await screen.findByRole('dialog', { name: 'Votar' });
      await user.click(within(dialog).getByRole('checkbox', { name: /FA/ }));
      await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    };
    await voteFor('Persona 1');
    await waitFor(() => expect(cardStates('Persona 1')).toEqual(['Enviado']));
    expect(await screen.findByText('Votaste con éxito')).toBeInTheDocument();

    // The refusal: its red message, and no green one beside it.
    await voteFor('Persona 2');
    expect(await screen.findByText(`Persona 2: ${CLOSED_MESSAGE}`)).toBeInTheDocument();
    await waitFor(() => {
      // jsdom plays no animations: a toast on its way out leaves when its exit animation ends.
      for (const toast of document.querySelectorAll('.Toastify__toast')) fireEvent.animationEnd(toast);
      expect(screen.queryByText('Votaste con éxito')).toBeNull();
    });

    // A vote that arrives while the refusal is on screen says so on its card only.
    await voteFor('Persona 3');
    release();
    await waitFor(() => expect(cardStates('Persona 3')).toEqual(['Enviado']));
    expect(screen.getByText(`Persona 2: ${CLOSED_MESSAGE}`)).toBeInTheDocument();
    expect(screen.queryByText('Votaste con éxito')).toBeNull();
  });
});
