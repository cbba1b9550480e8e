// Writing CSV that spreadsheets open well: UTF-8 with BOM, semicolons, RFC 4180 quoting, no formulas.
import { TIME_ZONE } from '#shared/platform/constants';

/** Excel reads UTF-8 only when the file starts with a byte order mark. */
export const CSV_BOM = '\uFEFF';
/** Spanish-language Excel (decimal comma) splits columns at semicolons, not commas. */
const SEPARATOR = ';';
const NEEDS_QUOTES = /[";\r\n]|^\s|\s$/;
// A cell that starts like a formula would run as one in a spreadsheet (CSV injection).
const LOOKS_LIKE_FORMULA = /^[=+\-@\t\r]/;

export type CsvValue = string | number | null | undefined;

/** One cell: numbers as they are, text protected against formulas and quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = LOOKS_LIKE_FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF-terminated as RFC 4180 says. */
export function csvLine(values: CsvValue[]): string {
  return `${values.map(csvCell).join(SEPARATOR)}\r\n`;
}

/** A percentage with two decimals and a decimal comma, as Spanish Excel reads numbers. */
export function csvPercent(value: number): string {
  return value.toFixed(2).replace('.', ',');
}

const localTime = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** '2026-11-22 23:30:05': an instant in Caracas time, in a form spreadsheets take as a date. */
export function csvDateTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(localTime.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Undoes csvCell's formula guard on import, so an exported file imports back unchanged. */
export function unguardCell(value: string): string {
  return value.length > 1 && value[0] === "'" && LOOKS_LIKE_FORMULA.test(value.slice(1)) ? value.slice(1) : value;
}
