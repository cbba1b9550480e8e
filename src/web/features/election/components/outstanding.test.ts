import { describe, expect, it } from 'vitest';
import type { Outstanding } from '#shared/features/election/election';
import { itemName, outstandingOf } from './outstanding';

const ANSWER: Outstanding = {
  closedAt: '2026-11-28T22:00:00.000Z',
  graceEndsAt: '2026-11-29T10:00:00.000Z',
  generatedAt: '2026-11-28T23:00:00.000Z',
  total: 3,
  departments: [
    {
      slug: 'cabimas',
      title: 'Cabimas',
      validators: [
        {
          email: 'ana@example.org',
          items: [
            { kind: 'vote', recordId: 1, record: 'Uno', heardAt: '2026-11-28T21:00:00.000Z' },
            { kind: 'clez', recordId: 1, record: 'Uno', heardAt: '2026-11-28T21:00:00.000Z' },
          ],
        },
      ],
    },
    {
      slug: 'mara',
      title: 'Mara',
      validators: [
        {
          email: 'beto@example.org',
          items: [{ kind: 'vote', recordId: 9, record: 'Nueve', heardAt: '2026-11-28T21:00:00.000Z' }],
        },
      ],
    },
  ],
};

describe("'Por llegar' in the web", () => {
  it('keeps one department, counted, for the view of one', () => {
    const mara = outstandingOf(ANSWER, 'mara');
    expect(mara.total).toBe(1);
    expect(mara.departments.map((d) => d.slug)).toEqual(['mara']);
    expect(outstandingOf(ANSWER)).toBe(ANSWER);
    expect(outstandingOf(ANSWER, 'lagunillas')).toMatchObject({ total: 0, departments: [] });
  });

  it('names an item by its slot and record, never by an id alone', () => {
    expect(itemName('vote', 'Ana Pérez', 7)).toBe('Voto de Ana Pérez (trámite 7)');
    expect(itemName('gobernador', 'Ana Pérez', 7)).toBe('Foto Gobernador de Ana Pérez (trámite 7)');
    expect(itemName('vote', '', 7)).toBe('Voto de un trámite sin nombre (trámite 7)');
  });
});
