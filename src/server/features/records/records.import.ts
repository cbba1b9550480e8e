import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { writeAudit } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { HttpError } from '#server/platform/http/errors';
import { unguardCell } from '#server/platform/lib/csv';
import {
  IMPORT_MAX_LINE_CHARS,
  IMPORT_MAX_ROWS,
  IMPORT_REPORT_MAX_ITEMS,
  type ImportDuplicate,
  type ImportMode,
  type ImportPhase,
  type ImportProblem,
  type ImportReport,
  type ImportResult,
  recordFieldProblem,
  recordsAdminMessages,
} from '#shared/features/records/records.admin';
import { formatCount } from '#shared/platform/format';
import { CsvFileError, type CsvSeparator, createCsvReader } from './records.csv';
import { personFingerprint } from './records.identity';
import { createRecordsRepository } from './records.repository';
import { foldText } from './records.search';
import { createRecordsAdminRepository, type ImportedRecord, type MunicipalityRow } from './records-admin.repository';
import type { RecordsActor } from './records-admin.service';

// --- receiving the file -----------------------------------------------------------------------------------

/** What the bytes of the upload say about its encoding, counted while it is written to disk. */
export interface ByteFacts {
  bytes: number;
  /** The first bytes, to recognise a byte order mark or a spreadsheet file. */
  head: Buffer;
  nulBytes: number;
  /** Bytes that cannot be UTF-8, and the line of the first one. */
  invalidUtf8: number;
  firstInvalidLine: number | null;
  /** Well-formed UTF-8 sequences of two to four bytes (accented letters written as UTF-8). */
  utf8Sequences: number;
}

export interface ReceivedCsv {
  file: string;
  facts: ByteFacts;
  discard(): Promise<void>;
}

/** Counts NUL bytes and checks UTF-8 (Unicode table 3-7) across chunks, one pass, no copies. */
function createByteScanner() {
  const facts: ByteFacts = {
    bytes: 0,
    head: Buffer.alloc(0),
    nulBytes: 0,
    invalidUtf8: 0,
    firstInvalidLine: null,
    utf8Sequences: 0,
  };
  let line = 1;
  let need = 0;
  let lo = 0x80;
  let hi = 0xbf;
  const invalid = () => {
    facts.invalidUtf8++;
    facts.firstInvalidLine ??= line;
  };
  return {
    facts,
    update(chunk: Buffer): void {
      if (facts.head.length < 4) facts.head = Buffer.concat([facts.head, chunk.subarray(0, 4 - facts.head.length)]);
      facts.bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i] as number;
        if (need === 0) {
          if (b < 0x80) {
            if (b === 0x0a) line++;
            else if (b === 0) facts.nulBytes++;
          } else if (b >= 0xc2 && b <= 0xdf) need = 1;
          else if (b === 0xe0) {
            need = 2;
            lo = 0xa0;
          } else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) need = 2;
          else if (b === 0xed) {
            need = 2;
            hi = 0x9f;
          } else if (b === 0xf0) {
            need = 3;
            lo = 0x90;
          } else if (b >= 0xf1 && b <= 0xf3) need = 3;
          else if (b === 0xf4) {
            need = 3;
            hi = 0x8f;
          } else invalid();
        } else if (b >= lo && b <= hi) {
          lo = 0x80;
          hi = 0xbf;
          if (--need === 0) facts.utf8Sequences++;
        } else {
          // A sequence cut short: count it and read this byte again as the start of something new.
          invalid();
          need = 0;
          lo = 0x80;
          hi = 0xbf;
          i--;
        }
      }
    },
    end(): void {
      if (need > 0) invalid();
      need = 0;
    },
  };
}

export const FileTooLarge = () => new HttpError(413, recordsAdminMessages.fileTooLarge);
export const UploadAborted = () => new HttpError(400, recordsAdminMessages.uploadAborted);

/**
 * Streams the uploaded CSV to a temporary file while counting what its bytes say about the encoding.
 * Only a chunk is ever in memory. Too large (413) or cut off (400): nothing is left behind.
 */
export async function receiveCsv(
  source: Readable & { truncated?: boolean },
  options: { tempDir: string; maxBytes: number; idleMs?: number },
): Promise<ReceivedCsv> {
  if (source.destroyed) throw UploadAborted();
  await fsp.mkdir(options.tempDir, { recursive: true });
  const file = path.join(options.tempDir, `${randomUUID()}.csv.part`);
  const scanner = createByteScanner();
  const idleMs = options.idleMs ?? 60_000;
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => scan.destroy(UploadAborted()), idleMs);
  };
  const scan = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      armIdleTimer();
      if (scanner.facts.bytes + chunk.length > options.maxBytes) return done(FileTooLarge());
      scanner.update(chunk);
      done(null, chunk);
    },
  });
  try {
    armIdleTimer();
    await pipeline(source, scan, fs.createWriteStream(file, { flags: 'wx' }));
    if (source.truncated) throw FileTooLarge();
  } catch (error) {
    clearTimeout(idleTimer);
    await fsp.rm(file, { force: true });
    if (error instanceof HttpError) throw error;
    const { code, syscall } = error as { code?: string; syscall?: string };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw FileTooLarge();
    if (syscall) throw error; // the disk failing is our problem (500)
    throw UploadAborted();
  }
  clearTimeout(idleTimer);
  scanner.end();
  return { file, facts: scanner.facts, discard: () => fsp.rm(file, { force: true }) };
}

/** Removes temporary files a crash left behind. */
export async function removeStaleImports(dir: string, olderThanMs = 60 * 60 * 1000): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - olderThanMs;
  for (const name of names) {
    if (!name.endsWith('.csv.part')) continue;
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat?.isFile() && stat.mtimeMs < cutoff) await fsp.rm(file, { force: true });
  }
}

// --- the encoding ---------------------------------------------------------------------------------------

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'latin-1';

/**
 * UTF-8 (with or without byte order mark) when every byte is valid UTF-8; Latin-1 (Windows-1252, what
 * Excel writes as "CSV" on Spanish Windows) when some bytes are not and none looks like UTF-8. Anything
 * else is explained, not guessed.
 */
export function decideEncoding(facts: ByteFacts): { encoding: CsvEncoding } | { problem: ImportProblem } {
  const problem = (reason: string, line: number | null = null) => ({ problem: { line, column: null, reason } });
  const h = facts.head;
  if (facts.bytes === 0) return problem('El archivo está vacío.');
  if ((h[0] === 0xff && h[1] === 0xfe) || (h[0] === 0xfe && h[1] === 0xff)) {
    return problem(
      'El archivo está en UTF-16 (Excel lo llama «Texto Unicode»). Guárdalo como «CSV UTF-8 (delimitado por comas)» y vuelve a intentarlo.',
    );
  }
  if (h[0] === 0x50 && h[1] === 0x4b && h[2] === 0x03 && h[3] === 0x04) {
    return problem(
      'Es un libro de Excel (.xlsx), no un CSV. En Excel: Archivo › Guardar como › «CSV UTF-8 (delimitado por comas)».',
    );
  }
  if (h[0] === 0xd0 && h[1] === 0xcf && h[2] === 0x11 && h[3] === 0xe0) {
    return problem('Es un libro de Excel antiguo (.xls), no un CSV. Guárdalo como «CSV UTF-8 (delimitado por comas)».');
  }
  if (facts.nulBytes > 0) {
    return problem(
      'El archivo tiene bytes nulos: no es un archivo de texto CSV (¿es una hoja de cálculo o una imagen?).',
    );
  }
  const bom = h[0] === 0xef && h[1] === 0xbb && h[2] === 0xbf;
  if (facts.invalidUtf8 === 0) return { encoding: bom ? 'utf-8-bom' : 'utf-8' };
  if (bom || facts.utf8Sequences > 0) {
    return problem(
      `El archivo mezcla codificaciones: tiene letras en UTF-8 y ${facts.invalidUtf8} ${
        facts.invalidUtf8 === 1 ? 'byte que no es' : 'bytes que no son'
      } UTF-8 (el primero en la línea ${facts.firstInvalidLine}). Guárdalo de nuevo como «CSV UTF-8».`,
      facts.firstInvalidLine,
    );
  }
  return { encoding: 'latin-1' };
}

/** The file's text, decoded chunk by chunk, with the bytes read so far. */
async function* readText(file: string, encoding: CsvEncoding): AsyncGenerator<{ text: string; bytes: number }> {
  // WHATWG's "latin1" is Windows-1252, a superset that also has € and the curly quotes. A UTF-8
  // byte order mark is dropped by the decoder.
  const decoder = new TextDecoder(encoding === 'latin-1' ? 'windows-1252' : 'utf-8');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 32 * 1024 })) {
    bytes += (chunk as Buffer).length;
    yield { text: decoder.decode(chunk as Buffer, { stream: true }), bytes };
  }
  yield { text: decoder.decode(), bytes };
}

// --- reading the rows -----------------------------------------------------------------------------------

type Field = 'comunidad' | 'nombre' | 'ubch' | 'telefono' | 'department';

/** Header names (without accents, case, spaces or punctuation) each field is known by. */
const HEADER_ALIASES: Record<string, Field> = {
  comunidades: 'comunidad',
  comunidad: 'comunidad',
  nombre: 'nombre',
  nombres: 'nombre',
  nombreyapellido: 'nombre',
  nombresyapellidos: 'nombre',
  nombrecompleto: 'nombre',
  ubch: 'ubch',
  telefono: 'telefono',
  telefonos: 'telefono',
  tlf: 'telefono',
  tlfn: 'telefono',
  celular: 'telefono',
  departamento: 'department',
  deparment: 'department',
  department: 'department',
  rephrase: 'department',
  slug: 'department',
  municipio: 'department',
  parroquia: 'department',
  municipioparroquia: 'department',
  municipiooparroquia: 'department',
};
const FIELD_NAMES: Record<Field, string> = {
  comunidad: 'Comunidades',
  nombre: 'Nombre',
  ubch: 'UBCH',
  telefono: 'Telefono',
  department: 'Departamento (o rephrase)',
};

const headerKey = (cell: string) => foldText(cell.replace(/^\uFEFF/, '')).replace(/[^a-z0-9]/g, '');
/** 'Machiques de Perijá', 'MACHIQUES-DE-PERIJA' and 'machiques de perija' name one municipality. */
const departmentKey = (value: string) =>
  foldText(value)
    .trim()
    .replace(/[\s_]+/g, '-');

const quoteValue = (value: string) => `«${value.length > 60 ? `${value.slice(0, 59)}…` : value}»`;

/** Everything one reading of the file finds out. */
interface PassResult {
  separator: CsvSeparator | null;
  columns: Record<string, string>;
  rows: number;
  valid: number;
  duplicatesInFile: number;
  duplicatesInDatabase: number;
  invalid: number;
  fileProblems: ImportProblem[];
  rowProblems: ImportProblem[];
  rowProblemsTotal: number;
  duplicates: ImportDuplicate[];
  byDepartment: Map<number, { slug: string; title: string; rows: number }>;
  /** Municipalities of the valid rows. */
  departments: Set<number>;
}

interface PassOptions {
  db: Kysely<Database>;
  file: string;
  encoding: CsvEncoding;
  departments: MunicipalityRow[];
  defaultDepartment?: MunicipalityRow;
  /**
   * The people already in the database, per municipality (see peopleOf): rows are compared with them
   * and with each other. Without it, rows are only checked.
   */
  people?: Map<number, Map<number, number>>;
  /** Each new row, in file order (the apply pass inserts them). */
  onValid?: (record: ImportedRecord) => Promise<void> | void;
  onBytes?: (bytes: number) => void;
  /** Data rows read so far. */
  onRows?: (rows: number) => void;
}

const ROW_FIELDS = ['comunidad', 'nombre', 'ubch', 'telefono'] as const;

/** One cell of a row, as the export wrote it (the formula guard undone) and trimmed. */
function cellOf(fields: string[], index: number | undefined): string {
  if (index === undefined) return '';
  const value = fields[index];
  return value === undefined ? '' : unguardCell(value).trim();
}

function isBlank(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== '') return false;
  return true;
}

/**
 * The people already recorded in these municipalities (fingerprint -> record id), read before the rows
 * that need them: rows held while a long read runs would survive long enough for V8 to start allocating
 * every later row straight in the old generation (allocation-site pretenuring), tens of megabytes of
 * garbage per import.
 */
async function peopleOf(
  db: Kysely<Database>,
  departments: Iterable<number>,
): Promise<Map<number, Map<number, number>>> {
  const repo = createRecordsAdminRepository(db);
  const people = new Map<number, Map<number, number>>();
  for (const departmentId of departments) {
    const keys = new Map<number, number>();
    for (let after = 0; ; ) {
      const page = await repo.identityPage(departmentId, after, 5_000);
      for (const r of page) {
        const key = personFingerprint(r.nombre, r.telefono);
        if (!keys.has(key)) keys.set(key, r.id);
      }
      if (page.length < 5_000) break;
      after = page.at(-1)?.id ?? after;
    }
    people.set(departmentId, keys);
  }
  return people;
}

/**
 * Reads the file once: header, then every row checked (fields, municipality), compared with the rows
 * before it and with the records already in the database (same municipality, same name and phone).
 * Memory: the current chunk, and one key per row for the duplicate checks. A row costs few allocations:
 * a 100,000-row import must fit in a modest server beside everything else it runs.
 */
async function readPass(options: PassOptions): Promise<PassResult> {
  const byKey = new Map<string, MunicipalityRow>();
  for (const d of options.departments) {
    byKey.set(d.slug, d);
    byKey.set(departmentKey(d.title), d);
  }
  // A file names a few municipalities over and over: each spelling is looked up once.
  const bySpelling = new Map<string, MunicipalityRow | null>();
  const findDepartment = (cell: string): MunicipalityRow | undefined => {
    let found = bySpelling.get(cell);
    if (found === undefined) {
      found = byKey.get(departmentKey(cell)) ?? null;
      if (bySpelling.size > 1_000) bySpelling.clear();
      bySpelling.set(cell, found);
    }
    return found ?? undefined;
  };
  const result: PassResult = {
    separator: null,
    columns: {},
    rows: 0,
    valid: 0,
    duplicatesInFile: 0,
    duplicatesInDatabase: 0,
    invalid: 0,
    fileProblems: [],
    rowProblems: [],
    rowProblemsTotal: 0,
    duplicates: [],
    byDepartment: new Map(),
    departments: new Set(),
  };
  let header: { width: number; index: Partial<Record<Field, number>>; names: Partial<Record<Field, string>> } | null =
    null;
  /** Blank lines seen since the last row: harmless at the end of the file, a problem before a row. */
  let blankLines: number[] = [];
  const blankInside: number[] = [];
  /** Per municipality: each person of the file (fingerprint -> line). */
  const seenInFile = new Map<number, Map<number, number>>();
  const noPeople = new Map<number, number>();
  let stopped = false;

  const fileProblem = (line: number | null, reason: string) => {
    result.fileProblems.push({ line, column: null, reason });
    stopped = true;
  };
  const rowProblem = (line: number, column: string | null, reason: string) => {
    result.rowProblemsTotal++;
    if (result.rowProblems.length < IMPORT_REPORT_MAX_ITEMS) result.rowProblems.push({ line, column, reason });
  };

  function readHeader(fields: string[], line: number): void {
    const index: Partial<Record<Field, number>> = {};
    const names: Partial<Record<Field, string>> = {};
    for (const [i, cell] of fields.entries()) {
      const field = HEADER_ALIASES[headerKey(cell)];
      if (!field) continue;
      if (index[field] !== undefined) {
        fileProblem(
          line,
          `La columna ${FIELD_NAMES[field]} aparece dos veces en el encabezado (columnas ${(index[field] as number) + 1} y ${i + 1}).`,
        );
        return;
      }
      index[field] = i;
      names[field] = cell.replace(/^\uFEFF/, '').trim();
    }
    const required: Field[] = ['comunidad', 'nombre', 'ubch', 'telefono'];
    if (!options.defaultDepartment) required.push('department');
    const missing = required.filter((f) => index[f] === undefined);
    if (missing.length > 0) {
      const found = fields.map((f) => f.trim()).filter(Boolean);
      fileProblem(
        line,
        `El encabezado no tiene ${missing.length === 1 ? 'la columna' : 'las columnas'} ${missing
          .map((f) => FIELD_NAMES[f])
          .join(
            ', ',
          )}. La primera línea debe nombrar las columnas Comunidades, Nombre, UBCH, Telefono y Departamento (o rephrase)${
          found.length > 0 ? `; se encontró: ${found.slice(0, 8).map(quoteValue).join(', ')}` : ''
        }.`,
      );
      return;
    }
    header = { width: fields.length, index, names };
    result.columns = Object.fromEntries(Object.entries(names));
  }

  /** One row. Synchronous, except when the apply pass writes a batch: then it answers a promise to wait for. */
  function readRow(fields: string[], line: number): Promise<void> | undefined {
    if (!header) {
      readHeader(fields, line);
      return;
    }
    if (isBlank(fields)) {
      blankLines.push(line);
      return;
    }
    if (blankLines.length > 0) {
      for (const blank of blankLines) blankInside.push(blank);
      blankLines = [];
    }
    if (++result.rows > IMPORT_MAX_ROWS) {
      fileProblem(
        line,
        `El archivo tiene más de ${formatCount(IMPORT_MAX_ROWS)} filas. Divídelo en partes más pequeñas.`,
      );
      return;
    }
    const h = header as NonNullable<typeof header>;
    // Empty cells after the last column (a spreadsheet's habit) do not count.
    let width = fields.length;
    while (width > h.width && (fields[width - 1] as string).trim() === '') width--;
    if (width !== h.width) {
      result.invalid++;
      rowProblem(line, null, `La fila tiene ${fields.length} columnas y el encabezado ${h.width}.`);
      return;
    }
    const comunidad = cellOf(fields, h.index.comunidad);
    const nombre = cellOf(fields, h.index.nombre);
    const ubch = cellOf(fields, h.index.ubch);
    const telefono = cellOf(fields, h.index.telefono);
    let problems = 0;
    for (const field of ROW_FIELDS) {
      const value =
        field === 'comunidad' ? comunidad : field === 'nombre' ? nombre : field === 'ubch' ? ubch : telefono;
      const problem = recordFieldProblem(field, value);
      if (problem) {
        problems++;
        rowProblem(line, h.names[field] ?? FIELD_NAMES[field], problem);
      }
    }
    const departmentCell = cellOf(fields, h.index.department);
    let department: MunicipalityRow | undefined;
    if (departmentCell) {
      department = findDepartment(departmentCell);
      if (!department) {
        problems++;
        rowProblem(
          line,
          h.names.department ?? null,
          `No existe el municipio o parroquia ${quoteValue(departmentCell)}.`,
        );
      }
    } else if (options.defaultDepartment) {
      department = options.defaultDepartment;
    } else {
      problems++;
      rowProblem(line, h.names.department ?? null, 'Falta el municipio o parroquia.');
    }
    if (problems > 0 || !department) {
      result.invalid++;
      return;
    }
    result.departments.add(department.id);
    if (!options.people) {
      result.valid++;
      return;
    }
    return acceptRow({ departmentId: department.id, comunidad, nombre, ubch, telefono }, department, line);
  }

  /** A valid row: a duplicate of a record or of an earlier row, or a new one. */
  function acceptRow(record: ImportedRecord, department: MunicipalityRow, line: number): Promise<void> | undefined {
    const key = personFingerprint(record.nombre, record.telefono);
    const existing = (options.people?.get(department.id) ?? noPeople).get(key);
    let seen = seenInFile.get(department.id);
    if (!seen) {
      seen = new Map();
      seenInFile.set(department.id, seen);
    }
    const earlier = existing === undefined ? seen.get(key) : undefined;
    if (existing !== undefined || earlier !== undefined) {
      if (existing !== undefined) result.duplicatesInDatabase++;
      else result.duplicatesInFile++;
      if (result.duplicates.length < IMPORT_REPORT_MAX_ITEMS) {
        result.duplicates.push({
          line,
          nombre: record.nombre,
          telefono: record.telefono,
          department: department.title,
          sameAsLine: earlier ?? null,
          sameAsRecord: existing ?? null,
        });
      }
      return;
    }
    seen.set(key, line);
    result.valid++;
    let count = result.byDepartment.get(department.id);
    if (!count) {
      count = { slug: department.slug, title: department.title, rows: 0 };
      result.byDepartment.set(department.id, count);
    }
    count.rows++;
    const wait = options.onValid?.(record);
    return wait instanceof Promise ? wait : undefined;
  }

  const pendingFields: string[][] = [];
  const pendingLines: number[] = [];
  const reader = createCsvReader({
    maxRowChars: IMPORT_MAX_LINE_CHARS,
    onRow: (fields, line) => {
      pendingFields.push(fields);
      pendingLines.push(line);
    },
  });
  const drain = async () => {
    for (let i = 0; i < pendingFields.length && !stopped; i++) {
      const wait = readRow(pendingFields[i] as string[], pendingLines[i] as number);
      if (wait) await wait;
    }
    pendingFields.length = 0;
    pendingLines.length = 0;
    options.onRows?.(result.rows);
  };
  try {
    for await (const { text, bytes } of readText(options.file, options.encoding)) {
      reader.push(text);
      await drain();
      options.onBytes?.(bytes);
      if (stopped) break;
    }
    if (!stopped) {
      reader.end();
      await drain();
    }
  } catch (error) {
    if (!(error instanceof CsvFileError)) throw error;
    fileProblem(error.line, error.message);
  }
  result.separator = reader.separator;

  if (!stopped && !header) fileProblem(null, 'El archivo no tiene encabezado ni filas.');
  else if (!stopped && result.rows === 0)
    fileProblem(null, 'El archivo no tiene filas de datos debajo del encabezado.');
  for (const blank of blankInside.slice(0, IMPORT_REPORT_MAX_ITEMS)) {
    result.fileProblems.push({
      line: blank,
      column: null,
      reason: 'Línea vacía en medio del archivo: quítala (o revisa si falta el contenido de esa fila).',
    });
  }
  return result;
}

// --- the import -----------------------------------------------------------------------------------------

export interface ImportOptions {
  db: Kysely<Database>;
  received: ReceivedCsv;
  fileName: string;
  mode: ImportMode;
  omitInvalid: boolean;
  defaultDepartment?: MunicipalityRow;
  actor: RecordsActor;
  clock: () => Date;
  onProgress?: (phase: ImportPhase, done: number, total: number) => void;
}

export interface ImportOutcome {
  status: number;
  body: ImportResult;
}

/** Rows per INSERT statement (10 values each: well under both databases' parameter limits). */
const INSERT_BATCH = 500;

/**
 * Imports a received CSV. First a reading that changes nothing (the dry run stops there); then, when the
 * file can be imported, a second reading inside one transaction that inserts every new row with the
 * counts it moves and one audit row: all of it, or nothing. Rows repeating a record of the database or an
 * earlier row are left out and listed; rows with errors block the import unless `omitInvalid`.
 */
export async function importRecords(options: ImportOptions): Promise<ImportOutcome> {
  const started = Date.now();
  const { received } = options;
  const emptyReport = (): ImportReport => ({
    mode: options.mode,
    applied: false,
    fileName: options.fileName,
    bytes: received.facts.bytes,
    encoding: null,
    separator: null,
    columns: {},
    rows: 0,
    valid: 0,
    duplicatesInFile: 0,
    duplicatesInDatabase: 0,
    invalid: 0,
    fileProblems: [],
    rowProblems: [],
    rowProblemsTotal: 0,
    duplicates: [],
    byDepartment: [],
    durationMs: 0,
  });
  const toReport = (encoding: CsvEncoding, pass: PassResult, applied: boolean): ImportReport => ({
    ...emptyReport(),
    applied,
    encoding,
    separator: pass.separator,
    columns: pass.columns,
    rows: pass.rows,
    valid: pass.valid,
    duplicatesInFile: pass.duplicatesInFile,
    duplicatesInDatabase: pass.duplicatesInDatabase,
    invalid: pass.invalid,
    fileProblems: pass.fileProblems,
    rowProblems: pass.rowProblems,
    rowProblemsTotal: pass.rowProblemsTotal,
    duplicates: pass.duplicates,
    byDepartment: [...pass.byDepartment.values()],
    durationMs: Date.now() - started,
  });
  const answer = (status: number, message: string, report: ImportReport): ImportOutcome => ({
    status,
    body: { message, report: { ...report, durationMs: Date.now() - started } },
  });

  const decided = decideEncoding(received.facts);
  if ('problem' in decided) {
    return answer(422, recordsAdminMessages.importBlockedByFile, { ...emptyReport(), fileProblems: [decided.problem] });
  }
  const { encoding } = decided;
  const departments = await createRecordsAdminRepository(options.db).listMunicipalities();
  const dryRun = options.mode === 'simulacion';
  // First a reading that only checks rows (and finds their municipalities); the dry run then reads again
  // to compare them with the records of those municipalities, the import does so in its transaction.
  const total = received.facts.bytes * (dryRun ? 2 : 1);
  const pass = (people: Map<number, Map<number, number>> | undefined, db: Kysely<Database>, from = 0) =>
    readPass({
      db,
      file: received.file,
      encoding,
      departments,
      defaultDepartment: options.defaultDepartment,
      people,
      onBytes: (bytes) => options.onProgress?.('revisando', from + bytes, total),
    });
  const checked = await pass(undefined, options.db);
  if (checked.fileProblems.length > 0) {
    return answer(422, recordsAdminMessages.importBlockedByFile, toReport(encoding, checked, false));
  }
  if (dryRun) {
    const people = await peopleOf(options.db, checked.departments);
    const compared = await pass(people, options.db, received.facts.bytes);
    return answer(200, recordsAdminMessages.dryRunDone, toReport(encoding, compared, false));
  }
  if (checked.invalid > 0 && !options.omitInvalid) {
    return answer(422, recordsAdminMessages.importBlockedByErrors, toReport(encoding, checked, false));
  }

  const now = options.clock();
  const applied = await options.db.transaction().execute(async (trx) => {
    const repo = createRecordsAdminRepository(trx);
    const records = createRecordsRepository(trx);
    let batch: ImportedRecord[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await repo.insertImported(batch, now);
      // The departments' pending counts move in the same transaction as their rows.
      const added = new Map<number, number>();
      for (const r of batch) added.set(r.departmentId, (added.get(r.departmentId) ?? 0) + 1);
      for (const [departmentId, count] of added) await records.bumpCounts(departmentId, { total: count });
      batch = [];
    };
    options.onProgress?.('guardando', 0, checked.rows);
    const people = await peopleOf(trx, checked.departments);
    const final = await readPass({
      db: trx,
      file: received.file,
      encoding,
      departments,
      defaultDepartment: options.defaultDepartment,
      people,
      onValid: async (record) => {
        batch.push(record);
        if (batch.length >= INSERT_BATCH) await flush();
      },
      onRows: (rows) => options.onProgress?.('guardando', rows, checked.rows),
    });
    await flush();
    // The same file read the same way: anything new here means it changed under us. Nothing is kept.
    if (final.fileProblems.length > 0 || (final.invalid > 0 && !options.omitInvalid)) {
      throw new Error('the second reading of an import disagrees with the first');
    }
    if (final.valid === 0) return final;
    const byDepartment = [...final.byDepartment.values()];
    await writeAudit(trx, {
      actorEmail: options.actor.email,
      action: 'records.import',
      departmentSlug: byDepartment.length === 1 ? byDepartment[0]?.slug : null,
      target: options.fileName,
      ip: options.actor.ip,
      details: {
        fileName: options.fileName,
        bytes: received.facts.bytes,
        encoding,
        separator: final.separator,
        rows: final.rows,
        imported: final.valid,
        duplicatesInFile: final.duplicatesInFile,
        duplicatesInDatabase: final.duplicatesInDatabase,
        omittedWithErrors: final.invalid,
        byDepartment: Object.fromEntries(byDepartment.map((d) => [d.slug, d.rows])),
      },
      at: now,
    });
    return final;
  });
  if (applied.valid === 0) {
    return answer(200, recordsAdminMessages.nothingToImport, toReport(encoding, applied, false));
  }
  return answer(201, recordsAdminMessages.importDone(applied.valid), toReport(encoding, applied, true));
}
