/**
 * CSV for the records back office: a streaming reader (text or UTF-8 bytes go in chunk by chunk, rows
 * come out; nothing but the current row is kept) on top of csv-parse, which does the quoting, escaping
 * and line endings. What stays here is what csv-parse does not decide for us: which separator a file uses, the
 * line each row starts on, and the Spanish explanation of what is wrong with a file.
 */
import { CsvError, type Options, Parser } from 'csv-parse';

export type CsvSeparator = ',' | ';' | '\t';

/** A problem that stops the file from being read; `line` is where it starts (the header is line 1). */
export class CsvFileError extends Error {
  constructor(
    public readonly line: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'CsvFileError';
  }
}

const SEPARATOR_NAMES: Record<CsvSeparator, string> = { ',': 'una coma', ';': 'un punto y coma', '\t': 'un tabulador' };

const QUOTE = 34;
const LF = 10;
const CR = 13;

export interface CsvReaderOptions {
  /** A row longer than this (in UTF-8 bytes, quotes not counted) stops the reading. */
  maxRowChars: number;
  /** Each row with its fields and the line it starts on. Blank lines come as one empty field. */
  onRow: (fields: string[], line: number) => void;
}

/**
 * csv-parse's push-based core: `parse(chunk, end, push, close)` reads what it can of a chunk, keeps the
 * rest for the next one and answers the error that stopped it, synchronously. Its stream (`Parser`) and
 * its sync API are built on it; the stream only defers the same calls to the event loop, which a reader
 * that reports a row before the next chunk is read does not want. Not in the typings: checked once.
 */
interface ParseCore {
  parse(
    chunk: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): Error | undefined;
  /** Lines and records read so far. */
  info: { lines: number; records: number };
}

function parseCore(options: Options): ParseCore {
  const core = (new Parser(options) as unknown as { api?: ParseCore }).api;
  if (typeof core?.parse !== 'function' || typeof core.info?.records !== 'number') {
    throw new Error('csv-parse changed: Parser#api.parse or its info.records is gone');
  }
  return core;
}

/** Line breaks inside a row's fields (only quoted fields have them): a CRLF is one. */
function lineBreaksIn(fields: string[]): number {
  let breaks = 0;
  for (const field of fields) {
    if (field.indexOf('\n') < 0 && field.indexOf('\r') < 0) continue;
    for (let i = 0; i < field.length; i++) {
      const c = field.charCodeAt(i);
      if (c === LF || (c === CR && field.charCodeAt(i + 1) !== LF)) breaks++;
    }
  }
  return breaks;
}

/**
 * An RFC 4180 reader: fields may be quoted, quotes inside quotes are doubled, quoted fields may hold
 * separators and line breaks; lines end with LF, CRLF or a lone CR, mixed. The separator (comma,
 * semicolon or tab) is the one the header line uses most outside quotes. A quote inside an unquoted
 * field is kept as text, spaces after a closing quote are allowed, a UTF-8 byte order mark is dropped.
 * Throws CsvFileError for quotes left open, text after a closing quote and a row over the limit.
 */
export function createCsvReader({ maxRowChars, onRow }: CsvReaderOptions) {
  let separator: CsvSeparator | null = null;
  /** Bytes of the header line while the separator is not known yet. */
  let headerBuffer: Buffer = Buffer.alloc(0);
  let core: ParseCore | null = null;
  /** Line where the current row starts, counted here: csv-parse counts a CRLF inside quotes as two lines. */
  let rowLine = 1;
  /** The same line as csv-parse counts it, to place an error inside the row. */
  let parserRowLine = 1;
  let ended = false;

  const tooLong = () =>
    new CsvFileError(
      rowLine,
      `La línea ${rowLine} tiene más de ${Math.round(maxRowChars / 1024)} KB: no parece una fila de este archivo (¿unas comillas sin cerrar?).`,
    );

  function row(fields: string[]): void {
    const parser = core as ParseCore;
    onRow(fields, rowLine);
    // csv-parse counts every CR and LF inside quotes; none (nearly every row) means none to count here.
    rowLine += parser.info.lines === parserRowLine ? 1 : 1 + lineBreaksIn(fields);
    parserRowLine = parser.info.lines + 1;
    // csv-parse holds every record to the width of the first one and, even with relax_column_count,
    // builds an error for each that differs (a stack trace and a JSON copy of the record: ten times
    // the reading's time when every row has one separator more than the header, as spreadsheets
    // write). The import checks widths itself, so each record is the first one again.
    parser.info.records = 0;
  }

  /** csv-parse's error as the people who upload the file read it. */
  function explain(error: Error): Error {
    if (!(error instanceof CsvError)) return error;
    switch (error.code) {
      case 'CSV_QUOTE_NOT_CLOSED':
        return new CsvFileError(
          rowLine,
          `Comillas sin cerrar: el campo que empieza en la línea ${rowLine} no se cierra antes del fin del archivo.`,
        );
      case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      case 'CSV_INVALID_CLOSING_QUOTE': {
        // Exact unless a CRLF inside quotes comes earlier in the same row (csv-parse counts it twice).
        const line = rowLine + Math.max(0, Number(error.lines) - parserRowLine);
        return new CsvFileError(
          line,
          `Comillas mal cerradas en la línea ${line}: después de cerrar unas comillas debe venir ${
            SEPARATOR_NAMES[separator as CsvSeparator]
          } o el fin de la línea.`,
        );
      }
      case 'CSV_MAX_RECORD_SIZE':
        return tooLong();
      default:
        return new CsvFileError(rowLine, `No se pudo leer la línea ${rowLine}: ${error.message}`);
    }
  }

  function feed(chunk: Buffer | undefined, end: boolean): void {
    const error = (core as ParseCore).parse(chunk, end, row, () => {});
    if (error) throw explain(error);
  }

  /** Starts csv-parse once the separator is known, with what was kept of the header. */
  function start(sep: CsvSeparator): void {
    separator = sep;
    core = parseCore({
      delimiter: sep,
      // Every line end, even mixed in one file (csv-parse would otherwise keep the first one it sees).
      record_delimiter: ['\r\n', '\n', '\r'],
      bom: true,
      // A quote inside an unquoted field is text; spaces after a closing quote are dropped.
      relax_quotes: true,
      rtrim: true,
      // Rows of the wrong width and blank lines are reported per row by the import, not here.
      relax_column_count: true,
      skip_empty_lines: false,
      max_record_size: maxRowChars,
    });
    const buffered = headerBuffer;
    headerBuffer = Buffer.alloc(0);
    if (buffered.length > 0) feed(buffered, false);
  }

  return {
    /** Text, or bytes of a UTF-8 file as read (csv-parse works on bytes: no decoding and encoding again). */
    push(text: string | Uint8Array): void {
      if (ended) throw new Error('CSV reader already ended');
      const chunk =
        typeof text === 'string' ? Buffer.from(text) : Buffer.from(text.buffer, text.byteOffset, text.length);
      if (separator === null) {
        headerBuffer = Buffer.concat([headerBuffer, chunk]);
        const end = headerLineEnd(headerBuffer);
        if (end < 0) {
          if (headerBuffer.length > maxRowChars) throw tooLong();
          return;
        }
        start(detectSeparator(headerBuffer.subarray(0, end)));
        return;
      }
      feed(chunk, false);
    },

    /** The end of the text: the last row (if the file does not end with a line break) comes out. */
    end(): void {
      if (ended) return;
      ended = true;
      if (separator === null) start(detectSeparator(headerBuffer));
      feed(undefined, true);
    },

    get separator(): CsvSeparator | null {
      return separator;
    },
  };
}
export type CsvReader = ReturnType<typeof createCsvReader>;

const SEMICOLON = 59;
const COMMA = 44;
const TAB = 9;

/**
 * Decides the separator from the header line's bytes (counted outside quotes; in UTF-8 no byte of a
 * letter outside ASCII is a quote, a separator or a line break).
 */
function detectSeparator(headerLine: Uint8Array): CsvSeparator {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const c of headerLine) {
    if (c === QUOTE) quoted = !quoted;
    else if (quoted) continue;
    else if (c === SEMICOLON) counts[';']++;
    else if (c === COMMA) counts[',']++;
    else if (c === TAB) counts['\t']++;
  }
  // Spanish-language Excel writes semicolons; a tie goes to them.
  if (counts[';'] >= counts[','] && counts[';'] >= counts['\t'])
    return counts[';'] > 0 || counts[','] === 0 ? ';' : ',';
  return counts[','] >= counts['\t'] ? ',' : '\t';
}

/** Where the header line ends (outside quotes), or -1 while it has not ended yet. */
function headerLineEnd(bytes: Uint8Array): number {
  let quoted = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) quoted = !quoted;
    else if (!quoted && (c === LF || c === CR)) return i;
  }
  return -1;
}
