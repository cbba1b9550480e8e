import { TIME_ZONE } from './constants';

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'] as const;
const MONTHS_SHORT = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'] as const;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_24 = /^(\d{1,2}):(\d{2})$/;

// Building an Intl formatter costs far more than using one: keep one per time zone.
const dateFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of an instant in the campaign's time zone. */
export function dateInTimeZone(instant: Date, timeZone: string = TIME_ZONE): string {
  let formatter = dateFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Adds whole days to a calendar date, without any time zone involved. */
export function addDays(isoDate: string, days: number): string {
  const m = ISO_DATE.exec(isoDate);
  if (!m) throw new Error(`Fecha inválida: ${isoDate}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return d.toISOString().slice(0, 10);
}

/** 'DOMINGO, 22 NOV' for '2026-11-22': weekday, day and short month in Spanish, uppercase. */
export function spanishDayTitle(isoDate: string): string {
  const m = ISO_DATE.exec(isoDate);
  if (!m) return '';
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return `${WEEKDAYS[weekday]}, ${day} ${MONTHS_SHORT[month - 1]}`.toUpperCase();
}

/** '14:05' -> '2:05 PM'; anything that is not a real 24-hour time -> null. */
export function formatHour12(hora24: string | null | undefined): string | null {
  if (!hora24) return null;
  const m = HOUR_24.exec(hora24.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return null;
  const suffix = h < 12 ? 'AM' : 'PM';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${String(min).padStart(2, '0')} ${suffix}`;
}

/** A valid 'HH:MM' 24-hour time, used to order events; malformed times sort last. */
export function hourSortKey(hora24: string | null | undefined): number {
  if (!hora24) return Number.MAX_SAFE_INTEGER;
  const m = HOUR_24.exec(hora24.trim());
  if (!m) return Number.MAX_SAFE_INTEGER;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return Number.MAX_SAFE_INTEGER;
  return h * 60 + min;
}

// Venezuelan Spanish writes thousands with a dot and decimals with a comma ('5.373', '11,52'). Plain
// Spanish ('es') leaves four-digit numbers ungrouped ('5373'), and es-VE groups them only where the
// runtime carries that locale's data (Node 20 and Chromium do), so the Danish locale, which writes numbers
// the same way and groups from 1.000 on, is the one used (the spec's "Danish-style" counts).
const countFormat = new Intl.NumberFormat('da-DK');
const decimalFormats = new Map<number, Intl.NumberFormat>();

/** A count: '5.373'. */
export function formatCount(n: number): string {
  return countFormat.format(n);
}

/**
 * A count with its noun, in the singular for exactly one: countOf(1, 'voto', 'votos') -> '1 voto',
 * countOf(0, …) -> '0 votos', countOf(5373, …) -> '5.373 votos'. Every count a sentence says goes
 * through here, so no screen writes '1 votos'.
 */
export function countOf(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A number with exactly `digits` decimals: formatDecimal(11.5234, 2) -> '11,52', 12345.6 -> '12.345,60'. */
export function formatDecimal(value: number, digits: number): string {
  let format = decimalFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('da-DK', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    decimalFormats.set(digits, format);
  }
  return format.format(value);
}

/**
 * A percentage with two decimals, the spec's for results, and the same for every share of a whole shown
 * (validation progress, departments): '11,52 %' (a no-break space keeps the sign with its number). Work
 * under way (an upload, an import) counts whole steps: formatPercent(37, 0) -> '37 %'.
 */
export function formatPercent(value: number, digits = 2): string {
  return `${formatDecimal(value, digits)}\u00a0%`;
}

/** A published date shown in Spanish, e.g. '22 nov 2026'. */
export function formatShortDate(isoDateTime: string, timeZone: string = TIME_ZONE): string {
  const date = dateInTimeZone(new Date(isoDateTime), timeZone);
  const m = ISO_DATE.exec(date);
  if (!m) return '';
  return `${Number(m[3])} ${MONTHS_SHORT[Number(m[2]) - 1]} ${m[1]}`;
}

const MONTHS_LONG = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
] as const;

/** '27 de noviembre de 2026' for an instant, in the campaign's time zone (what a printed page says). */
export function formatLongDate(instant: Date, timeZone: string = TIME_ZONE): string {
  const m = ISO_DATE.exec(dateInTimeZone(instant, timeZone));
  if (!m) return '';
  return `${Number(m[3])} de ${MONTHS_LONG[Number(m[2]) - 1]} de ${m[1]}`;
}

const stampFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant for a downloaded file's name, in the campaign's time zone: '2026-11-28-21-05' (the
 * time people read on their clocks, not UTC's; it sorts as it reads).
 */
export function fileTimeStamp(instant: Date, timeZone: string = TIME_ZONE): string {
  let formatter = stampFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    stampFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}-${get('hour')}-${get('minute')}`;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const timeFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A time of day as the interface writes every one: the 12-hour clock with 'a. m.' / 'p. m.', in the
 * campaign's time zone ('11:31 p. m.'). The agenda's events keep the spec's own 'PM' (formatHour12).
 */
export function formatTime(instant: Date, timeZone: string = TIME_ZONE): string {
  let formatter = timeFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('es-VE', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true });
    timeFormatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

/** 'a las 11:31 p. m.', but 'a la 1:05 a. m.': Spanish says one o'clock in the singular. */
export function atTime(time: string): string {
  return `${/^1:/.test(time) ? 'a la' : 'a las'} ${time}`;
}

/** An instant's time after 'a la' or 'a las', in Caracas: 'a la 1:02 a. m.', 'a las 6:00 p. m.'. */
export function atClock(instant: Date, timeZone: string = TIME_ZONE): string {
  return atTime(formatTime(instant, timeZone));
}

/** An instant's time after 'hasta', in Caracas: 'hasta la 1:00 a. m.', 'hasta las 6:00 a. m.'. */
export function untilClock(instant: Date, timeZone: string = TIME_ZONE): string {
  return `hasta ${atClock(instant, timeZone).slice('a '.length)}`;
}

/** { day: '22 nov', time: '11:31 p. m.' } for an instant, in the campaign's time zone. */
export function dayAndTime(isoDateTime: string, timeZone: string = TIME_ZONE): { day: string; time: string } {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'numeric' });
    dayFormatters.set(timeZone, formatter);
  }
  const instant = new Date(isoDateTime);
  if (Number.isNaN(instant.getTime())) return { day: '', time: '' };
  const parts = formatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    day: `${Number(get('day'))} ${MONTHS_SHORT[Number(get('month')) - 1]}`,
    time: formatTime(instant, timeZone),
  };
}

/**
 * A date and time as the interface writes every one: '22 nov 2026, 11:31 p. m.' in the campaign's time
 * zone (the short month without a full stop, as formatShortDate and dayAndTime write it); '' for what is
 * not an instant.
 */
export function formatDateAndTime(isoDateTime: string, timeZone: string = TIME_ZONE): string {
  const instant = new Date(isoDateTime);
  if (Number.isNaN(instant.getTime())) return '';
  return `${formatShortDate(isoDateTime, timeZone)}, ${formatTime(instant, timeZone)}`;
}

/**
 * A file size as a phone shows it, in Venezuelan notation (decimal comma), decimal units: '3,8 MB',
 * '610 kB', '950 B'. One decimal below 10 MB, none above; kilobytes whole.
 */
export function formatBytes(bytes: number): string {
  const kb = Math.round(bytes / 1_000);
  if (kb >= 1_000) {
    const mb = bytes / 1_000_000;
    return `${mb < 9.95 ? formatDecimal(mb, 1) : formatCount(Math.round(mb))} MB`;
  }
  if (bytes >= 1_000) return `${kb} kB`;
  return `${Math.max(0, Math.round(bytes))} B`;
}
