import { describe, expect, it } from 'vitest';
import { departmentKey, foldText, quoteValue } from './text';

/** What foldText promises, the long way for every text. */
const slowFold = (value: string) =>
  value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

describe('foldText', () => {
  it('takes accents and case off', () => {
    expect(foldText('MARÍA Pérez')).toBe('maria perez');
    expect(foldText('Peña Ñañez')).toBe('pena nanez');
    // An accent written as its own combining mark.
    expect(foldText('Jose\u0301')).toBe('jose');
    expect(foldText('Güigüe 🇻🇪')).toBe('guigue 🇻🇪');
  });

  it('gives plain ASCII the same answer as the long way, every character of it', () => {
    const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
    expect(foldText(ascii)).toBe(slowFold(ascii));
    for (const text of ['', '0414-612.34.56', 'Cabimas  Centro', 'UBCH "La Rosa"', 'ABCxyz\t\n'])
      expect(foldText(text)).toBe(slowFold(text));
  });
});

describe('departmentKey and quoteValue', () => {
  it('name one municipality however it is written, and cut long values short', () => {
    expect(departmentKey(' Machiques de Perijá ')).toBe('machiques-de-perija');
    expect(departmentKey('MACHIQUES_DE_PERIJA')).toBe('machiques-de-perija');
    expect(quoteValue('x'.repeat(61))).toBe(`«${'x'.repeat(59)}…»`);
    expect(quoteValue('corto')).toBe('«corto»');
  });
});
