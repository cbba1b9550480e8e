import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { createReadCache } from '../../lib/read-cache';

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

// The public agenda is read far more than it is written (see read-cache.ts for the trade-off).
const byDateCache = createReadCache<Kysely<Database>, AgendaEventRow[]>(1_000);

export function createAgendaRepository(db: Kysely<Database>) {
  return {
    listByDate(fecha: string): Promise<AgendaEventRow[]> {
      return byDateCache.get(db, fecha, () => this.readByDate(fecha));
    },

    async readByDate(fecha: string): Promise<AgendaEventRow[]> {
      return db
        .selectFrom('agenda_events')
        .select(['id', 'fecha', 'hora_24h', 'descripcion', 'lugar'])
        .where('fecha', '=', fecha)
        .orderBy('id')
        .execute();
    },

    async insert(event: NewAgendaEvent, now: Date): Promise<number> {
      byDateCache.clear(db);
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
      byDateCache.clear(db);
      return row.id;
    },
  };
}
