import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ProcedureRecord } from '#shared/platform/records';
import { RecordCard } from './record-card';
import { VoteDialog } from './vote-dialog';

const CANDIDATES = [
  { code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8', photoUrl: '/candidatos/fa.svg' },
  { code: 'LC', name: 'Luisa Contreras', colour: '#B45309', photoUrl: '/candidatos/lc.svg' },
];

const RECORD: ProcedureRecord = {
  id: 7,
  comunidad: 'Sector 7',
  nombre: 'Persona 7',
  ubch: 'UBCH 7',
  telefono: '0414-0000007',
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

/** The dialog with its selection held like the validation page holds it. */
function Harness({ onVote }: { onVote: (codes: string[]) => void }) {
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <VoteDialog
      record={RECORD}
      candidates={CANDIDATES}
      selected={selected}
      onToggle={(code) => setSelected((s) => (s.includes(code) ? s.filter((c) => c !== code) : [...s, code]))}
      onVote={() => onVote(selected)}
      onCancel={() => {}}
      saving={false}
    />
  );
}

describe('VoteDialog', () => {
  it('asks "¿Registrar el voto sin candidatos?" before sending a vote with no candidate', async () => {
    const onVote = vi.fn();
    const user = userEvent.setup();
    render(<Harness onVote={onVote} />);
    const dialog = await screen.findByRole('dialog', { name: 'Votar' });
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    expect(onVote).not.toHaveBeenCalled();
    const question = within(dialog).getByRole('group', { name: '¿Registrar el voto sin candidatos?' });
    expect(within(question).getByRole('button', { name: 'Sí, registrar' })).toHaveFocus();

    // "Volver" goes back to the boxes; ticking one sends at once, without the question.
    await user.click(within(question).getByRole('button', { name: 'Volver' }));
    expect(within(dialog).queryByRole('group', { name: /sin candidatos/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    await user.click(within(dialog).getByRole('button', { name: 'Sí, registrar' }));
    expect(onVote).toHaveBeenCalledWith([]);
  });

  it('sends a vote with candidates without asking', async () => {
    const onVote = vi.fn();
    const user = userEvent.setup();
    render(<Harness onVote={onVote} />);
    const dialog = await screen.findByRole('dialog', { name: 'Votar' });
    await user.click(within(dialog).getByRole('checkbox', { name: /LC/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Votar' }));
    expect(onVote).toHaveBeenCalledWith(['LC']);
    expect(within(dialog).queryByRole('group', { name: /sin candidatos/ })).not.toBeInTheDocument();
  });
});

describe('RecordCard', () => {
  it('shows a voted record by colour, not by opacity, and says when an admin corrected the vote', () => {
    render(
      <RecordCard
        record={{ ...RECORD, votedAt: '2026-11-23T12:00:00.000Z', votes: ['FA', 'LC'], voteCorrected: true }}
        onVote={() => {}}
        onUpload={() => {}}
        slug="cabimas"
      />,
    );
    const button = screen.getByRole('button', { name: 'Persona 7: votado' });
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent('VotadoFA, LC · corregido');
    expect(button.className).not.toMatch(/opacity/);
  });
});
