import type { Kysely, Selectable } from 'kysely';
import { timedAnswers } from '#server/platform/cache/cache';
import { runChange } from '#server/platform/change/change';
import { inSlices } from '#server/platform/db/in-slices';
import type { AgendaEventsTable, Database } from '#server/platform/db/schema';

/** What every query of an event reads and returns. */
const EVENT_COLUMNS = [
  'id',
  'fecha',
  'hora_24h',
  'descripcion',
  'lugar',
] as const satisfies readonly (keyof AgendaEventsTable)[];
export type AgendaEventRow = Pick<Selectable<AgendaEventsTable>, (typeof EVENT_COLUMNS)[number]>;

/** An event another system brought (the Airtable import's), found by its id there (never null here). */
export type SourcedAgendaRow = AgendaEventRow & { source_id: string };

export interface NewAgendaEvent {
  fecha: string;
  hora24h: string | null;
  descripcion: string | null;
  lugar: string | null;
}

/**
 * GET /api/agenda/today as sent, per day and leader's name: read far more than it is written (see
 * cache.ts for the trade-off). Every write runs through the platform's change helper, which forgets it
 * after the commit (agenda.service.ts).
 */
export const agendaTodayAnswers = timedAnswers<string>({ ttlMs: 1_000, maxEntries: 200 });

export function createAgendaRepository(db: Kysely<Database>) {
  return {
    async readByDate(fecha: string): Promise<AgendaEventRow[]> {
      return db.selectFrom('agenda_events').select(EVENT_COLUMNS).where('fecha', '=', fecha).orderBy('id').execute();
    },

    /**
     * Test data, seeds and benchmarks only (no audit row: the product's changes are agenda.service.ts's):
     * a new event in a change of its own, so the public agenda shows it at once; its id.
     */
    async insert(event: NewAgendaEvent, now: Date): Promise<number> {
      const row = await runChange(db, ({ trx }) => createAgendaRepository(trx).create(event, now), {
        forget: [agendaTodayAnswers],
      });
      return row.id;
    },

    async findBySource(sourceIds: string[]): Promise<SourcedAgendaRow[]> {
      const rows: SourcedAgendaRow[] = [];
      for (const slice of inSlices(sourceIds)) {
        const found = await db
          .selectFrom('agenda_events')
          .select([...EVENT_COLUMNS, 'source_id'])
          .where('source_id', 'in', slice)
          .execute();
        rows.push(...(found as SourcedAgendaRow[]));
      }
      return rows;
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('agenda_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Events from one day to another (both included), by day and then in the order they were added. */
    async listRange(from: string, to: string): Promise<AgendaEventRow[]> {
      return db
        .selectFrom('agenda_events')
        .select(EVENT_COLUMNS)
        .where('fecha', '>=', from)
        .where('fecha', '<=', to)
        .orderBy('fecha')
        .orderBy('id')
        .limit(5_000)
        .execute();
    },

    async findById(id: number): Promise<AgendaEventRow | undefined> {
      return db.selectFrom('agenda_events').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** A new event; `sourceId` for one another system keeps (its id there). */
    async create(event: NewAgendaEvent, now: Date, sourceId?: string): Promise<AgendaEventRow> {
      const at = now.toISOString();
      return db
        .insertInto('agenda_events')
        .values({
          ...(sourceId === undefined ? {} : { source_id: sourceId }),
          fecha: event.fecha,
          hora_24h: event.hora24h,
          descripcion: event.descripcion,
          lugar: event.lugar,
          created_at: at,
          updated_at: at,
        })
        .returning(EVENT_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    /** The event as it is now, or undefined when it does not exist. */
    async update(id: number, event: NewAgendaEvent, now: Date): Promise<AgendaEventRow | undefined> {
      return db
        .updateTable('agenda_events')
        .set({
          fecha: event.fecha,
          hora_24h: event.hora24h,
          descripcion: event.descripcion,
          lugar: event.lugar,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .returning(EVENT_COLUMNS)
        .executeTakeFirst();
    },

    /** The deleted event, or undefined when there was none. */
    async remove(id: number): Promise<AgendaEventRow | undefined> {
      return db.deleteFrom('agenda_events').where('id', '=', id).returning(EVENT_COLUMNS).executeTakeFirst();
    },
  };
}
