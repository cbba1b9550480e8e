import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminCandidate } from '#shared/features/candidates/candidates';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import CandidatesAdminPage from './candidates-admin-page';

const CANDIDATES: AdminCandidate[] = [
  {
    id: 1,
    code: 'FA',
    name: 'Fernando Álvarez',
    colour: '#1D4ED8',
    photoUrl: '/candidatos/fa.svg',
    position: 1,
    votes: 12,
  },
  {
    id: 2,
    code: 'LC',
    name: 'Luisa Contreras',
    colour: '#B45309',
    photoUrl: '/candidatos/lc.svg',
    position: 2,
    votes: 0,
  },
];

function api() {
  const sent: { method: string; url: string; body: unknown }[] = [];
  server.use(
    http.get('*/api/admin/candidates', () => HttpResponse.json({ items: CANDIDATES })),
    http.post('*/api/admin/candidates', async ({ request }) => {
      const body = (await request.json()) as AdminCandidate;
      sent.push({ method: 'POST', url: '/api/admin/candidates', body });
      return HttpResponse.json({ ...body, id: 3, photoUrl: '', position: 3, votes: 0 }, { status: 201 });
    }),
    http.patch('*/api/admin/candidates/:id', async ({ request, params }) => {
      const body = await request.json();
      sent.push({ method: 'PATCH', url: `/api/admin/candidates/${params.id}`, body });
      return HttpResponse.json({ ...CANDIDATES[0], ...(body as object) });
    }),
  );
  return sent;
}

describe('CandidatesAdminPage', () => {
  it('shows each candidate with photo, code, colour, place and votes; only those without votes can be deleted', async () => {
    api();
    renderWithProviders(<CandidatesAdminPage />);
    const fa = await screen.findByRole('article', { name: 'Fernando Álvarez' });
    expect(within(fa).getByRole('img', { name: 'Foto de Fernando Álvarez' })).toHaveAttribute(
      'src',
      '/candidatos/fa.svg',
    );
    expect(within(fa).getByText('Lugar 1 · 12 votos')).toBeInTheDocument();
    expect(within(fa).queryByRole('button', { name: 'Borrar: FA' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Borrar: LC' })).toBeInTheDocument();
    expect(screen.getByLabelText('Cambiar foto: FA')).toHaveAttribute(
      'accept',
      '.jpg,.jpeg,.heic,image/jpeg,image/heic,image/heif',
    );
  });

  it('adds a candidate: code in capitals, hex colour checked, a warning for a colour too light to read', async () => {
    const sent = api();
    renderWithProviders(<CandidatesAdminPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Nuevo candidato' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo candidato' });
    await userEvent.type(within(dialog).getByLabelText('Nombre'), 'Nelson Rincón');
    await userEvent.type(within(dialog).getByLabelText('Código'), 'nr');
    expect(within(dialog).getByLabelText('Código')).toHaveValue('NR');
    const colour = within(dialog).getByLabelText('Color');
    await userEvent.clear(colour);
    await userEvent.type(colour, 'verde');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Añadir candidato' }));
    expect(
      await within(dialog).findByText('El color debe ser hexadecimal de seis cifras, por ejemplo #1D4ED8.'),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);

    await userEvent.clear(colour);
    await userEvent.type(colour, '#fde68a');
    expect(within(dialog).getByText(/Es un color claro/)).toBeInTheDocument();
    await userEvent.clear(colour);
    await userEvent.type(colour, '#047857');
    expect(within(dialog).getByText(/Se distingue bien/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Añadir candidato' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'POST',
          url: '/api/admin/candidates',
          body: { name: 'Nelson Rincón', code: 'NR', colour: '#047857' },
        },
      ]),
    );
    expect(await screen.findByText('Candidato NR añadido')).toBeInTheDocument();
  });

  it('keeps the code of a candidate with votes and sends only what can change', async () => {
    const sent = api();
    renderWithProviders(<CandidatesAdminPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: FA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar FA' });
    expect(within(dialog).getByLabelText('Código')).toBeDisabled();
    expect(within(dialog).getByText('Ya tiene votos: su código no cambia.')).toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByLabelText('Lugar en la boleta'), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'PATCH',
          url: '/api/admin/candidates/1',
          body: { name: 'Fernando Álvarez', colour: '#1D4ED8', position: 2 },
        },
      ]),
    );
  });
});
