// What an Airtable import reports, and what its parts (records, votes, photos, agenda) share while it runs.
import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { SessionUser } from '#server/platform/session/identity';
import type { AirtableRecordRow } from './airtable.mapping';

/** Who casts the votes and uploads the photos that arrive from Airtable, as the records and audit say. */
export const AIRTABLE_IMPORT_USER: SessionUser = { id: 0, email: 'airtable:import', role: 'staff' };

/** Progress of a long step: a count, or a bar when the total is known. */
export interface ImportProgress {
  phase(label: string, total?: number): void;
  advance(n?: number): void;
  end(): void;
}
export const noProgress: ImportProgress = { phase() {}, advance() {}, end() {} };

/** A row left out (or a part of it), and why. */
export interface ImportNote {
  table: string;
  airtableId: string;
  /** The person's name or the event's description, when there is one. */
  label: string;
  reason: string;
}

export interface TableReport {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: ImportNote[];
}

export interface AirtableImportReport {
  records: TableReport & { votes: number; photos: number };
  agenda: TableReport;
  /** Parts of imported rows that were not (a photo that did not download, a vote for an unknown code). */
  warnings: ImportNote[];
}

/** A cell of a row as a short label for the report. */
export const labelOf = (fields: Record<string, unknown>, name: string) => {
  const value = fields[name];
  return typeof value === 'string' ? value.trim().slice(0, 80) : '';
};

/** What the records, votes and photos parts of one import work with. */
export interface RecordsRun {
  db: Kysely<Database>;
  now: () => Date;
  progress: ImportProgress;
  report: AirtableImportReport;
  /** The records table's name in Airtable, for the report. */
  table: string;
  municipalities: Map<number, { id: number; slug: string; title: string }>;
  /** Airtable ids of records earlier imports brought that this one changed. */
  changed: Set<string>;
}

/** Notes a part of an imported record that was not imported (or not as Airtable has it). */
export function warn(run: RecordsRun, row: AirtableRecordRow, reason: string): void {
  run.report.warnings.push({ table: run.table, airtableId: row.airtableId, label: row.fields.nombre, reason });
}
