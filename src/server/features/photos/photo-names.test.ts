import { describe, expect, it } from 'vitest';
import { contentDisposition, photoDownloadName, photoReadablePath, safePathSegment } from './photo-names';

describe('photo names', () => {
  it('builds the spec’s readable path', () => {
    expect(photoReadablePath('Cristo de Aranza', 'gobernador', 'María Pérez', 'jpg')).toBe(
      '/Cristo de Aranza/Gobernador/María Pérez.jpg',
    );
    expect(photoReadablePath('Baralt', 'clez', 'José', 'heic')).toBe('/Baralt/CLEZ/José.heic');
  });

  it.each([
    ['../../x', 'x'],
    ['..', 'sin nombre'],
    ['.oculto', 'oculto'],
    ['a/b\\c', 'a b c'],
    ['con\u0000nulo\nsalto', 'connulosalto'],
    ['  espacios   de   más  ', 'espacios de más'],
    ['C:\\Windows\\system32', 'C Windows system32'],
    ['raro*?"<>|', 'raro'],
    ['', 'sin nombre'],
  ])('makes %j a safe segment: %j', (input, expected) => {
    const out = safePathSegment(input);
    expect(out).toBe(expected);
    expect(out).not.toMatch(/[/\\]/);
    expect(out.startsWith('.')).toBe(false);
  });

  it('cuts very long names', () => {
    expect(Array.from(safePathSegment('ñ'.repeat(500)))).toHaveLength(120);
  });

  it('writes Content-Disposition with an ASCII fallback and the exact UTF-8 name', () => {
    const name = photoDownloadName('Bolívar', 'an', 'Ana "la" 100%', 'jpg');
    expect(name).toBe('Bolívar - AN - Ana la 100%.jpg');
    expect(contentDisposition('inline', name)).toBe(
      `inline; filename="Bolivar - AN - Ana la 100_.jpg"; filename*=UTF-8''Bol%C3%ADvar%20-%20AN%20-%20Ana%20la%20100%25.jpg`,
    );
  });
});
