import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ReviewInput, ReviewItem, ReviewQueue } from '#shared/features/photo-review/photo-review';
import { server } from '#web/testing/msw-server';
import { renderWithProviders } from '#web/testing/render';
import { ReviewPage } from './review-page';

const item = (recordId: number): ReviewItem => ({
  recordId,
  municipality: { slug: 'cabimas', title: 'Cabimas' },
  ubch: 'UBCH 110100001',
  votedAt: '2026-12-06T14:00:00.000Z',
  votes: ['FA'],
  photos: (['gobernador', 'an', 'clez'] as const).map((kind, i) => ({
    kind,
    id: recordId * 10 + i,
    url: `/api/photos/${recordId * 10 + i}`,
    thumbUrl: `/api/photos/${recordId * 10 + i}?variant=thumb`,
    verdict: null,
    uploadedBy: 'v@example.org',
    uploadedAt: '2026-12-06T14:00:00.000Z',
  })),
});

/** The server's queue: a reviewed record leaves it. */
function serve(queue: ReviewItem[]) {
  let items = queue;
  const sent: { id: number; body: ReviewInput }[] = [];
  server.use(
    http.get('/api/photo-review/queue', () =>
      HttpResponse.json<ReviewQueue>({
        items,
        next: null,
        waiting: items.length,
        municipalities: [{ slug: 'cabimas', title: 'Cabimas' }],
      }),
    ),
    http.post('/api/photo-review/records/:id', async ({ params, request }) => {
      sent.push({ id: Number(params.id), body: (await request.json()) as ReviewInput });
      items = items.filter((i) => i.recordId !== Number(params.id));
      return HttpResponse.json({ message: 'Revisión guardada', reopened: false, reviewed: true });
    }),
  );
  return sent;
}

describe('ReviewPage', () => {
  it('does a record in four keys (C, C, C, Intro) and shows the next one', async () => {
    const sent = serve([item(1), item(2)]);
    renderWithProviders(<ReviewPage isAdmin={false} />);
    expect(await screen.findByRole('heading', { name: 'Trámite 1 · Cabimas' })).toBeInTheDocument();
    await userEvent.keyboard('ccc');
    expect(screen.getAllByRole('button', { name: 'Conforme', pressed: true })).toHaveLength(3);
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Trámite 2 · Cabimas' })).toBeInTheDocument();
    expect(sent).toEqual([
      {
        id: 1,
        body: {
          verdicts: [
            { kind: 'gobernador', photoId: 10, verdict: 'conforme' },
            { kind: 'an', photoId: 11, verdict: 'conforme' },
            { kind: 'clez', photoId: 12, verdict: 'conforme' },
          ],
        },
      },
    ]);
  });

  it("sends 'Ilegible' with its note, and shortcuts stay out of the note being typed", async () => {
    const sent = serve([item(1)]);
    renderWithProviders(<ReviewPage isAdmin={false} />);
    await screen.findByRole('heading', { name: 'Trámite 1 · Cabimas' });
    await userEvent.keyboard('i');
    await userEvent.type(screen.getByLabelText('Nota para Gobernador (opcional)'), 'Borrosa, casi no se ve');
    // Typing 'c' and 'n' in the note marked nothing: AN and CLEZ still wait.
    expect(screen.getAllByRole('button', { pressed: true })).toHaveLength(1);
    await userEvent.click(screen.getAllByRole('button', { name: 'Conforme' })[1] as HTMLElement);
    await userEvent.click(screen.getAllByRole('button', { name: 'No corresponde' })[2] as HTMLElement);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar y seguir' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body.verdicts).toEqual([
      { kind: 'gobernador', photoId: 10, verdict: 'ilegible', note: 'Borrosa, casi no se ve' },
      { kind: 'an', photoId: 11, verdict: 'conforme' },
      { kind: 'clez', photoId: 12, verdict: 'no_corresponde' },
    ]);
  });
});
