import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Session } from '#shared/platform/session';
import { rememberSession } from '#web/platform/session/known-session';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { rememberOwner } from '../device/device-hints';
import { deviceOutbox } from '../outbox/device-outbox';
import { OutboxPage } from './outbox-page';

const ANA = 'ana@example.org';
const LUIS = 'luis@example.org';
const photo = (recordId: number, owner = ANA) => ({
  owner,
  slug: 'cabimas',
  recordId,
  recordName: `Persona ${recordId}`,
  photoKind: 'an' as const,
  file: { name: 'a.jpg', type: 'image/jpeg', data: new Uint8Array([0xff, 0xd8, 0xff]).buffer },
});
const signedIn = (email: string | null): Session =>
  email
    ? {
        user: { email, role: 'staff', mustChangePassword: false },
        menu: [{ title: 'CABIMAS', path: '/validation/cabimas' }],
        home: '/validation/cabimas',
        logoutRoute: '/',
      }
    : { user: null, menu: [], home: null, logoutRoute: '/' };
const refusal = (status: number, message: string) =>
  HttpResponse.json({ statusCode: status, error: 'Refused', message }, { status });

describe('OutboxPage', { timeout: 30_000 }, () => {
  it('lists what waits, lets a photo be removed after asking, and offers ‘Reintentar’ only for a refusal that may now succeed', async () => {
    const user = userEvent.setup();
    let answer = 404;
    server.use(
      http.get('*/api/auth/session', () => HttpResponse.json(signedIn(ANA))),
      http.post('*/api/validation/cabimas/records/2/vote', () =>
        answer === 404
          ? refusal(404, 'El trámite no existe.')
          : HttpResponse.json({ message: 'Votaste con éxito', record: null }, { status: 201 }),
      ),
      http.post('*/api/validation/cabimas/records/3/vote', () =>
        refusal(409, 'La coordinación anuló este trámite el 22 nov a las 11:31 p. m.'),
      ),
    );
    const outbox = deviceOutbox();
    await outbox.addPhoto(photo(1));
    await outbox.addVote({ owner: ANA, slug: 'cabimas', recordId: 2, recordName: 'Persona 2', candidates: ['FA'] });
    await outbox.addVote({ owner: ANA, slug: 'cabimas', recordId: 3, recordName: 'Persona 3', candidates: ['LC'] });
    renderWithProviders(<OutboxPage />, { route: '/envios' });
    expect(await screen.findByRole('heading', { name: 'Por enviar (3)' })).toBeInTheDocument();
    const waiting = screen.getByRole('listitem', { name: 'Foto AN: Persona 1' });
    expect(within(waiting).getByText('Guardado en el teléfono')).toBeInTheDocument();
    // Votes cannot be taken out while they may still arrive.
    expect(screen.queryByRole('button', { name: 'Quitar: Voto (FA) de Persona 2' })).not.toBeInTheDocument();

    await user.click(within(waiting).getByRole('button', { name: 'Quitar: Foto AN de Persona 1' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Quitar esta foto?' });
    await user.click(within(dialog).getByRole('button', { name: 'Quitar' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Foto AN: Persona 1' })).not.toBeInTheDocument());

    // Sending the votes: the server refuses both, each with its reason.
    outbox.connect(ANA);
    expect(await screen.findByRole('heading', { name: 'Rechazados (2)' })).toBeInTheDocument();
    const voided = screen.getByRole('listitem', { name: 'Voto (LC): Persona 3' });
    expect(
      within(voided).getByText('La coordinación anuló este trámite el 22 nov a las 11:31 p. m.'),
    ).toBeInTheDocument();
    // It can never succeed: only 'Quitar'.
    expect(within(voided).queryByRole('button', { name: /^Reintentar/ })).not.toBeInTheDocument();
    expect(within(voided).getByRole('button', { name: 'Quitar: Voto (LC) de Persona 3' })).toBeInTheDocument();
    // The record may come back: 'Reintentar' sends it again.
    answer = 201;
    await user.click(screen.getByRole('button', { name: 'Reintentar: Voto (FA) de Persona 2' }));
    expect(await screen.findByRole('heading', { name: 'Enviados (1)' })).toBeInTheDocument();
    expect(outbox.waiting(ANA)).toEqual([]);
  });

  it('shows only the signed-in person’s items; another person’s are counted, never named', async () => {
    server.use(http.get('*/api/auth/session', () => HttpResponse.json(signedIn(LUIS))));
    const outbox = deviceOutbox();
    await outbox.addPhoto(photo(1, ANA));
    await outbox.addVote({ owner: ANA, slug: 'cabimas', recordId: 2, recordName: 'Persona 2', candidates: ['FA'] });
    await outbox.addPhoto(photo(4, LUIS));
    renderWithProviders(<OutboxPage />, { route: '/envios' });
    expect(await screen.findByRole('heading', { name: 'Por enviar (1)' })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Foto AN: Persona 4' })).toBeInTheDocument();
    expect(screen.queryByText(/Persona [12]/)).not.toBeInTheDocument();
    expect(screen.getByTestId('envios-de-otra-cuenta')).toHaveTextContent(
      'Además, 2 votos o fotos de otra cuenta esperan en este teléfono: se enviarán cuando esa persona vuelva a entrar aquí.',
    );
  });

  it('shows nobody’s items once the server says nobody is signed in, and the last person’s while it cannot be asked', async () => {
    const outbox = deviceOutbox();
    await outbox.addVote({ owner: ANA, slug: 'cabimas', recordId: 2, recordName: 'Persona 2', candidates: ['FA'] });
    rememberOwner(ANA);
    rememberSession(signedIn(ANA));
    server.use(http.get('*/api/auth/session', () => HttpResponse.json(signedIn(null))));
    const first = renderWithProviders(<OutboxPage />, { route: '/envios' });
    expect(await screen.findByRole('heading', { name: 'Por enviar (0)' })).toBeInTheDocument();
    expect(screen.queryByText('Persona 2')).not.toBeInTheDocument();
    first.unmount();

    // No connection: the phone still knows Ana's session.
    server.use(http.get('*/api/auth/session', () => HttpResponse.error()));
    renderWithProviders(<OutboxPage />, { route: '/envios' });
    expect(await screen.findByRole('heading', { name: 'Por enviar (1)' })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Voto (FA): Persona 2' })).toBeInTheDocument();
  });

  it('shows nobody’s items offline after a sign-out, even if the last owner was written again after it', async () => {
    const outbox = deviceOutbox();
    await outbox.addVote({ owner: ANA, slug: 'cabimas', recordId: 2, recordName: 'Persona 2', candidates: ['FA'] });
    // Signed out: the session the phone knew is forgotten; a page being left wrote Ana as the owner again.
    rememberSession(null);
    rememberOwner(ANA);
    server.use(http.get('*/api/auth/session', () => HttpResponse.error()));
    renderWithProviders(<OutboxPage />, { route: '/envios' });
    expect(await screen.findByRole('heading', { name: 'Por enviar (0)' })).toBeInTheDocument();
    expect(screen.getByTestId('envios-de-otra-cuenta')).toHaveTextContent('1 voto o foto de otra cuenta');
    expect(screen.queryByText('Persona 2')).not.toBeInTheDocument();
  });
});
