import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { RecordStatus } from '#server/platform/db/schema-records';

/** A record that came from Airtable, as the import compares it with Airtable's row. */
export interface ImportedRecordRow {
  id: number;
  source_id: string;
  department_id: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
  status: RecordStatus;
  voted_at: string | null;
  gobernador_photo_id: number | null;
  an_photo_id: number | null;
  clez_photo_id: number | null;
}

export interface ImportedAgendaRow {
  id: number;
  source_id: string;
  fecha: string;
  hora_24h: string | null;
  descripcion: string | null;
  lugar: string | null;
}

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
          .select([
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
          ])
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
          .select(['id', 'source_id', 'fecha', 'hora_24h', 'descripcion', 'lugar'])
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
