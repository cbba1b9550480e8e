// The CSV import: one reading of the file that checks every row and compares it with the records already
// there; a dry run changes nothing, an import reads inside one transaction that writes each new row as it
// comes, all or nothing.

import type { Kysely } from 'kysely';
import { requireElectionOpen } from '#server/core/election/election';
import { requireNoPurgeHold } from '#server/core/records/purge-hold';
import { createRecordChangesRepository, type ImportedRecord } from '#server/core/records/record-changes.repository';
import { type RecordsActor, recordListAnswers, requireMunicipality } from '#server/core/records/records';
import {
  type CandidateRow,
  createRecordsRepository,
  type MunicipalityRow,
  type NewPhoto,
  type NewRecord,
} from '#server/core/records/records.repository';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { auditedCsvExport, type CsvExport, cursorPages } from '#server/platform/export/csv-export';
import { csvDateTime, csvZoneLabel } from '#server/platform/lib/csv';
import {
  type ImportMode,
  type ImportPhase,
  type ImportReport,
  type ImportResult,
  recordsImportMessages,
} from '#shared/features/records-import/records-import';
import type { RecordsAdminFilter } from '#shared/platform/record-fields';
import { type CsvEncoding, decideEncoding } from './records-import.encoding';
import { createRecordsImportRepository } from './records-import.repository';
import { noFindings, type PassResult, readPass } from './records-import.rows';
import type { ReceivedCsv } from './records-import.upload';

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

/** What stopped an import inside its transaction (rolled back): the reading found a problem. */
class ImportRefused extends Error {
  constructor(readonly pass: PassResult) {
    super('import refused');
  }
}

/**
 * The import, in one transaction: the file read once, every row checked and compared with the records as
 * this transaction sees them, each new row inserted as it comes with the counts it moves, and one audit
 * row. A problem with the file, or a row with errors (unless `omitInvalid`), rolls all of it back: it
 * throws ImportRefused with what the reading found.
 */
async function applyImport(
  options: ImportOptions,
  encoding: CsvEncoding,
  departments: MunicipalityRow[],
): Promise<PassResult> {
  const now = options.clock();
  // Once committed, the validators' lists of every department show the new records at once.
  return runChange(
    options.db,
    async ({ trx, audit }) => {
      // After 'Borrar datos personales', an import would bring back what it took (decision 093).
      await requireNoPurgeHold(trx);
      await requireElectionOpen(trx, 'import', { now });
      const kernel = createRecordChangesRepository(trx);
      const records = createRecordsRepository(trx);
      let batch: ImportedRecord[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await kernel.insertImported(batch, now);
        // The departments' pending counts move in the same transaction as their rows.
        const added = new Map<number, number>();
        for (const r of batch) added.set(r.departmentId, (added.get(r.departmentId) ?? 0) + 1);
        for (const [departmentId, count] of added) await records.bumpCounts(departmentId, { total: count });
        batch = [];
      };
      const pass = await readPass({
        file: options.received.file,
        encoding,
        departments,
        defaultDepartment: options.defaultDepartment,
        compareWith: trx,
        onValid: (record) => {
          batch.push(record);
          return batch.length >= INSERT_BATCH ? flush() : undefined;
        },
        onBytes: (bytes) => options.onProgress?.('guardando', bytes, options.received.facts.bytes),
      });
      if (pass.fileProblems.length > 0 || (pass.invalid > 0 && !options.omitInvalid)) throw new ImportRefused(pass);
      await flush();
      if (pass.valid === 0) return pass;
      const byDepartment = [...pass.byDepartment.values()];
      await audit({
        actorEmail: options.actor.email,
        action: 'records.import',
        departmentSlug: byDepartment.length === 1 ? byDepartment[0]?.slug : null,
        target: options.fileName,
        ip: options.actor.ip,
        details: {
          fileName: options.fileName,
          bytes: options.received.facts.bytes,
          encoding,
          separator: pass.separator,
          rows: pass.rows,
          imported: pass.valid,
          duplicatesInFile: pass.duplicatesInFile,
          duplicatesInDatabase: pass.duplicatesInDatabase,
          omittedWithErrors: pass.invalid,
          byDepartment: Object.fromEntries(byDepartment.map((d) => [d.slug, d.rows])),
        },
        at: now,
      });
      return pass;
    },
    { forget: [recordListAnswers] },
  );
}

/**
 * Imports a received CSV, reading it once. A dry run checks every row and compares it with the records
 * already there, and changes nothing. An import does the same inside one transaction that inserts every
 * new row as it comes, with the counts it moves and one audit row: all of it, or nothing (a problem with
 * the file, or rows with errors unless `omitInvalid`, roll it back). Rows repeating a record of the
 * database or an earlier row are left out and listed.
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
    ...noFindings(),
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
    return answer(422, recordsImportMessages.importBlockedByFile, {
      ...emptyReport(),
      fileProblems: [decided.problem],
    });
  }
  const { encoding } = decided;
  // Said at the dry run already, before anyone prepares an import that would be refused.
  await requireNoPurgeHold(options.db);
  const departments = await createRecordsRepository(options.db).listMunicipalities();
  if (options.mode === 'simulacion') {
    const checked = await readPass({
      file: received.file,
      encoding,
      departments,
      defaultDepartment: options.defaultDepartment,
      compareWith: options.db,
      onBytes: (bytes) => options.onProgress?.('revisando', bytes, received.facts.bytes),
    });
    if (checked.fileProblems.length > 0) {
      return answer(422, recordsImportMessages.importBlockedByFile, toReport(encoding, checked, false));
    }
    return answer(200, recordsImportMessages.dryRunDone, toReport(encoding, checked, false));
  }
  let applied: PassResult;
  try {
    applied = await applyImport(options, encoding, departments);
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    const refused = error.pass;
    const message =
      refused.fileProblems.length > 0
        ? recordsImportMessages.importBlockedByFile
        : recordsImportMessages.importBlockedByErrors;
    return answer(422, message, toReport(encoding, refused, false));
  }
  if (applied.valid === 0) {
    return answer(200, recordsImportMessages.nothingToImport, toReport(encoding, applied, false));
  }
  return answer(201, recordsImportMessages.importDone(applied.valid), toReport(encoding, applied, true));
}

/** Records per page of the CSV export, read as the client reads. */
const EXPORT_PAGE = 2_000;

/** What a bulk load writes, inside its transaction. */
export interface RecordsBulkLoad {
  listMunicipalities(): Promise<MunicipalityRow[]>;
  listCandidates(): Promise<CandidateRow[]>;
  /** Records, votes already cast included; their ids in order. */
  insertRecords(records: NewRecord[], now: Date): Promise<number[]>;
  insertVoteRows(rows: { record_id: number; candidate_id: number; created_at: string }[]): Promise<void>;
  insertPhotos(photos: NewPhoto[]): Promise<number[]>;
  /** One audit row in the load's change: each vote and photo leaves the row its own path would write. */
  audit: Change['audit'];
}

/** Records brought in and taken out in bulk, as named use cases: the CSV import, the export, the demo's load. */
export function createRecordsImportService(db: Kysely<Database>, clock: () => Date) {
  return {
    /** The municipality or parish named in the request: 400 when there is none. */
    requireMunicipality: (slug: string): Promise<MunicipalityRow> => requireMunicipality(db, slug),

    /** The CSV import (see importRecords). */
    importCsv(options: Omit<ImportOptions, 'db' | 'clock'>): Promise<ImportOutcome> {
      return importRecords({ ...options, db, clock });
    },

    /**
     * A municipality's records as CSV for Excel, with the columns the import reads, written page by
     * page as the client reads (a big municipality never sits in memory at once). The export itself is
     * an audit row, stored before the first line goes.
     */
    async exportCsv(slug: string, status: RecordsAdminFilter, actor: RecordsActor): Promise<CsvExport> {
      const found = await requireMunicipality(db, slug);
      const now = clock();
      const repo = createRecordsImportRepository(db);
      return auditedCsvExport(db, {
        // Who took whose names and phones, and how many (decision 081): read in the change, so the count
        // is the one of the rows as they were when the export started.
        audit: async (trx) => ({
          actorEmail: actor.email,
          action: 'records.export',
          departmentSlug: found.slug,
          target: `${found.slug}.csv`,
          ip: actor.ip,
          details: {
            status,
            rows: await createRecordsImportRepository(trx).exportCount(found.id, status),
            personalData: ['nombre', 'telefono'],
          },
          at: now,
        }),
        name: `registros-${found.slug}`,
        at: now,
        header: [
          'Comunidades',
          'Nombre',
          'UBCH',
          'Telefono',
          'Departamento',
          'Estado',
          'Votos',
          `Votado el (${csvZoneLabel(now)})`,
          'ID',
          // What a validator types in an SMS vote; the import ignores the column.
          'Código SMS',
        ],
        pages: cursorPages({
          first: 0,
          size: EXPORT_PAGE,
          read: (after, size) => repo.exportPage(found.id, status, after, size),
          next: (r) => r.id,
        }),
        line: (r) => [
          r.comunidad,
          r.nombre,
          r.ubch,
          r.telefono,
          r.department_slug,
          r.status,
          r.voted_at === null ? '' : r.vote_codes ? r.vote_codes.split(',').join(' ') : 'Ninguno',
          csvDateTime(r.voted_at),
          r.id,
          r.short_code ?? '',
        ],
      });
    },

    /**
     * Records written in bulk with their votes and photos (the demo data), in one change, each vote and
     * photo with the audit row a validator's would leave (so `audit:verify` holds on the demo); then every
     * record's photo slots point at its photos and every count and result total is recounted. Not for the vote or upload paths, which keep their counts as they go.
     */
    loadInBulk(load: (tx: RecordsBulkLoad) => Promise<void>): Promise<void> {
      return runChange(
        db,
        async ({ trx, audit }) => {
          const records = createRecordsRepository(trx);
          await load({
            listMunicipalities: () => records.listMunicipalities(),
            listCandidates: () => records.listCandidates(),
            insertRecords: (list, now) => records.insertMany(list, now),
            insertVoteRows: (rows) => records.insertVoteRows(rows),
            insertPhotos: (list) => records.insertPhotos(list),
            audit,
          });
          await records.relinkPhotoSlots();
          await records.rebuildTotals();
        },
        { forget: [recordListAnswers] },
      );
    },
  };
}
export type RecordsImportService = ReturnType<typeof createRecordsImportService>;
