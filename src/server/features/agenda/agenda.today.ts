import type { Kysely } from 'kysely';
import { createSerializedCache } from '#server/platform/cache/serialized-cache';
import type { Database } from '#server/platform/db/schema';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { agendaTodaySchema } from '#shared/features/agenda/agenda';
import { dateInTimeZone, hourSortKey } from '#shared/platform/format';
import { type AgendaEventRow, createAgendaRepository } from './agenda.repository';

// One serialised copy per cached listing, shared by the API answer and the pages that embed it.
const serialize = createSerializedCache<AgendaEventRow[], typeof agendaTodaySchema>(agendaTodaySchema);

/**
 * Today's agenda as the public reads it (the day decided here, in the campaign's time zone, events in
 * order of time), checked against its schema and serialised: the body of GET /api/agenda/today. It is
 * as fresh as the repository's short cache: a change made through this process shows at once.
 */
export function createAgendaTodayReader(db: Kysely<Database>, now: () => Date) {
  const agenda = createAgendaRepository(db);
  const settings = createSettingsRepository(db);
  return async (): Promise<string> => {
    const s = await settings.getAll();
    const date = dateInTimeZone(now(), s.timeZone);
    const rows = await agenda.listByDate(date);
    return serialize(rows, `${date}\n${s.leaderName}`, () => ({
      date,
      leaderName: s.leaderName,
      events: rows
        .map((r) => ({ id: r.id, fecha: r.fecha, hora24h: r.hora_24h, descripcion: r.descripcion, lugar: r.lugar }))
        .sort((a, b) => hourSortKey(a.hora24h) - hourSortKey(b.hora24h) || a.id - b.id),
    }));
  };
}
