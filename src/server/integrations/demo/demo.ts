import { createAgendaService } from '#server/features/agenda/agenda.service';
import { createNotasService } from '#server/features/notas/notas.service';
import type { Db } from '#server/platform/db/database';
import { addDays, dateInTimeZone } from '#shared/platform/format';
import { authDemoStep } from './auth.demo';
import { DEMO_AGENDA, DEMO_NOTAS } from './demo.data';
import type { DemoContext, DemoStep } from './demo-step';
import { recordsDemoStep } from './records.demo';

const agendaStep: DemoStep = async ({ db, now, today }) => {
  const agenda = createAgendaService(db.kysely);
  for (const event of DEMO_AGENDA) {
    await agenda.add(
      {
        fecha: addDays(today, event.dayOffset),
        hora24h: event.hora,
        descripcion: event.descripcion,
        lugar: event.lugar,
      },
      now,
    );
  }
};

const notasStep: DemoStep = async ({ db, now }) => {
  const notas = createNotasService(db.kysely);
  // Oldest first, one a day back from today, so the newest demo nota is today's.
  for (const [index, nota] of DEMO_NOTAS.entries()) {
    const publishedAt = new Date(now.getTime() - (DEMO_NOTAS.length - 1 - index) * 86_400_000).toISOString();
    await notas.add({ title: nota.title, html: nota.html, publishedAt }, now);
  }
};

/** Each feature adds its own demo content here. */
export const demoSteps: DemoStep[] = [agendaStep, notasStep, authDemoStep, recordsDemoStep];

/**
 * Loads demo content into an empty database, once. A database that already holds content of its own
 * is never touched.
 */
export async function loadDemoData(
  db: Db,
  now: Date,
  announce: (line: string) => void = console.log,
): Promise<boolean> {
  const marker = await db.kysely
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'demo_loaded_at')
    .executeTakeFirst();
  if (marker) return false;
  const [posts, events] = await Promise.all([
    db.kysely
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db.kysely
      .selectFrom('agenda_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  if (Number(posts.n) > 0 || Number(events.n) > 0) return false;

  const ctx: DemoContext = { db, now, today: dateInTimeZone(now), announce };
  for (const step of demoSteps) await step(ctx);
  await db.kysely
    .insertInto('settings')
    .values({ key: 'demo_loaded_at', value: now.toISOString(), updated_at: now.toISOString() })
    .execute();
  return true;
}
