// The records part of an Airtable import: rows checked, compared with earlier imports, inserted or updated.
import { createRecordsAdminService } from '#server/features/records-admin/records-admin.service';
import type { AirtableRecord } from './airtable.client';
import { type ImportNote, labelOf, type RecordsRun, warn } from './airtable.import-report';
import { type AirtableRecordRow, departmentIndex, mapRecordRow } from './airtable.mapping';
import { createAirtableRepository, type ImportedRecordRow } from './airtable.repository';

/** An imported record with Comando's copy as it is once Airtable's fields are written. */
export interface ImportTarget {
  row: AirtableRecordRow;
  record: ImportedRecordRow;
  isNew: boolean;
}

/** Rows per write transaction of the import. */
const WRITE_BATCH = 500;

const sameFields = (local: ImportedRecordRow, row: AirtableRecordRow) =>
  local.comunidad === row.fields.comunidad &&
  local.nombre === row.fields.nombre &&
  local.ubch === row.fields.ubch &&
  local.telefono === row.fields.telefono;

/** Every row checked (each Airtable id once); those that cannot be imported are skipped with the reason. */
function checkRows(run: RecordsRun, recordRows: AirtableRecord[]): AirtableRecordRow[] {
  const departments = departmentIndex([...run.municipalities.values()]);
  const rows: AirtableRecordRow[] = [];
  const seen = new Set<string>();
  for (const record of recordRows) {
    const note = (reason: string): ImportNote => ({
      table: run.table,
      airtableId: record.id,
      label: labelOf(record.fields, 'Nombre'),
      reason,
    });
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    const mapped = mapRecordRow(record, departments);
    if (!mapped.ok) {
      run.report.records.skipped.push(note(mapped.reason));
      continue;
    }
    rows.push(mapped.row);
    for (const warning of mapped.row.warnings) run.report.warnings.push(note(warning));
  }
  return rows;
}

/**
 * Records: new ones are inserted with their department's counts; changed names, phones, communities,
 * UBCH and municipality are updated (a record with a vote keeps its municipality). Records Comando
 * voided are left alone. Answers every imported record as Comando has it once this is written.
 */
export async function importRecordRows(run: RecordsRun, recordRows: AirtableRecord[]): Promise<ImportTarget[]> {
  const { db, now, progress, report } = run;
  const rows = checkRows(run, recordRows);
  const existing = new Map(
    (await createAirtableRepository(db).recordsBySource(rows.map((r) => r.sourceId))).map((r) => [r.source_id, r]),
  );
  const toCreate: AirtableRecordRow[] = [];
  const toUpdate: { row: AirtableRecordRow; local: ImportedRecordRow; target: ImportedRecordRow }[] = [];
  const targets: ImportTarget[] = [];
  for (const row of rows) {
    const local = existing.get(row.sourceId);
    if (!local) {
      toCreate.push(row);
      continue;
    }
    if (local.status !== 'pendiente') {
      // Voided in Comando: Comando decides, Airtable's copy no longer moves it.
      report.records.unchanged++;
      continue;
    }
    let departmentId = row.departmentId;
    if (departmentId !== local.department_id && local.voted_at !== null) {
      const kept = run.municipalities.get(local.department_id)?.slug ?? String(local.department_id);
      warn(run, row, `ya tiene voto en Comando: sigue en ${kept} (su voto cuenta allí)`);
      departmentId = local.department_id;
    }
    const target = { ...local, ...row.fields, department_id: departmentId };
    if (departmentId !== local.department_id || !sameFields(local, row)) toUpdate.push({ row, local, target });
    targets.push({ row, record: target, isNew: false });
  }

  if (toCreate.length + toUpdate.length === 0) return targets;
  progress.phase('Guardando registros', toCreate.length + toUpdate.length);
  try {
    const records = createRecordsAdminService(db, now);
    for (let i = 0; i < toCreate.length; i += WRITE_BATCH) {
      const batch = toCreate.slice(i, i + WRITE_BATCH);
      const ids = await records.insertFromSource(
        batch.map((row) => ({ departmentId: row.departmentId, sourceId: row.sourceId, ...row.fields })),
      );
      batch.forEach((row, j) => {
        const record: ImportedRecordRow = {
          id: ids[j] as number,
          source_id: row.sourceId,
          department_id: row.departmentId,
          ...row.fields,
          status: 'pendiente',
          voted_at: null,
          gobernador_photo_id: null,
          an_photo_id: null,
          clez_photo_id: null,
        };
        targets.push({ row, record, isNew: true });
      });
      report.records.created += batch.length;
      progress.advance(batch.length);
    }
    for (let i = 0; i < toUpdate.length; i += WRITE_BATCH) {
      const batch = toUpdate.slice(i, i + WRITE_BATCH);
      const written = await records.updateFromSource(
        batch.map(({ row, local, target }) => ({
          id: local.id,
          departmentId: local.department_id,
          fields: { departmentId: target.department_id, ...row.fields },
        })),
      );
      batch.forEach(({ row, local, target }, j) => {
        if (written[j]) {
          run.changed.add(row.sourceId);
          return;
        }
        // Voted (or voided) in Comando since it was read: Comando's state stands.
        Object.assign(target, local);
        warn(run, row, 'cambió en Comando durante la importación: no se actualizó');
      });
      progress.advance(batch.length);
    }
  } finally {
    progress.end();
  }
  return targets;
}
