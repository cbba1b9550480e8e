// Writing CSV that spreadsheets open well: UTF-8 with BOM, semicolons, RFC 4180 quoting, no formulas.
// csv-stringify does the quoting and the formula guard; what is ours is the choice of options.
import { type Options, stringify } from 'csv-stringify/sync';
import { TIME_ZONE } from '#shared/platform/constants';

/** Excel reads UTF-8 only when the file starts with a byte order mark. */
export const CSV_BOM = '\uFEFF';

const LINES: Options = {
  // Spanish-language Excel (decimal comma) splits columns at semicolons, not commas.
  delimiter: ';',
  // CRLF as RFC 4180 says; a line break of any kind inside a cell is quoted (csv-stringify stops
  // quoting lone LFs and CRs once a record delimiter is given, unless told).
  record_delimiter: 'windows',
  quote_record_delimiter: true,
  // Spaces at either end survive a spreadsheet only inside quotes.
  quoted_match: /^\s|\s$/,
  // A cell that starts like a formula would run as one in a spreadsheet (CSV injection): it gets a
  // leading apostrophe. Numbers are written as they are.
  escape_formulas: true,
};
const CELL: Options = { ...LINES, eof: false };

// What escape_formulas guards: =, +, -, @, tab, CR and their full-width forms.
const GUARDED = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export type CsvValue = string | number | null | undefined;

/** One cell: numbers as they are, text protected against formulas and quoted when it must be. */
export function csvCell(value: CsvValue): string {
  return stringify([[value]], CELL);
}

/** Several lines at once (a page of an export), each CRLF-terminated. */
export function csvLines(rows: CsvValue[][]): string {
  return rows.length === 0 ? '' : stringify(rows, LINES);
}

/** One line, CRLF-terminated as RFC 4180 says. */
export function csvLine(values: CsvValue[]): string {
  return stringify([values], LINES);
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

const zoneOffset = new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, timeZoneName: 'longOffset' });

/**
 * What the times of an export are, for its column header: 'hora de Caracas, UTC-04:00'. Every export
 * writes Caracas time (csvDateTime) and says so with the offset, so a file read elsewhere, or after a
 * change of the country's offset, still tells the instant.
 */
export function csvZoneLabel(at: Date): string {
  const offset = zoneOffset.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return `hora de Caracas, ${offset === 'GMT' ? 'UTC+00:00' : offset.replace('GMT', 'UTC')}`;
}

/** Undoes csvCell's formula guard on import, so an exported file imports back unchanged. */
export function unguardCell(value: string): string {
  return value.length > 1 && value[0] === "'" && GUARDED.test(value.slice(1)) ? value.slice(1) : value;
}
