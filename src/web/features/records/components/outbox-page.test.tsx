import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { deviceOutbox } from '../outbox/device-outbox';
import { OutboxPage } from './outbox-page';

const ANA = 'ana@example.org';
const photo = (recordId: number) => ({
  owner: ANA,
  slug: 'cabimas',
  recordId,
  recordName: `Persona ${recordId}`,
  photoKind: 'an' as const,
  file: { name: 'a.jpg', type: 'image/jpeg', data: new Uint8Array([0xff, 0xd8, 0xff]).buffer },
});

describe('OutboxPage', { timeout: 30_000 }, () => {
  it('lists what waits, lets a photo be removed after asking, and retries a refused vote', async () => {
    const user = userEvent.setup();
    let answer = 409;
    server.use(
      http.post('*/api/validation/cabimas/records/2/vote', () =>
        answer === 409
          ? HttpResponse.json(
              {
                statusCode: 409,
                error: 'Conflict',
                message: 'Este trámite ya fue votado por luis@example.org el 22 nov a las 11:31 p. m.',
              },
              { status: 409 },
            )
          : HttpResponse.json({ message: 'Votaste con éxito', record: null }, { status: 201 }),
      ),
    );
    const outbox = deviceOutbox();
    await outbox.addPhoto(photo(1));
    await outbox.addVote({ owner: ANA, slug: 'cabimas', recordId: 2, recordName: 'Persona 2', candidates: ['FA'] });
    renderWithProviders(<OutboxPage />, { route: '/envios' });
    expect(await screen.findByRole('heading', { name: 'Por enviar (2)' })).toBeInTheDocument();
    const waiting = screen.getByRole('listitem', { name: 'Foto AN: Persona 1' });
    expect(within(waiting).getByText('Guardado en el teléfono')).toBeInTheDocument();
    // Votes cannot be taken out while they may still arrive.
    expect(screen.queryByRole('button', { name: 'Quitar: Voto (FA) de Persona 2' })).not.toBeInTheDocument();

    await user.click(within(waiting).getByRole('button', { name: 'Quitar: Foto AN de Persona 1' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Quitar esta foto?' });
    await user.click(within(dialog).getByRole('button', { name: 'Quitar' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Foto AN: Persona 1' })).not.toBeInTheDocument());

    // Sending the vote: the server refuses it, with its reason; 'Reintentar' sends it again.
    outbox.connect(ANA);
    const refused = await screen.findByRole('heading', { name: 'Rechazados (1)' });
    expect(refused).toBeInTheDocument();
    expect(
      screen.getByText('Este trámite ya fue votado por luis@example.org el 22 nov a las 11:31 p. m.'),
    ).toBeInTheDocument();
    answer = 201;
    await user.click(screen.getByRole('button', { name: 'Reintentar: Voto (FA) de Persona 2' }));
    expect(await screen.findByRole('heading', { name: 'Enviados (1)' })).toBeInTheDocument();
    expect(outbox.unsent()).toEqual([]);
  });
});
