import type { Kysely } from 'kysely';
import {
  type AuditEntry,
  heldAuditMark,
  holdAuditRows,
  restoreHeldAudit,
  writeAudit,
  writeHeldAudit,
} from '#server/platform/audit/audit.repository';
import { inSavepoint } from '#server/platform/db/savepoint';
import type { Database } from '#server/platform/db/schema';

/*
 * The one way a use case changes the product (docs/decisions/069): its writes and its audit rows in one
 * transaction, and the cached answers it names forgotten once that transaction has committed.
 *
 * Worked example, creating an agenda event (features/agenda/agenda.service.ts):
 *
 *   const event = await runChange(
 *     db,
 *     async (change) => {
 *       const row = await createAgendaRepository(change.trx).create(input, now);
 *       await change.audit({ actorEmail, action: 'agenda.create', target: `agenda:${row.id}`, at: now });
 *       return row;
 *     },
 *     { forget: [agendaTodayAnswers] },
 *   );
 *
 * If anything inside throws (the audit row included), the transaction rolls back: neither the event nor
 * its audit row is stored, and the public agenda's kept answers stay as they were, since nothing changed.
 */

/** What a use case gets while its change runs. */
export interface Change {
  /** The open transaction: give it to the repositories the use case writes through. */
  trx: Kysely<Database>;
  /** Writes one audit row in the same transaction: it is stored if and only if the change is. */
  audit(entry: AuditEntry): Promise<void>;
  /**
   * Runs one step of a change that may fail alone (a vote of the batch SQLite commits together): if it
   * throws, its writes and its audit rows are undone, the rest of the change goes on, and the error is
   * the caller's.
   */
  savepoint<T>(step: () => Promise<T>): Promise<T>;
}

/**
 * Cached answers a change may make stale: a `timedAnswers(...)` set of cache.ts, found per database.
 * Writes to users, departments, allow-lists and sessions need none: the database reports those itself.
 */
export type KeptAnswers = (db: Kysely<Database>) => { forget(group?: string): void };

export interface ChangeOptions {
  /** The answers to forget once the change has committed (every group of each). */
  forget?: readonly KeptAnswers[];
}

/**
 * Runs `work` in one transaction of `db` and returns what it returns. The audit rows it writes through
 * `change.audit` commit with it or not at all; after the commit, and only then, the answers named in
 * `options.forget` are forgotten, before the caller sends its own answer, so whoever made the change
 * sees it on the next read.
 */
export async function runChange<T>(
  db: Kysely<Database>,
  work: (change: Change) => Promise<T>,
  options: ChangeOptions = {},
): Promise<T> {
  // A change inside another one would commit with the outer one, and forget before it: refused.
  if (db.isTransaction) throw new Error('runChange opens its own transaction: give it the database, not a transaction');
  const result = await db.transaction().execute(async (trx) => {
    // The change's audit rows join the chain together just before the commit (decision 088).
    holdAuditRows(trx);
    const done = await work({
      trx,
      audit: (entry) => writeAudit(trx, entry),
      async savepoint(step) {
        const held = heldAuditMark(trx);
        try {
          return await inSavepoint(trx, step);
        } catch (error) {
          restoreHeldAudit(trx, held);
          throw error;
        }
      },
    });
    await writeHeldAudit(trx);
    return done;
  });
  for (const answers of options.forget ?? []) answers(db).forget();
  return result;
}
