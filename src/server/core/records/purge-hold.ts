import type { Kysely } from 'kysely';
import { timedAnswers } from '#server/platform/cache/cache';
import type { Database } from '#server/platform/db/schema';
import { Conflict } from '#server/platform/http/errors';
import { formatLongDate } from '#shared/platform/format';
import { createPurgesRepository } from './purges.repository';

/** How an admin starts a new election day after a purge (README, decision 093). */
export const NEW_DAY_COMMAND = 'npm run cli -- records:new-day --confirmar';

/** The refusal of an import after a purge, naming it and saying how to go on. */
export function importAfterPurgeMessage(purgedAt: string): string {
  return (
    `Los datos personales se borraron el ${formatLongDate(new Date(purgedAt))} ('Borrar datos personales'): ` +
    'una importación traería de vuelta los nombres y teléfonos borrados. Para cargar las listas de una ' +
    `elección nueva, un administrador empieza una jornada nueva (${NEW_DAY_COMMAND}).`
  );
}

/**
 * Refuses an import (CSV, Airtable) while the last purge of personal data has no new election day
 * after it (decision 093). Run inside the import's own transaction, like the day's phase check.
 */
export async function requireNoPurgeHold(db: Kysely<Database>): Promise<void> {
  const held = await createPurgesRepository(db).holding();
  if (held) throw Conflict(importAfterPurgeMessage(held.purged_at));
}

/**
 * The instant of the last purge, as the session tells phones (decision 093): a phone that kept lists
 * from before it forgets them at its next contact. Kept a moment per process; the purge forgets it
 * after its commit, another instance sees it within two seconds.
 */
export const lastPurgeAnswers = timedAnswers<string | null>({ ttlMs: 2_000, maxEntries: 1 });

export async function lastPurgeAt(db: Kysely<Database>): Promise<string | null> {
  return lastPurgeAnswers(db).get('', async () => (await createPurgesRepository(db).last())?.purged_at ?? null);
}
