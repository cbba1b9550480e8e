// Reading the rows of an uploaded CSV: the header, every row checked, duplicates of the file and of the
// database found, and each new row handed on (an import writes it in its transaction).

import type { Kysely } from 'kysely';
import type { ImportedRecord } from '#server/core/records/record-changes.repository';
import { personKey } from '#server/core/records/records.identity';
import type { MunicipalityRow } from '#server/core/records/records.repository';
import type { Database } from '#server/platform/db/schema';
import { unguardCell } from '#server/platform/lib/csv';
import { departmentKey, foldText, quoteValue } from '#server/platform/lib/text';
import {
  IMPORT_MAX_LINE_CHARS,
  IMPORT_MAX_ROWS,
  IMPORT_REPORT_MAX_ITEMS,
  type ImportDuplicate,
  type ImportProblem,
} from '#shared/features/records-import/records-import';
import { formatCount } from '#shared/platform/format';
import { recordFieldProblem } from '#shared/platform/record-fields';
import { CsvFileError, type CsvSeparator, readCsv } from './records-import.csv';
import { type CsvEncoding, readText } from './records-import.encoding';
import { createRecordsImportRepository } from './records-import.repository';

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

/** What a reading counts and lists (and the import reports), before it has read anything. */
export const noFindings = () => ({
  rows: 0,
  valid: 0,
  duplicatesInFile: 0,
  duplicatesInDatabase: 0,
  invalid: 0,
  fileProblems: [] as ImportProblem[],
  rowProblems: [] as ImportProblem[],
  rowProblemsTotal: 0,
  duplicates: [] as ImportDuplicate[],
});

/** Everything one reading of the file finds out. */
export interface PassResult {
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
}

interface PassOptions {
  file: string;
  encoding: CsvEncoding;
  departments: MunicipalityRow[];
  defaultDepartment?: MunicipalityRow;
  /**
   * The database whose records the rows are compared with (the dry run's, or the import's transaction),
   * besides with each other.
   */
  compareWith: Kysely<Database>;
  /** Each new row (valid, and no duplicate), in file order; the reading waits for a promise it answers. */
  onValid?: (record: ImportedRecord) => Promise<void> | void;
  onBytes?: (bytes: number) => void;
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

/** Where each field is in a row, and the name the file gives its column. */
interface Header {
  width: number;
  index: Partial<Record<Field, number>>;
  names: Partial<Record<Field, string>>;
}

/** The header line, or why it is not one. Without a default municipality, the file must name a column for it. */
function readHeader(fields: string[], needsDepartment: boolean): Header | { problem: string } {
  const index: Partial<Record<Field, number>> = {};
  const names: Partial<Record<Field, string>> = {};
  for (const [i, cell] of fields.entries()) {
    const field = HEADER_ALIASES[headerKey(cell)];
    if (!field) continue;
    if (index[field] !== undefined) {
      return {
        problem: `La columna ${FIELD_NAMES[field]} aparece dos veces en el encabezado (columnas ${(index[field] as number) + 1} y ${i + 1}).`,
      };
    }
    index[field] = i;
    names[field] = cell.replace(/^\uFEFF/, '').trim();
  }
  const required: Field[] = ['comunidad', 'nombre', 'ubch', 'telefono'];
  if (needsDepartment) required.push('department');
  const missing = required.filter((f) => index[f] === undefined);
  if (missing.length > 0) {
    const found = fields.map((f) => f.trim()).filter(Boolean);
    return {
      problem: `El encabezado no tiene ${missing.length === 1 ? 'la columna' : 'las columnas'} ${missing
        .map((f) => FIELD_NAMES[f])
        .join(
          ', ',
        )}. La primera línea debe nombrar las columnas Comunidades, Nombre, UBCH, Telefono y Departamento (o rephrase)${
        found.length > 0 ? `; se encontró: ${found.slice(0, 8).map(quoteValue).join(', ')}` : ''
      }.`,
    };
  }
  return { width: fields.length, index, names };
}

/** A row's municipality by slug or title, however it is spelled. */
function createDepartmentFinder(departments: MunicipalityRow[]): (cell: string) => MunicipalityRow | undefined {
  const byKey = new Map<string, MunicipalityRow>();
  for (const d of departments) {
    byKey.set(d.slug, d);
    byKey.set(departmentKey(d.title), d);
  }
  // A file names a few municipalities over and over: each spelling is looked up once.
  const bySpelling = new Map<string, MunicipalityRow | null>();
  return (cell) => {
    let found = bySpelling.get(cell);
    if (found === undefined) {
      found = byKey.get(departmentKey(cell)) ?? null;
      if (bySpelling.size > 1_000) bySpelling.clear();
      bySpelling.set(cell, found);
    }
    return found ?? undefined;
  };
}

/** The people already recorded in a municipality (personKey -> record id), read when its first row needs them. */
async function peopleIn(db: Kysely<Database>, departmentId: number): Promise<Map<string, number>> {
  const repo = createRecordsImportRepository(db);
  const keys = new Map<string, number>();
  for (let after = 0; ; ) {
    const page = await repo.identityPage(departmentId, after, 5_000);
    for (const r of page) {
      const key = personKey(r.nombre, r.telefono);
      if (!keys.has(key)) keys.set(key, r.id);
    }
    if (page.length < 5_000) break;
    after = page.at(-1)?.id ?? after;
  }
  return keys;
}

/**
 * Compares valid rows, in file order, with the records of their municipality in `db` and with the rows
 * before them, counting into `result`: a duplicate of a record or of an earlier row, or a new one
 * (handed to `onValid`). Answers a promise only when it has to wait (people to read, a batch to write).
 */
function createComparer(
  db: Kysely<Database>,
  result: PassResult,
  onValid?: (record: ImportedRecord) => Promise<void> | void,
) {
  /** Per municipality: the people already recorded (personKey -> record id). */
  const people = new Map<number, Map<string, number>>();
  /** Per municipality: each person of the file (personKey -> line). */
  const seenInFile = new Map<number, Map<string, number>>();

  function compare(record: ImportedRecord, department: MunicipalityRow, line: number): Promise<void> | undefined {
    const inDatabase = people.get(department.id);
    if (!inDatabase) {
      return peopleIn(db, department.id).then((keys) => {
        people.set(department.id, keys);
        return compare(record, department, line);
      });
    }
    const key = personKey(record.nombre, record.telefono);
    const existing = inDatabase.get(key);
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
    const wait = onValid?.(record);
    return wait instanceof Promise ? wait : undefined;
  }
  return compare;
}

/**
 * Bytes (characters for a Latin-1 file) handed to the CSV reader at a time. csv-parse reads a piece
 * whole before its rows are compared; rows that wait long (while people are read or a batch is written)
 * outlive V8's young generation, and then V8 starts allocating every later row straight in the old one
 * (allocation-site pretenuring): tens of megabytes of garbage per import with 32 KB pieces.
 */
const PIECE = 4 * 1024;

/**
 * Reads the file once: header, then every row checked (fields, municipality) and compared with the rows
 * before it and with the records already in the database (same municipality, same name and phone).
 * Memory: the current chunk, and one key per row for the duplicate checks. A row costs few allocations:
 * a 100,000-row import must fit in a modest server beside everything else it runs.
 */
export async function readPass(options: PassOptions): Promise<PassResult> {
  const findDepartment = createDepartmentFinder(options.departments);
  const result: PassResult = {
    separator: null,
    columns: {},
    ...noFindings(),
    byDepartment: new Map(),
  };
  let header: Header | null = null;
  /** Blank lines seen since the last row: harmless at the end of the file, a problem before a row. */
  let blankLines: number[] = [];
  const blankInside: number[] = [];
  const compare = createComparer(options.compareWith, result, options.onValid);
  let stopped = false;

  const fileProblem = (line: number | null, reason: string) => {
    result.fileProblems.push({ line, column: null, reason });
    stopped = true;
  };
  const rowProblem = (line: number, column: string | null, reason: string) => {
    result.rowProblemsTotal++;
    if (result.rowProblems.length < IMPORT_REPORT_MAX_ITEMS) result.rowProblems.push({ line, column, reason });
  };

  /** One row. Synchronous, except when people are read or new rows written: then it answers a promise to wait for. */
  function readRow(fields: string[], line: number): Promise<void> | undefined {
    if (!header) {
      const read = readHeader(fields, !options.defaultDepartment);
      if ('problem' in read) fileProblem(line, read.problem);
      else {
        header = read;
        result.columns = Object.fromEntries(Object.entries(read.names));
      }
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
    const h = header as Header;
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
    const record = { departmentId: department.id, comunidad, nombre, ubch, telefono };
    return compare(record, department, line);
  }

  const rows = readCsv(
    (async function* () {
      for await (const { text, bytes } of readText(options.file, options.encoding)) {
        for (let at = 0; at < text.length; at += PIECE) {
          yield typeof text === 'string' ? text.slice(at, at + PIECE) : text.subarray(at, at + PIECE);
        }
        options.onBytes?.(bytes);
      }
    })(),
    { maxRowChars: IMPORT_MAX_LINE_CHARS },
  );
  try {
    for await (const { fields, line } of rows) {
      const wait = readRow(fields, line);
      if (wait) await wait;
      if (stopped) break;
    }
  } catch (error) {
    if (!(error instanceof CsvFileError)) throw error;
    fileProblem(error.line, error.message);
  }
  result.separator = rows.separator;

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
