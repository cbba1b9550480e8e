import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export interface AgendaEventRow {
  id: number;
  fecha: string;
  hora_24h: string | null;
  descripcion: string | null;
  lugar: string | null;
}

export interface NewAgendaEvent {
  fecha: string;
  hora24h: string | null;
  descripcion: string | null;
  lugar: string | null;
}

export function createAgendaRepository(db: Kysely<Database>) {
  return {
    async listByDate(fecha: string): Promise<AgendaEventRow[]> {
      return db
        .selectFrom('agenda_events')
        .select(['id', 'fecha', 'hora_24h', 'descripcion', 'lugar'])
        .where('fecha', '=', fecha)
        .orderBy('id')
        .execute();
    },

    async insert(event: NewAgendaEvent, now: Date): Promise<number> {
      const at = now.toISOString();
      const row = await db
        .insertInto('agenda_events')
        .values({
          fecha: event.fecha,
          hora_24h: event.hora24h,
          descripcion: event.descripcion,
          lugar: event.lugar,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
  };
}
