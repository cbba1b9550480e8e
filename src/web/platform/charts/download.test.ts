import { describe, expect, it } from 'vitest';
import { shareCaption, wrapText } from './download';

/** A context whose text is 10 px a character: enough to see where lines break. */
const tenPxPerCharacter = { measureText: (text: string) => ({ width: text.length * 10 }) } as CanvasRenderingContext2D;

describe('pictures to share', () => {
  it('say the campaign, and the date and time in Caracas, whatever the zone of the device', () => {
    expect(shareCaption(new Date('2026-11-29T01:05:00Z'), 'Comando Zulia')).toBe(
      'Comando Zulia · 28 de noviembre de 2026, 9:05 p. m. (hora de Caracas)',
    );
  });

  it('break a long title between words, never cutting one', () => {
    const title = 'Total de cada candidato como porcentaje del denominador';
    const lines = wrapText(tenPxPerCharacter, title, 200);
    expect(lines.join(' ')).toBe(title);
    expect(lines.every((line) => line.length * 10 <= 200)).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
    // A word longer than the line keeps a line of its own.
    expect(wrapText(tenPxPerCharacter, 'a supercalifragilístico b', 100)).toEqual(['a', 'supercalifragilístico', 'b']);
  });
});
