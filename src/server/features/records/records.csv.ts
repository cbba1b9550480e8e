/**
 * CSV for the records back office: a streaming reader (text goes in chunk by chunk, rows come out;
 * nothing but the current row is kept) and the cells of the export.
 */

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
const SPACE = 32;
const TAB = 9;

enum State {
  /** At the start of a field. */
  FieldStart,
  /** Inside a field without quotes. */
  Unquoted,
  /** Inside quotes. */
  Quoted,
  /** Just saw a quote inside quotes: either the closing one or the first of an escaped "". */
  QuoteInQuoted,
  /** After the closing quote: only spaces, the separator or the end of the line may follow. */
  AfterQuoted,
}

export interface CsvReaderOptions {
  /** A row longer than this (in characters, quotes included) stops the reading. */
  maxRowChars: number;
  /** Each row with its fields and the line it starts on. Blank lines come as one empty field. */
  onRow: (fields: string[], line: number) => void;
}

/**
 * An RFC 4180 reader: fields may be quoted, quotes inside quotes are doubled, quoted fields may hold
 * separators and line breaks; lines end with LF, CRLF or a lone CR. The separator (comma, semicolon or
 * tab) is the one the header line uses most outside quotes. A quote inside an unquoted field is kept
 * as text. Throws CsvFileError for quotes left open, text after a closing quote and a row over the limit.
 */
export function createCsvReader({ maxRowChars, onRow }: CsvReaderOptions) {
  let separator: CsvSeparator | null = null;
  let separatorCode = 0;
  /** Text of the header line while the separator is not known yet. */
  let headerBuffer = '';

  let state = State.FieldStart;
  let fields: string[] = [];
  /** The part of the current field that came in earlier chunks (or before an escaped quote). */
  let pending = '';
  /** Line of the current row's start and the current line. */
  let rowLine = 1;
  let line = 1;
  let rowChars = 0;
  let lastWasCr = false;
  /** A CR inside quotes was just counted as a line break (a CRLF must not count twice). */
  let crInQuotes = false;
  let ended = false;

  const tooLong = () =>
    new CsvFileError(
      rowLine,
      `La línea ${rowLine} tiene más de ${Math.round(maxRowChars / 1024)} KB: no parece una fila de este archivo (¿unas comillas sin cerrar?).`,
    );

  function endRow(): void {
    onRow(fields, rowLine);
    fields = [];
    rowChars = 0;
  }

  /** Scans one chunk once the separator is known. */
  function scan(text: string): void {
    let start = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (lastWasCr) {
        lastWasCr = false;
        if (c === LF) {
          start = i + 1;
          continue;
        }
      }
      switch (state) {
        case State.FieldStart:
          if (c === QUOTE) {
            state = State.Quoted;
            start = i + 1;
            pending = '';
          } else if (c === separatorCode) {
            fields.push('');
            start = i + 1;
          } else if (c === LF || c === CR) {
            fields.push('');
            endRow();
            line++;
            rowLine = line;
            lastWasCr = c === CR;
            start = i + 1;
          } else {
            state = State.Unquoted;
            start = i;
            pending = '';
          }
          break;
        case State.Unquoted:
          if (c === separatorCode) {
            fields.push(pending + text.slice(start, i));
            pending = '';
            state = State.FieldStart;
            start = i + 1;
          } else if (c === LF || c === CR) {
            fields.push(pending + text.slice(start, i));
            pending = '';
            state = State.FieldStart;
            endRow();
            line++;
            rowLine = line;
            lastWasCr = c === CR;
            start = i + 1;
          }
          break;
        case State.Quoted:
          if (c === QUOTE) {
            pending += text.slice(start, i);
            state = State.QuoteInQuoted;
            start = i + 1;
          } else if (c === LF) {
            if (!crInQuotes) line++;
            crInQuotes = false;
          } else if (c === CR) {
            line++;
            crInQuotes = true;
          } else {
            crInQuotes = false;
          }
          break;
        case State.QuoteInQuoted:
          if (c === QUOTE) {
            // An escaped quote: keep one and go on inside the quotes.
            pending += '"';
            state = State.Quoted;
            start = i + 1;
          } else {
            state = State.AfterQuoted;
            i--; // look at this character again as what follows the field
            start = i + 1;
          }
          break;
        case State.AfterQuoted:
          if (c === separatorCode) {
            fields.push(pending);
            pending = '';
            state = State.FieldStart;
            start = i + 1;
          } else if (c === LF || c === CR) {
            fields.push(pending);
            pending = '';
            state = State.FieldStart;
            endRow();
            line++;
            rowLine = line;
            lastWasCr = c === CR;
            start = i + 1;
          } else if (c === SPACE || c === TAB) {
            start = i + 1;
          } else {
            throw new CsvFileError(
              line,
              `Comillas mal cerradas en la línea ${line}: después de cerrar unas comillas debe venir ${
                SEPARATOR_NAMES[separator as CsvSeparator]
              } o el fin de la línea.`,
            );
          }
          break;
      }
      if (++rowChars > maxRowChars) throw tooLong();
    }
    if (state === State.Unquoted || state === State.Quoted) pending += text.slice(start, n);
  }

  /** Decides the separator from the header line (counted outside quotes). */
  function detectSeparator(headerLine: string): CsvSeparator {
    const counts = { ';': 0, ',': 0, '\t': 0 };
    let quoted = false;
    for (const ch of headerLine) {
      if (ch === '"') quoted = !quoted;
      else if (!quoted && (ch === ';' || ch === ',' || ch === '\t')) counts[ch]++;
    }
    // Spanish-language Excel writes semicolons; a tie goes to them.
    if (counts[';'] >= counts[','] && counts[';'] >= counts['\t'])
      return counts[';'] > 0 || counts[','] === 0 ? ';' : ',';
    return counts[','] >= counts['\t'] ? ',' : '\t';
  }

  function headerLineEnd(text: string): number {
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) quoted = !quoted;
      else if (!quoted && (c === LF || c === CR)) return i;
    }
    return -1;
  }

  return {
    push(text: string): void {
      if (ended) throw new Error('CSV reader already ended');
      if (separator === null) {
        headerBuffer += text;
        const end = headerLineEnd(headerBuffer);
        if (end < 0) {
          if (headerBuffer.length > maxRowChars) throw tooLong();
          return;
        }
        separator = detectSeparator(headerBuffer.slice(0, end));
        separatorCode = separator.charCodeAt(0);
        const buffered = headerBuffer;
        headerBuffer = '';
        scan(buffered);
        return;
      }
      scan(text);
    },

    /** The end of the text: the last row (if the file does not end with a line break) comes out. */
    end(): void {
      if (ended) return;
      ended = true;
      if (separator === null) {
        separator = detectSeparator(headerBuffer);
        separatorCode = separator.charCodeAt(0);
        const buffered = headerBuffer;
        headerBuffer = '';
        scan(buffered);
      }
      if (state === State.Quoted) {
        throw new CsvFileError(
          rowLine,
          `Comillas sin cerrar: el campo que empieza en la línea ${rowLine} no se cierra antes del fin del archivo.`,
        );
      }
      if (state === State.Unquoted || state === State.QuoteInQuoted || state === State.AfterQuoted) {
        fields.push(pending);
        pending = '';
        endRow();
      } else if (fields.length > 0) {
        // The line ended right after a separator: its last field is empty.
        fields.push('');
        endRow();
      }
      state = State.FieldStart;
    },

    get separator(): CsvSeparator | null {
      return separator;
    },
  };
}
export type CsvReader = ReturnType<typeof createCsvReader>;
