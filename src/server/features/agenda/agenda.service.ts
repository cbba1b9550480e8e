import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createAgendaRepository, type NewAgendaEvent } from './agenda.repository';

/** The agenda's writes that other parts of the server make (the demo data, the Airtable import). */
export function createAgendaService(db: Kysely<Database>) {
  const repo = createAgendaRepository(db);
  return {
    /** Adds one event; its id. */
    add: (event: NewAgendaEvent, now: Date): Promise<number> => repo.insert(event, now),

    /**
     * Runs `work` in one transaction and forgets the cached public agenda once it committed: for events
     * written elsewhere (the Airtable import's, matched by their Airtable id).
     */
    transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> => repo.transaction(work),
  };
}
