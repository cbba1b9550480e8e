/**
 * CSV for the records back office: a streaming reader (text or UTF-8 bytes go in chunk by chunk, rows
 * come out; nothing but the current row is kept) on top of csv-parse, which does the quoting, escaping
 * and line endings. What stays here is what csv-parse does not decide for us: which separator a file uses, the
 * line each row starts on, and the Spanish explanation of what is wrong with a file.
 */
import { pipeline, Readable } from 'node:stream';
import { CsvError, type Options, parse } from 'csv-parse';
import { parse as parseWhole } from 'csv-parse/sync';
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

/** One row: its fields and the line it starts on (the header is line 1). Blank lines come as one empty field. */
export interface CsvRow {
  fields: string[];
  line: number;
}

/** The rows of a file, read as they are iterated; `separator` is known once the header has been read. */
export interface CsvRows extends AsyncIterable<CsvRow> {
  readonly separator: CsvSeparator | null;
}

type CsvOptions = Pick<
  Options,
  | 'delimiter'
  | 'record_delimiter'
  | 'relax_quotes'
  | 'rtrim'
  | 'relax_column_count'
  | 'skip_empty_lines'
  | 'max_record_size'
>;

const csvOptions = (separator: CsvSeparator, maxRowChars: number): CsvOptions => ({
  delimiter: separator,
  // Every line end, even mixed in one file (csv-parse would otherwise keep the first one it sees).
  record_delimiter: ['\r\n', '\n', '\r'],
  // A quote inside an unquoted field is text; spaces after a closing quote are dropped.
  relax_quotes: true,
  rtrim: true,
  // Rows of the wrong width and blank lines are reported per row by the import, not here.
  relax_column_count: true,
  skip_empty_lines: false,
  max_record_size: maxRowChars,
});

/**
 * An RFC 4180 reader: fields may be quoted, quotes inside quotes are doubled, quoted fields may hold
 * separators and line breaks; lines end with LF, CRLF or a lone CR, mixed. The separator (comma,
 * semicolon or tab) is the one the header line uses most outside quotes. A quote inside an unquoted
 * field is kept as text, spaces after a closing quote are allowed, a UTF-8 byte order mark is dropped.
 * Iterating throws CsvFileError for quotes left open, text after a closing quote and a row over the limit.
 *
 * The header line is read apart (csv-parse's sync API), the rest through csv-parse's stream: csv-parse
 * builds an error, stack trace included, for every record whose width differs from its first one's,
 * even when told to let it pass, and a spreadsheet's rows often have one separator more than its header.
 */
export function readCsv(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  { maxRowChars }: { maxRowChars: number },
): CsvRows {
  let separator: CsvSeparator | null = null;
  const tooLong = (line: number) =>
    new CsvFileError(
      line,
      `La línea ${line} tiene más de ${Math.round(maxRowChars / 1024)} KB: no parece una fila de este archivo (¿unas comillas sin cerrar?).`,
    );

  /** csv-parse's error as the people who upload the file read it; `rowLine` is where the row starts. */
  function explain(error: unknown, rowLine: number, parserRowLine: number): unknown {
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
        return tooLong(rowLine);
      default:
        return new CsvFileError(rowLine, `No se pudo leer la línea ${rowLine}: ${error.message}`);
    }
  }

  async function* rows(): AsyncGenerator<CsvRow> {
    const source = (async function* () {
      for await (const chunk of chunks) {
        yield typeof chunk === 'string'
          ? Buffer.from(chunk)
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      }
    })();
    // The header line, however many chunks it takes (a CR at a chunk's end may be half of a CRLF).
    let head = Buffer.alloc(0);
    let end = -1;
    let ended = false;
    while (end < 0 || (head[end] === CR && end === head.length - 1)) {
      const next = await source.next();
      if (next.done) {
        ended = true;
        break;
      }
      head = Buffer.concat([head, next.value]);
      end = headerLineEnd(head);
      if (end < 0 && head.length > maxRowChars) throw tooLong(1);
    }
    const headerBytes = end < 0 ? head : head.subarray(0, end);
    separator = detectSeparator(headerBytes);
    if (headerBytes.length === 0 && end < 0) return;
    let header: string[];
    try {
      header = (parseWhole(headerBytes, { ...csvOptions(separator, maxRowChars), bom: true }) as string[][])[0] ?? [''];
    } catch (error) {
      throw explain(error, 1, 1);
    }
    yield { fields: header, line: 1 };
    if (end < 0) return;

    const afterHeader = end + (head[end] === CR && head[end + 1] === LF ? 2 : 1);
    /** Where the next row starts, counted as csv-parse reads (rows it holds back count too). */
    let rowLine = 2 + lineBreaksIn(header);
    /** The same line as csv-parse counts it (a CRLF inside quotes is two for it), to place an error inside the row. */
    let parserRowLine = 1;
    const options: Options<CsvRow, string[]> = {
      ...csvOptions(separator, maxRowChars),
      on_record: (fields, { lines }) => {
        const row = { fields, line: rowLine };
        rowLine += 1 + lineBreaksIn(fields);
        parserRowLine = lines + 1;
        return row;
      },
    };
    // Each record comes out as a CsvRow: csv-parse's typings take other record types only with `columns`.
    const parser = parse(options as unknown as Options);
    const rest = (async function* () {
      if (afterHeader < head.length) yield head.subarray(afterHeader);
      if (!ended) yield* source;
    })();
    // A failure on the way (the file, csv-parse) ends the parser with it: the loop below throws it.
    pipeline(Readable.from(rest), parser, () => {});
    try {
      yield* parser as AsyncIterable<CsvRow>;
    } catch (error) {
      throw explain(error, rowLine, parserRowLine);
    } finally {
      parser.destroy();
    }
  }

  return {
    [Symbol.asyncIterator]: rows,
    get separator() {
      return separator;
    },
  };
}

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
