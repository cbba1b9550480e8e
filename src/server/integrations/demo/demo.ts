import { createAgendaService } from '#server/features/agenda/agenda.service';
import { createElectionService } from '#server/features/election/election.service';
import { createNotasService } from '#server/features/notas/notas.service';
import { createSettingsService } from '#server/features/settings/settings.service';
import type { Db } from '#server/platform/db/database';
import { addDays, dateInTimeZone } from '#shared/platform/format';
import { authDemoStep } from './auth.demo';
import { DEMO_AGENDA, DEMO_NOTAS } from './demo.data';
import type { DemoContext, DemoStep } from './demo-step';
import { recordsDemoStep } from './records.demo';

/** The setting that says the demo was loaded here once: it is never loaded again. */
const DEMO_MARKER = 'demo_loaded_at';

/** Who the demo's changes are by, in the audit log. */
const DEMO_ACTOR = { email: 'demo', ip: null };

const agendaStep: DemoStep = async ({ db, now, today }) => {
  const agenda = createAgendaService(db.kysely, () => now);
  for (const event of DEMO_AGENDA) {
    await agenda.create(
      {
        fecha: addDays(today, event.dayOffset),
        hora24h: event.hora,
        descripcion: event.descripcion,
        lugar: event.lugar,
      },
      DEMO_ACTOR,
    );
  }
};

const notasStep: DemoStep = async ({ db, now }) => {
  const notas = createNotasService(db.kysely, () => now);
  // Oldest first, one a day back from today, so the newest demo nota is today's.
  for (const [index, nota] of DEMO_NOTAS.entries()) {
    const publishedAt = new Date(now.getTime() - (DEMO_NOTAS.length - 1 - index) * 86_400_000).toISOString();
    await notas.create({ title: nota.title, html: nota.html, publish: true, publishedAt }, DEMO_ACTOR);
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
  const settings = createSettingsService(db.kysely, () => now);
  if ((await settings.readValue(DEMO_MARKER)) !== undefined) return false;
  const [posts, events] = await Promise.all([
    createNotasService(db.kysely, () => now).count(),
    createAgendaService(db.kysely, () => now).count(),
  ]);
  if (posts > 0 || events > 0) return false;

  // The demo shows the day under way: votes and photos are taken at once (docs/decisions/078).
  const election = createElectionService(db.kysely, () => now);
  if ((await election.status()).phase === 'preparacion') {
    await election.setPhase(
      { phase: 'en_curso', reason: 'Datos de demostración: la jornada empieza en curso.' },
      DEMO_ACTOR,
    );
  }
  const ctx: DemoContext = { db, now, today: dateInTimeZone(now), announce };
  for (const step of demoSteps) await step(ctx);
  await settings.storeValue(DEMO_MARKER, now.toISOString(), DEMO_ACTOR);
  return true;
}
