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

  it('gives every Latin-1 text the same answer as the long way: each character, and each pair of them', () => {
    const latin1 = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i));
    const differing: string[] = [];
    for (const a of latin1) {
      if (foldText(a) !== slowFold(a)) differing.push(a);
      for (const b of latin1) if (foldText(a + b) !== slowFold(a + b)) differing.push(a + b);
    }
    expect(differing).toEqual([]);
    for (const text of ['Ñañez Güigüe', 'ÀÉÎÕÜ ÿ ß Æ Ø µ ª º', 'María José Pérez Añez', 'Ángel  Álvarez\u00a0Núñez'])
      expect(foldText(text)).toBe(slowFold(text));
  });

  it('takes the long way for any text with a character beyond Latin-1', () => {
    for (const text of ['Jose\u0301 Pe\u0301rez', 'Ñandú İstanbul', 'ΟΔΥΣΣΕΥΣ', 'Ș Ț ő', 'café ☕ Ḿ', 'Á\u0301\u0323'])
      expect(foldText(text)).toBe(slowFold(text));
    // Every other character of the Basic Multilingual Plane, alone and after an accented Latin-1 letter.
    const differing: number[] = [];
    for (let code = 0x100; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (foldText(c) !== slowFold(c) || foldText(`É${c}`) !== slowFold(`É${c}`)) differing.push(code);
    }
    expect(differing).toEqual([]);
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
