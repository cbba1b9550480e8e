import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProcedureRecord } from '#shared/platform/records';
import { renderWithProviders } from '#web/testing/render';
import { deviceOutbox } from '../outbox/device-outbox';
import { stateLabel } from '../outbox/outbox-labels';
import { RecordCard } from './record-card';

const record: ProcedureRecord = {
  id: 1,
  comunidad: 'Sector 1',
  nombre: 'Persona 1',
  ubch: 'UBCH 110100001',
  telefono: '0414-0000001',
  status: 'pendiente',
  votedAt: null,
  votes: [],
  photos: { gobernador: null, an: null, clez: null },
  validated: false,
  votedBy: null,
  validatedBy: null,
  voteCorrected: false,
  code: 'W79F5Y',
};

const photo = (kind: 'gobernador' | 'an', file: { size: number; originalSize?: number }) => ({
  owner: 'ana@example.org',
  slug: 'cabimas',
  recordId: 1,
  recordName: 'Persona 1',
  photoKind: kind,
  file: { name: 'IMG_1.jpg', type: 'image/jpeg', data: new Uint8Array([0xff, 0xd8, 0xff]).buffer, ...file },
});

describe('RecordCard', () => {
  it('says what right-sizing saved under a photo, in Venezuelan notation, and nothing under an original', async () => {
    // Nobody is connected: the items wait on the phone and nothing is sent.
    await deviceOutbox().addPhoto(photo('gobernador', { size: 610_000, originalSize: 3_800_000 }));
    await deviceOutbox().addPhoto(photo('an', { size: 2_900_000 }));
    renderWithProviders(
      <RecordCard slug="cabimas" record={record} onVote={() => {}} onUpload={() => {}} viewer="ana@example.org" />,
    );
    const list = await screen.findByRole('list', { name: 'Envíos de este trámite' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Foto Gobernador');
    expect(within(first as HTMLElement).getByTestId('foto-reducida')).toHaveTextContent('3,8 MB -> 610 kB');
    expect(within(first as HTMLElement).getByText('Foto reducida de 3,8 MB a 610 kB')).toHaveClass('sr-only');
    expect(within(second as HTMLElement).queryByTestId('foto-reducida')).not.toBeInTheDocument();
  });

  it("shows no phone line and no call link for a record 'Borrar datos personales' left without one", () => {
    const { unmount } = renderWithProviders(
      <RecordCard slug="cabimas" record={record} onVote={() => {}} onUpload={() => {}} />,
    );
    expect(screen.getByRole('link', { name: '0414-0000001' })).toHaveAttribute('href', 'tel:04140000001');
    unmount();
    const purged = { ...record, nombre: 'P. 1.', telefono: '' };
    const after = renderWithProviders(
      <RecordCard slug="cabimas" record={purged} onVote={() => {}} onUpload={() => {}} />,
    );
    expect(after.container.querySelector('a[href^="tel:"]')).toBeNull();
    expect([...after.container.querySelectorAll('p')].filter((p) => p.textContent?.trim() === '')).toEqual([]);
  });

  it('shows the short code a validator types in an SMS vote', () => {
    renderWithProviders(<RecordCard slug="cabimas" record={record} onVote={() => {}} onUpload={() => {}} />);
    expect(screen.getByTestId('codigo-sms')).toHaveTextContent('Código SMS W79F5Y');
  });

  it('says who of the team voted the record and who validated it, and nothing before the vote', async () => {
    const done: ProcedureRecord = {
      ...record,
      votedAt: '2026-11-21T10:00:00.000Z',
      votes: ['FA'],
      validated: true,
      votedBy: 'ana@example.org',
      validatedBy: 'luis@example.org',
    };
    const { unmount } = renderWithProviders(
      <RecordCard slug="cabimas" record={done} onVote={() => {}} onUpload={() => {}} />,
    );
    const who = await screen.findByTestId('quien-marco');
    expect(within(who).getByText('Votado por').nextSibling).toHaveTextContent('ana@example.org');
    expect(within(who).getByText('Validado por').nextSibling).toHaveTextContent('luis@example.org');
    unmount();
    renderWithProviders(<RecordCard slug="cabimas" record={record} onVote={() => {}} onUpload={() => {}} />);
    await screen.findByRole('article', { name: 'Persona 1' });
    expect(screen.queryByTestId('quien-marco')).not.toBeInTheDocument();
  });

  it('shows only the items of the person using the phone: another validator’s vote on it stays hidden', async () => {
    await deviceOutbox().addVote({
      owner: 'luis@example.org',
      slug: 'cabimas',
      recordId: 1,
      recordName: 'Persona 1',
      candidates: ['FA'],
    });
    await deviceOutbox().addPhoto(photo('an', { size: 2_900_000 }));
    const view = renderWithProviders(
      <RecordCard slug="cabimas" record={record} onVote={() => {}} onUpload={() => {}} viewer="ana@example.org" />,
    );
    const list = await screen.findByRole('list', { name: 'Envíos de este trámite' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Foto ANGuardado en el teléfono']);
    // Luis's vote does not mark the record voted for Ana.
    expect(screen.getByRole('button', { name: 'Votar: Persona 1' })).toBeEnabled();
    view.unmount();

    // Nobody signed in (the session ended): nothing of anybody.
    renderWithProviders(
      <RecordCard slug="cabimas" record={record} onVote={() => {}} onUpload={() => {}} viewer={null} />,
    );
    expect(screen.queryByRole('list', { name: 'Envíos de este trámite' })).not.toBeInTheDocument();
  });
});

describe('stateLabel', () => {
  it('says the server is awaited, not ‘Enviando 100 %’, once every byte left the phone', async () => {
    const item = await deviceOutbox().addPhoto(photo('an', { size: 2_900_000 }));
    const sending = { ...item, state: 'sending' as const };
    expect(stateLabel(sending, 37.6)).toBe('Enviando 37\u00a0%');
    expect(stateLabel(sending, 99.9)).toBe('Enviando 99\u00a0%');
    expect(stateLabel(sending, 100)).toBe('Esperando al servidor');
  });

  it("asks again for a photo a reviewer sent back: 'Repetir foto: ilegible' with the note, and a picker", () => {
    const voted: ProcedureRecord = {
      ...record,
      votedAt: '2026-12-06T14:00:00.000Z',
      votes: ['FA'],
      photos: {
        gobernador: null,
        an: { id: 2, url: '/api/photos/2', thumbUrl: '/api/photos/2?variant=thumb' },
        clez: { id: 3, url: '/api/photos/3', thumbUrl: '/api/photos/3?variant=thumb' },
      },
      retakes: { gobernador: { reason: 'ilegible', note: 'Borrosa' } },
    };
    renderWithProviders(<RecordCard slug="cabimas" record={voted} onVote={() => {}} onUpload={() => {}} />);
    const retake = screen.getByTestId('repetir-foto');
    expect(retake).toHaveTextContent('Repetir foto: ilegible');
    expect(retake).toHaveTextContent('Borrosa');
    expect(
      screen.getByLabelText('Repetir foto: ilegible. Subir otra foto Gobernador de Persona 1'),
    ).toBeInTheDocument();
  });
});
