import { describe, expect, it } from 'vitest';
import {
  addDays,
  atClock,
  atTime,
  countOf,
  dateInTimeZone,
  dayAndTime,
  fileTimeStamp,
  formatBytes,
  formatCount,
  formatDateAndTime,
  formatDecimal,
  formatHour12,
  formatPercent,
  hourSortKey,
  spanishDayTitle,
  untilClock,
} from './format';
import { instantToWallTime, wallTimeToInstant } from './wall-time';

describe('dateInTimeZone', () => {
  it('uses Caracas, not UTC: 23:30 in Caracas is already tomorrow in UTC', () => {
    const instant = new Date('2026-11-23T03:30:00Z');
    expect(instant.toISOString().slice(0, 10)).toBe('2026-11-23');
    expect(dateInTimeZone(instant)).toBe('2026-11-22');
  });
  it('turns the day at midnight in Caracas (04:00 UTC)', () => {
    expect(dateInTimeZone(new Date('2026-11-23T03:59:59Z'))).toBe('2026-11-22');
    expect(dateInTimeZone(new Date('2026-11-23T04:00:00Z'))).toBe('2026-11-23');
  });
});

describe('spanishDayTitle', () => {
  it('gives weekday, day and short month in uppercase Spanish', () => {
    expect(spanishDayTitle('2026-11-22')).toBe('DOMINGO, 22 NOV');
    expect(spanishDayTitle('2026-01-07')).toBe('MIÉRCOLES, 7 ENE');
    expect(spanishDayTitle('2026-09-05')).toBe('SÁBADO, 5 SEP');
  });
  it('is empty for a malformed date', () => {
    expect(spanishDayTitle('22/11/2026')).toBe('');
  });
});

describe('formatHour12', () => {
  it.each([
    ['00:00', '12:00 AM'],
    ['07:05', '7:05 AM'],
    ['12:00', '12:00 PM'],
    ['13:30', '1:30 PM'],
    ['23:59', '11:59 PM'],
    ['9:15', '9:15 AM'],
  ])('%s -> %s', (input, expected) => {
    expect(formatHour12(input)).toBe(expected);
  });
  it.each(['25:99', '24:00', '12:60', 'mediodía', '', '7', '07:5', null, undefined])('%s is not a time', (input) => {
    expect(formatHour12(input)).toBeNull();
  });
});

describe('hourSortKey', () => {
  it('orders valid times and puts malformed ones last', () => {
    const sorted = ['15:00', '25:99', '07:30', null, '09:00'].sort((a, b) => hourSortKey(a) - hourSortKey(b));
    expect(sorted.slice(0, 3)).toEqual(['07:30', '09:00', '15:00']);
  });
});

describe('numbers', () => {
  it('writes numbers in Venezuelan Spanish: thousands with a dot, decimals with a comma', () => {
    expect(formatCount(5373)).toBe('5.373');
    expect(formatCount(1234567)).toBe('1.234.567');
    expect(formatCount(999)).toBe('999');
    expect(formatDecimal(12345.6, 2)).toBe('12.345,60');
    expect(formatDecimal(4.56, 1)).toBe('4,6');
  });
  it('writes a share of a whole with two decimals and a no-break space before the sign', () => {
    expect(formatPercent((619 / 5373) * 100)).toBe('11,52\u00a0%');
    expect(formatPercent((1234 / 5373) * 100)).toBe('22,97\u00a0%');
    expect(formatPercent(0)).toBe('0,00\u00a0%');
    expect(formatPercent(111.666)).toBe('111,67\u00a0%');
  });
  it('writes the progress of work under way as a whole percentage in the same style', () => {
    expect(formatPercent(37, 0)).toBe('37\u00a0%');
    expect(formatPercent(100, 0)).toBe('100\u00a0%');
  });
  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('atTime', () => {
  it('says one o’clock in the singular', () => {
    expect(atTime('1:05 a. m.')).toBe('a la 1:05 a. m.');
    expect(atTime('11:31 p. m.')).toBe('a las 11:31 p. m.');
    expect(atTime('10:00:00 a. m.')).toBe('a las 10:00:00 a. m.');
  });
});

describe('countOf', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(countOf(1, 'voto', 'votos')).toBe('1 voto');
    expect(countOf(1, 'problema', 'problemas')).toBe('1 problema');
    expect(countOf(0, 'voto', 'votos')).toBe('0 votos');
    expect(countOf(2, 'problema', 'problemas')).toBe('2 problemas');
    expect(countOf(5373, 'trámite votado', 'trámites votados')).toBe('5.373 trámites votados');
  });
});

describe('atClock', () => {
  it('says a la 1:02 and a las for every other hour, in Caracas', () => {
    expect(atClock(new Date('2026-11-29T05:02:00Z'))).toBe('a la 1:02 a. m.');
    expect(atClock(new Date('2026-11-28T17:30:00Z'))).toBe('a la 1:30 p. m.');
    expect(atClock(new Date('2026-11-28T22:00:00Z'))).toBe('a las 6:00 p. m.');
    expect(atClock(new Date('2026-11-29T03:31:00Z'))).toBe('a las 11:31 p. m.');
    // 10, 11 and 12 o'clock start with a 1 too, and stay plural.
    expect(atClock(new Date('2026-11-28T14:15:00Z'))).toBe('a las 10:15 a. m.');
    expect(atClock(new Date('2026-11-28T16:00:00Z'))).toBe('a las 12:00 p. m.');
  });
});

describe('untilClock', () => {
  it('says hasta la 1:00 and hasta las for every other hour, in Caracas', () => {
    expect(untilClock(new Date('2026-11-29T10:00:00Z'))).toBe('hasta las 6:00 a. m.');
    expect(untilClock(new Date('2026-11-29T05:00:00Z'))).toBe('hasta la 1:00 a. m.');
  });
});

describe('fileTimeStamp', () => {
  it('names files in Caracas time: 9:05 p. m. on the 28th, not 01:05 UTC on the 29th', () => {
    expect(fileTimeStamp(new Date('2026-11-29T01:05:00Z'))).toBe('2026-11-28-21-05');
    expect(fileTimeStamp(new Date('2026-11-29T04:00:00Z'))).toBe('2026-11-29-00-00');
  });
});

describe('formatDateAndTime', () => {
  it('writes every date and time one way: day, short month without a full stop, year, time in Caracas', () => {
    expect(formatDateAndTime('2026-11-23T05:02:00Z')).toBe('23 nov 2026, 1:02 a. m.');
    expect(formatDateAndTime('2026-12-06T15:00:00.000Z')).toBe('6 dic 2026, 11:00 a. m.');
    expect(formatDateAndTime('no es una fecha')).toBe('');
  });
});

describe('dayAndTime', () => {
  it('gives the day and the 24-hour time in Caracas, whatever the zone of the instant', () => {
    expect(dayAndTime('2026-11-23T03:31:00Z')).toEqual({ day: '22 nov', time: '11:31 p. m.' });
    expect(dayAndTime('2026-01-05T12:05:00-04:00')).toEqual({ day: '5 ene', time: '12:05 p. m.' });
    expect(dayAndTime('2026-06-01T04:00:00Z')).toEqual({ day: '1 jun', time: '12:00 a. m.' });
    expect(dayAndTime('2026-06-01T05:15:00Z')).toEqual({ day: '1 jun', time: '1:15 a. m.' });
    expect(dayAndTime('no es una fecha')).toEqual({ day: '', time: '' });
  });
});

describe('formatBytes', () => {
  it('says sizes as a phone does, with a decimal comma', () => {
    expect(formatBytes(3_800_000)).toBe('3,8 MB');
    expect(formatBytes(3_849_999)).toBe('3,8 MB');
    expect(formatBytes(610_000)).toBe('610 kB');
    expect(formatBytes(999_600)).toBe('1,0 MB');
    expect(formatBytes(12_400_000)).toBe('12 MB');
    expect(formatBytes(950)).toBe('950 B');
    expect(`${formatBytes(3_800_000)} -> ${formatBytes(610_000)}`).toBe('3,8 MB -> 610 kB');
  });
});

describe('wall-clock times in Caracas', () => {
  it('reads 6:00 p. m. in Caracas as 22:00 UTC, and back, whatever zone runs it', () => {
    expect(wallTimeToInstant('2026-11-28T18:00')?.toISOString()).toBe('2026-11-28T22:00:00.000Z');
    expect(instantToWallTime('2026-11-28T22:00:00.000Z')).toBe('2026-11-28T18:00');
    // Before May 2016 Caracas was UTC-4:30: the zone's own rules, not a fixed offset.
    expect(wallTimeToInstant('2015-12-06T18:00')?.toISOString()).toBe('2015-12-06T22:30:00.000Z');
  });
  it('refuses what is not a date and time', () => {
    expect(wallTimeToInstant('28/11/2026 6 pm')).toBeUndefined();
  });
});
