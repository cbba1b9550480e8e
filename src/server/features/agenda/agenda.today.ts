import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { agendaTodaySchema } from '#shared/features/agenda/agenda';
import { dateInTimeZone, hourSortKey } from '#shared/platform/format';
import { agendaTodayAnswers, createAgendaRepository } from './agenda.repository';

/**
 * Today's agenda as the public reads it (the day decided here, in the campaign's time zone, events in
 * order of time), checked against its schema and serialised once per kept answer: the body of
 * GET /api/agenda/today, and the data the rendered pages embed. A change made through this process is
 * forgotten at once by the writer (decision 037).
 */
export function createAgendaTodayReader(db: Kysely<Database>, now: () => Date) {
  const agenda = createAgendaRepository(db);
  const settings = createSettingsRepository(db);
  const answers = agendaTodayAnswers(db);
  return async (): Promise<string> => {
    const s = await settings.getAll();
    const date = dateInTimeZone(now(), s.timeZone);
    return answers.get(`${date}\n${s.leaderName}`, async () => {
      const rows = await agenda.readByDate(date);
      return JSON.stringify(
        agendaTodaySchema.parse({
          date,
          leaderName: s.leaderName,
          events: rows
            .map((r) => ({ id: r.id, fecha: r.fecha, hora24h: r.hora_24h, descripcion: r.descripcion, lugar: r.lugar }))
            .sort((a, b) => hourSortKey(a.hora24h) - hourSortKey(b.hora24h) || a.id - b.id),
        }),
      );
    });
  };
}
export type AgendaTodayReader = ReturnType<typeof createAgendaTodayReader>;
