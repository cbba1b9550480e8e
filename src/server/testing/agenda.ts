import { createAgendaRepository } from '#server/features/agenda/agenda.repository';
import type { TestApp } from './test-app';

/** Data builders for the agenda tests (not a test file itself). */
export const AGENDA_EVENT: { fecha: string; hora24h: string; descripcion: string; lugar: string } = {
  fecha: '2026-12-01',
  hora24h: '18:30',
  descripcion: 'Caravana de cierre',
  lugar: 'Av. 5 de Julio',
};

/** An event straight in the database; its id. */
export async function addAgendaEvent(t: TestApp, event: Partial<typeof AGENDA_EVENT> = {}): Promise<number> {
  return createAgendaRepository(t.db.kysely).insert({ ...AGENDA_EVENT, ...event }, new Date());
}
