import { createAgendaRepository } from '#server/features/agenda/agenda.repository';
import { createNotasRepository } from '#server/features/notas/notas.repository';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { setElectionPhase } from '#server/testing/election';
import { seedAuthFixtures } from './seed-auth';
import { seedOutboxFixtures } from './seed-outbox';
import { seedRecordsFixtures } from './seed-records';
import { seedSharedPhoneFixtures } from './seed-shared-phone';
import { E2E_NOW, E2E_TODAY } from './servers';

/** Known agenda for the e2e "today", in insertion order unlike time order, with broken values. */
export const E2E_AGENDA = [
  { hora24h: '18:30', descripcion: 'Caravana de cierre', lugar: 'Av. 5 de Julio' },
  { hora24h: '07:05', descripcion: 'Desayuno con líderes', lugar: 'Casa comunal' },
  { hora24h: '25:99', descripcion: 'Evento con hora rota', lugar: null },
  { hora24h: '12:00', descripcion: null, lugar: 'Plaza Bolívar' },
];

export const XSS_NOTA_TITLE = 'Nota con código malicioso';
export const E2E_NOTAS = [
  {
    title: 'Primera nota',
    html: '<h2>Subtítulo</h2><p>Contenido de la <strong>primera</strong> nota.</p><ul><li>uno</li><li>dos</li></ul>',
  },
  {
    title: XSS_NOTA_TITLE,
    html: '<p>Texto visible</p><script>window.__pwned = "script"</script><img src="/img/x.png" onerror="window.__pwned=\'img\'"><a href="javascript:window.__pwned=\'link\'">enlace peligroso</a><p onmouseover="window.__pwned=\'hover\'">pasa por aquí</p>',
  },
  { title: 'Nota más reciente', html: '<p>La última.</p>' },
];

export async function seedE2E(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  const now = new Date(E2E_NOW);
  await migrateToLatest(db);
  await seedReferenceData(db, now, 'Comando Zulia');
  // The seeded day is under way: its validators vote and send photos.
  await setElectionPhase(db, 'en_curso', now);
  const agenda = createAgendaRepository(db.kysely);
  for (const e of E2E_AGENDA) await agenda.insert({ fecha: E2E_TODAY, ...e }, now);
  await agenda.insert({ fecha: '2026-11-23', hora24h: '09:00', descripcion: 'Evento de mañana', lugar: 'Lejos' }, now);
  const notas = createNotasRepository(db.kysely);
  for (const [i, n] of E2E_NOTAS.entries()) {
    await notas.insert(
      { ...n, publishedAt: new Date(now.getTime() - (E2E_NOTAS.length - i) * 3_600_000).toISOString() },
      now,
    );
  }
  await seedAuthFixtures(db, now);
  await seedRecordsFixtures(db, now);
  await seedOutboxFixtures(db, now);
  await seedSharedPhoneFixtures(db, now);
  await db.close();
}
