import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Breakdown, BreakdownRow } from '#shared/features/results/results';
import { NO_RECORDS, SHARE_STEPS } from '#web/platform/charts/tile-colours';
import { renderWithProviders } from '#web/testing/render';
import { ResultsMap } from './results-map';

const row = (slug: string, title: string, total: number, validated: number): BreakdownRow => ({
  slug,
  title,
  total,
  voted: validated,
  validated,
  percentComplete: total > 0 ? (validated / total) * 100 : 0,
  reviewed: 0,
  votes: { FA: validated, LC: 0, NR: 0 },
  photos: validated * 3,
});

// One department in each step of the scale (their edges included), one without records, and one the
// map does not know (added later by an admin).
const breakdown: Breakdown = {
  candidates: [
    { code: 'FA', name: 'Fulana', colour: '#0055aa' },
    { code: 'LC', name: 'Mengano', colour: '#aa0000' },
    { code: 'NR', name: 'Zutano', colour: '#008800' },
  ],
  rows: [
    row('cabimas', 'Cabimas', 1000, 199),
    row('lagunillas', 'Lagunillas', 1000, 200),
    row('coquivacoa', 'Coquivacoa', 3, 1),
    row('sucre', 'Sucre', 10, 7),
    row('mara', 'Mara', 10, 10),
    row('baralt', 'Baralt', 0, 0),
    row('nueva-parroquia', 'Nueva Parroquia', 5, 3),
  ],
  computedAt: '2026-12-06T14:00:00.000Z',
};

const fillOf = (label: string) => [...SHARE_STEPS, NO_RECORDS].find((s) => s.label === label)?.fill;

describe('ResultsMap', () => {
  it('colours each square as its line of the table says, and that line’s share lies in the colour’s step', async () => {
    renderWithProviders(<ResultsMap breakdown={breakdown} />);
    await userEvent.click(screen.getByText('Tabla del mapa'));
    const table = screen.getByTestId('mapa-resultados-tabla');
    const expected: Record<string, [string, string]> = {
      cabimas: ['19,90\u00a0%', '0 – 20 %'],
      lagunillas: ['20,00\u00a0%', '20 – 40 %'],
      coquivacoa: ['33,33\u00a0%', '20 – 40 %'],
      sucre: ['70,00\u00a0%', '60 – 80 %'],
      mara: ['100,00\u00a0%', '80 – 100 %'],
      baralt: ['sin registros', 'sin registros'],
      'nueva-parroquia': ['60,00\u00a0%', '60 – 80 %'],
    };
    for (const [slug, [share, step]] of Object.entries(expected)) {
      const line = table.querySelector(`tr[data-slug="${slug}"]`) as HTMLElement;
      const cells = within(line)
        .getAllByRole('cell')
        .map((c) => c.textContent);
      expect(cells.slice(2, 4)).toEqual([share, step]);
      expect(screen.getByTestId(`cuadro-${slug}`).dataset.fill).toBe(fillOf(step));
    }
  });

  it('says "sin registros" for a department without records, never 0 %', () => {
    renderWithProviders(<ResultsMap breakdown={breakdown} />);
    const baralt = screen.getByTestId('cuadro-baralt');
    expect(baralt).toHaveAccessibleName('Baralt: sin registros.');
    expect(baralt.textContent).not.toMatch(/0\s*%/);
    expect(baralt.dataset.fill).toBe(NO_RECORDS.fill);
    // A department with records but none validated is 0 %: that is a figure, not missing data.
    renderWithProviders(<ResultsMap breakdown={{ ...breakdown, rows: [row('mara', 'Mara', 4, 0)] }} />);
    expect(screen.getAllByTestId('cuadro-mara').at(-1)).toHaveAccessibleName(
      'Mara: 0,00\u00a0% validado, 0 de 4 trámites; 0 votados.',
    );
  });

  it('shows a square’s figures on hover and opens its breakdown on click', async () => {
    renderWithProviders(<ResultsMap breakdown={breakdown} />);
    await userEvent.hover(screen.getByTestId('cuadro-sucre'));
    expect(screen.getByTestId('mapa-resultados-detalle')).toHaveTextContent(
      'Sucre: 70,00 % validado, 7 de 10 trámites; 7 votados.',
    );
    await userEvent.click(screen.getByTestId('cuadro-sucre'));
    const dialog = await screen.findByRole('dialog', { name: 'Sucre' });
    expect(within(dialog).getByText('Votos FA (Fulana)').nextSibling).toHaveTextContent('7');
  });

  it('gives no touch hint on the projector, where nobody touches the screen', () => {
    renderWithProviders(<ResultsMap breakdown={breakdown} />);
    expect(screen.getByText('Pasa el cursor o toca un cuadro para ver sus cifras.')).toBeVisible();
    const projector = renderWithProviders(<ResultsMap breakdown={breakdown} size="projector" />);
    expect(within(projector.container).queryByText(/toca un cuadro/)).toBeNull();
    expect(within(projector.container).queryByTestId('mapa-proyector-detalle')).toBeNull();
    expect(within(projector.container).getAllByTestId('cifra-cuadro').length).toBe(breakdown.rows.length);
  });
});
