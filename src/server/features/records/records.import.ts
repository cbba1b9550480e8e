// The CSV import: a reading that checks, then (unless a dry run) a second one that writes, all or nothing.

import type { Kysely } from 'kysely';
import { writeAudit } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import {
  type ImportMode,
  type ImportPhase,
  type ImportReport,
  type ImportResult,
  recordsAdminMessages,
} from '#shared/features/records/records.admin';
import { type CsvEncoding, decideEncoding } from './records.import-encoding';
import { noFindings, type PassResult, peopleOf, readPass } from './records.import-rows';
import type { ReceivedCsv } from './records.import-upload';
import { createRecordsRepository } from './records.repository';
import { recordListAnswers } from './records.service';
import { createRecordsAdminRepository, type ImportedRecord, type MunicipalityRow } from './records-admin.repository';
import type { RecordsActor } from './records-admin.service';

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
 * The second reading, inside one transaction: every new row inserted with the counts it moves, and one
 * audit row. `rowsToRead` and `inDepartments` are what the first reading found.
 */
async function applyImport(
  options: ImportOptions,
  encoding: CsvEncoding,
  departments: MunicipalityRow[],
  rowsToRead: number,
  inDepartments: Set<number>,
): Promise<PassResult> {
  const now = options.clock();
  return options.db.transaction().execute(async (trx) => {
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
    options.onProgress?.('guardando', 0, rowsToRead);
    const people = await peopleOf(trx, inDepartments);
    const final = await readPass({
      file: options.received.file,
      encoding,
      departments,
      defaultDepartment: options.defaultDepartment,
      people,
      onValid: async (record) => {
        batch.push(record);
        if (batch.length >= INSERT_BATCH) await flush();
      },
      onRows: (rows) => options.onProgress?.('guardando', rows, rowsToRead),
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
        bytes: options.received.facts.bytes,
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
}

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
    return answer(422, recordsAdminMessages.importBlockedByFile, { ...emptyReport(), fileProblems: [decided.problem] });
  }
  const { encoding } = decided;
  const departments = await createRecordsAdminRepository(options.db).listMunicipalities();
  const dryRun = options.mode === 'simulacion';
  // First a reading that only checks rows (and finds their municipalities); the dry run then reads again
  // to compare them with the records of those municipalities, the import does so in its transaction.
  const total = received.facts.bytes * (dryRun ? 2 : 1);
  const pass = (people: Map<number, Map<number, number>> | undefined, from = 0) =>
    readPass({
      file: received.file,
      encoding,
      departments,
      defaultDepartment: options.defaultDepartment,
      people,
      onBytes: (bytes) => options.onProgress?.('revisando', from + bytes, total),
    });
  const checked = await pass(undefined);
  if (checked.fileProblems.length > 0) {
    return answer(422, recordsAdminMessages.importBlockedByFile, toReport(encoding, checked, false));
  }
  if (dryRun) {
    const people = await peopleOf(options.db, checked.departments);
    const compared = await pass(people, received.facts.bytes);
    return answer(200, recordsAdminMessages.dryRunDone, toReport(encoding, compared, false));
  }
  if (checked.invalid > 0 && !options.omitInvalid) {
    return answer(422, recordsAdminMessages.importBlockedByErrors, toReport(encoding, checked, false));
  }

  const applied = await applyImport(options, encoding, departments, checked.rows, checked.departments);
  // Committed: the validators' lists show the new records at once.
  recordListAnswers(options.db).forget();
  if (applied.valid === 0) {
    return answer(200, recordsAdminMessages.nothingToImport, toReport(encoding, applied, false));
  }
  return answer(201, recordsAdminMessages.importDone(applied.valid), toReport(encoding, applied, true));
}
