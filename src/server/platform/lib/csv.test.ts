import { describe, expect, it } from 'vitest';
import { csvCell, csvDateTime, csvLine, csvPercent, csvZoneLabel } from './csv';

describe('CSV for Excel', () => {
  it('quotes separators, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvCell('Sector Los Olivos')).toBe('Sector Los Olivos');
    expect(csvCell('Pérez; María')).toBe('"Pérez; María"');
    expect(csvCell('El "Negro"')).toBe('"El ""Negro"""');
    expect(csvCell('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(csvCell(' espacio')).toBe('" espacio"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(1234)).toBe('1234');
  });

  it('keeps text that looks like a formula from running in a spreadsheet', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+58 414')).toBe("'+58 414");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@suma')).toBe("'@suma");
  });

  it('writes semicolon-separated lines ending in CRLF, percentages with a decimal comma', () => {
    expect(csvLine(['Sucre', 6, csvPercent(50)])).toBe('Sucre;6;50,00\r\n');
    expect(csvPercent(12.345)).toBe('12,35');
  });

  it('shows instants in Caracas time', () => {
    expect(csvDateTime('2026-11-23T03:30:05.000Z')).toBe('2026-11-22 23:30:05');
    expect(csvDateTime(null)).toBe('');
  });

  it('names the zone of those times with its offset, for the column headers', () => {
    expect(csvZoneLabel(new Date('2026-11-23T03:30:05.000Z'))).toBe('hora de Caracas, UTC-04:00');
    // Before May 2016 Venezuela was four and a half hours behind UTC.
    expect(csvZoneLabel(new Date('2015-06-01T12:00:00.000Z'))).toBe('hora de Caracas, UTC-04:30');
  });
});
