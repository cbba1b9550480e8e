// The CSV import: one reading of the file that checks (and in a dry run compares), then, to import, the
// rows it kept written in one transaction, all or nothing.

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
import { compareKept, type KeptRows, keepRows, noFindings, type PassResult, readPass } from './records.import-rows';
import { keptRowsFile, type ReceivedCsv } from './records.import-upload';
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
 * The kept rows, inside one transaction: every new row inserted with the counts it moves, and one audit
 * row. `checked` is what the reading of the file found.
 */
async function applyImport(
  options: ImportOptions,
  encoding: CsvEncoding,
  departments: MunicipalityRow[],
  kept: KeptRows,
  checked: PassResult,
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
    options.onProgress?.('guardando', 0, checked.valid);
    // Compared here, with the records as this transaction sees them.
    const final = await compareKept({
      kept,
      checked,
      db: trx,
      departments,
      onValid: (record) => {
        batch.push(record);
        return batch.length >= INSERT_BATCH ? flush() : undefined;
      },
      onRows: (rows) => options.onProgress?.('guardando', rows, checked.valid),
    });
    await flush();
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
 * Imports a received CSV. First one reading of the file that changes nothing: it checks every row, and
 * in a dry run compares them with the records already there; to import, it keeps the rows that passed.
 * Then, when the file can be imported, one transaction inserts every new kept row with the counts it
 * moves and one audit row: all of it, or nothing. Rows repeating a record of the database or an earlier
 * row are left out and listed; rows with errors block the import unless `omitInvalid`.
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
  // The CSV is read once (csv-parse reads several times slower than the kept rows are read back).
  const kept = dryRun ? undefined : await keepRows(keptRowsFile(received.file));
  try {
    const checked = await readPass({
      file: received.file,
      encoding,
      departments,
      defaultDepartment: options.defaultDepartment,
      compareWith: dryRun ? options.db : undefined,
      keep: kept,
      onBytes: (bytes) => options.onProgress?.('revisando', bytes, received.facts.bytes),
    });
    if (checked.fileProblems.length > 0) {
      return answer(422, recordsAdminMessages.importBlockedByFile, toReport(encoding, checked, false));
    }
    if (!kept) return answer(200, recordsAdminMessages.dryRunDone, toReport(encoding, checked, false));
    if (checked.invalid > 0 && !options.omitInvalid) {
      return answer(422, recordsAdminMessages.importBlockedByErrors, toReport(encoding, checked, false));
    }
    await kept.close();
    const applied = await applyImport(options, encoding, departments, kept, checked);
    // Committed: the validators' lists show the new records at once.
    recordListAnswers(options.db).forget();
    if (applied.valid === 0) {
      return answer(200, recordsAdminMessages.nothingToImport, toReport(encoding, applied, false));
    }
    return answer(201, recordsAdminMessages.importDone(applied.valid), toReport(encoding, applied, true));
  } finally {
    await kept?.discard();
  }
}
