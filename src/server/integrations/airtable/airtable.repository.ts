import type { Kysely, Selectable } from 'kysely';
import type { AgendaEventsTable, Database } from '#server/platform/db/schema';
import type { RecordsTable } from '#server/platform/db/schema-records';

/** A record that came from Airtable, as the import compares it with Airtable's row (found by source_id: never null). */
const RECORD_COLUMNS = [
  'id',
  'source_id',
  'department_id',
  'comunidad',
  'nombre',
  'ubch',
  'telefono',
  'status',
  'voted_at',
  'gobernador_photo_id',
  'an_photo_id',
  'clez_photo_id',
] as const satisfies readonly (keyof RecordsTable)[];
export type ImportedRecordRow = Pick<Selectable<RecordsTable>, (typeof RECORD_COLUMNS)[number]> & { source_id: string };

const AGENDA_COLUMNS = [
  'id',
  'source_id',
  'fecha',
  'hora_24h',
  'descripcion',
  'lugar',
] as const satisfies readonly (keyof AgendaEventsTable)[];
export type ImportedAgendaRow = Pick<Selectable<AgendaEventsTable>, (typeof AGENDA_COLUMNS)[number]> & {
  source_id: string;
};

export interface AgendaFields {
  fecha: string;
  hora24h: string | null;
  descripcion: string | null;
  lugar: string | null;
}

/** Ids per IN (…): well under SQLite's and PostgreSQL's bound-parameter limits. */
const LOOKUP_BATCH = 500;

/**
 * What the Airtable import reads and writes besides the records service: the records and agenda
 * events it brought before (by `source_id`), and the agenda events themselves (agenda writes run in
 * the agenda service's transaction, which forgets the public agenda's cache).
 */
export function createAirtableRepository(db: Kysely<Database>) {
  return {
    async recordsBySource(sourceIds: string[]): Promise<ImportedRecordRow[]> {
      const rows: ImportedRecordRow[] = [];
      for (let i = 0; i < sourceIds.length; i += LOOKUP_BATCH) {
        const found = await db
          .selectFrom('records')
          .select(RECORD_COLUMNS)
          .where('source_id', 'in', sourceIds.slice(i, i + LOOKUP_BATCH))
          .execute();
        rows.push(...(found as ImportedRecordRow[]));
      }
      return rows;
    },

    async agendaBySource(sourceIds: string[]): Promise<ImportedAgendaRow[]> {
      const rows: ImportedAgendaRow[] = [];
      for (let i = 0; i < sourceIds.length; i += LOOKUP_BATCH) {
        const found = await db
          .selectFrom('agenda_events')
          .select(AGENDA_COLUMNS)
          .where('source_id', 'in', sourceIds.slice(i, i + LOOKUP_BATCH))
          .execute();
        rows.push(...(found as ImportedAgendaRow[]));
      }
      return rows;
    },

    async insertAgenda(sourceId: string, event: AgendaFields, now: Date): Promise<void> {
      const at = now.toISOString();
      await db
        .insertInto('agenda_events')
        .values({
          source_id: sourceId,
          fecha: event.fecha,
          hora_24h: event.hora24h,
          descripcion: event.descripcion,
          lugar: event.lugar,
          created_at: at,
          updated_at: at,
        })
        .execute();
    },

    async updateAgenda(id: number, event: AgendaFields, now: Date): Promise<void> {
      await db
        .updateTable('agenda_events')
        .set({
          fecha: event.fecha,
          hora_24h: event.hora24h,
          descripcion: event.descripcion,
          lugar: event.lugar,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
