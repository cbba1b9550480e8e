import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ImportProgressBar } from './records-import';

describe('ImportProgressBar', () => {
  it.each([
    [{ phase: 'subiendo', done: 256, total: 1024 }, 'Subiendo el archivo… 25\u00a0%', 25],
    [{ phase: 'revisando', done: 512, total: 1024 }, 'Revisando las filas… 50\u00a0%', 50],
    // An import checks and saves in one reading of the file: the bytes read so far.
    [{ phase: 'guardando', done: 1023, total: 1024 }, 'Importando las filas… 99\u00a0%', 100],
  ] as const)('says %o as "%s"', (progress, text, percent) => {
    render(<ImportProgressBar progress={progress} />);
    const bar = screen.getByRole('progressbar', { name: 'Avance de la importación' });
    expect(bar).toHaveAttribute('aria-valuetext', text);
    expect(bar).toHaveAttribute('aria-valuenow', String(percent));
  });

  it('says it is getting ready before any progress', () => {
    render(<ImportProgressBar progress={null} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Preparando…');
  });
});
