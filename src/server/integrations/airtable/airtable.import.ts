import type { Kysely } from 'kysely';
import { requireElectionOpen } from '#server/core/election/election';
import { requireNoPurgeHold } from '#server/core/records/purge-hold';
import { createRecordsAdminService } from '#server/features/records-admin/records-admin.service';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import type { AirtableClient, AirtableRecord } from './airtable.client';
import { importAgenda } from './airtable.import-agenda';
import { importPhotos, type PhotoImportOptions } from './airtable.import-photos';
import { importRecordRows } from './airtable.import-records';
import { type AirtableImportReport, type ImportProgress, noProgress, type RecordsRun } from './airtable.import-report';
import { importVotes } from './airtable.import-votes';

export interface AirtableImportOptions extends PhotoImportOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  client: AirtableClient;
  tables: { records: string; agenda: string };
  now: () => Date;
  /** The operator, for the audit row of the import. */
  actor: string;
  /** Only the records this formula keeps (e.g. one municipality). */
  recordsFormula?: string;
  progress?: ImportProgress;
}

async function readAll(
  client: AirtableClient,
  table: string,
  progress: ImportProgress,
  filterByFormula?: string,
): Promise<AirtableRecord[]> {
  const rows: AirtableRecord[] = [];
  progress.phase(`Leyendo «${table}» de Airtable`);
  try {
    for await (const page of client.pages(table, { filterByFormula })) {
      rows.push(...page);
      progress.advance(page.length);
    }
  } finally {
    progress.end();
  }
  return rows;
}

/**
 * Imports an Airtable base of the original app: the records table (Zulia) and the agenda table, read
 * completely first (nothing changes if Airtable fails while reading). Rows are matched by their
 * Airtable id (`source_id`), so a second run updates instead of duplicating, and changes nothing when
 * Airtable did not change. Records: new ones are inserted with their department's counts; changed
 * names, phones, communities, UBCH and municipality are updated (a record with a vote keeps its
 * municipality); a vote Airtable has arrives as a vote through the vote service, and photo links are
 * downloaded and stored through the photo service, both only while Comando has none: Comando is the
 * source of truth for votes and photos. Records Comando voided are left alone. Agenda events follow
 * Airtable. Rows that cannot be imported are skipped with the reason.
 */
export async function importFromAirtable(options: AirtableImportOptions): Promise<AirtableImportReport> {
  const { db, client, tables, now } = options;
  const progress = options.progress ?? noProgress;
  const report: AirtableImportReport = {
    records: { read: 0, created: 0, updated: 0, unchanged: 0, skipped: [], votes: 0, photos: 0 },
    agenda: { read: 0, created: 0, updated: 0, unchanged: 0, skipped: [] },
    warnings: [],
  };

  // The day's phase decides first, as for the CSV import (decision 078): nothing is read during the drill
  // or after the close; each write checks it again in its own transaction.
  await requireElectionOpen(db, 'import', { now: now() });

  // After 'Borrar datos personales', Airtable's copy would bring back every name and phone it took
  // (decision 093): refused before anything is read, and again in each write's transaction.
  await requireNoPurgeHold(db);
  const recordRows = await readAll(client, tables.records, progress, options.recordsFormula);
  const agendaRows = await readAll(client, tables.agenda, progress);
  report.records.read = recordRows.length;
  report.agenda.read = agendaRows.length;

  const municipalities = await createRecordsAdminService(db, now).listMunicipalities();
  const run: RecordsRun = {
    db,
    now,
    progress,
    report,
    table: tables.records,
    municipalities: new Map(municipalities.map((d) => [d.id, d])),
    changed: new Set(),
  };
  const targets = await importRecordRows(run, recordRows);
  await importVotes(run, targets, options.dialect);
  await importPhotos(run, targets, options);
  report.records.updated = run.changed.size;
  report.records.unchanged += targets.length - report.records.created - run.changed.size;

  await importAgenda(
    { db, now, actor: { email: options.actor, ip: null }, progress, report: report.agenda, table: tables.agenda },
    agendaRows,
  );

  // The run's own audit row, after the use cases' rows of what it changed (docs/decisions/072).
  await runChange(db, ({ audit }) =>
    audit({
      actorEmail: options.actor,
      action: 'airtable.import',
      target: `airtable:${client.baseId}`,
      details: {
        records: {
          table: tables.records,
          read: report.records.read,
          created: report.records.created,
          updated: report.records.updated,
          unchanged: report.records.unchanged,
          skipped: report.records.skipped.length,
          votes: report.records.votes,
          photos: report.records.photos,
        },
        agenda: {
          table: tables.agenda,
          read: report.agenda.read,
          created: report.agenda.created,
          updated: report.agenda.updated,
          unchanged: report.agenda.unchanged,
          skipped: report.agenda.skipped.length,
        },
        warnings: report.warnings.length,
        ...(options.recordsFormula ? { filterByFormula: options.recordsFormula } : {}),
      },
      at: now(),
    }),
  );
  return report;
}
