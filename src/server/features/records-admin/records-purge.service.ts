import type { Kysely } from 'kysely';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { forgetReportedKeys, readElection } from '#server/platform/election/election';
import { Conflict } from '#server/platform/http/errors';
import { createIdempotencyRepository } from '#server/platform/idempotency/idempotency.repository';
import { recordListAnswers } from '#server/platform/records/records';
import type { Actor } from '#server/platform/session/identity';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import type { PurgeResult } from '#shared/features/records-admin/records-admin';
import { createRecordsAdminRepository } from './records-admin.repository';

/** Records read and rewritten per statement. */
const PURGE_PAGE = 500;

/** 'María José Pérez' -> 'M. J. P.': enough to tell records apart on a list, not to find a person. */
export function initialsOf(nombre: string): string {
  return nombre
    .split(/\s+/)
    .map((word) => word.match(/\p{L}|\p{N}/u)?.[0]?.toUpperCase())
    .filter((letter): letter is string => letter !== undefined)
    .map((letter) => `${letter}.`)
    .join(' ');
}

/** Whether the purge may run now: null if so, else the reason. */
export type PurgeGate = () => Promise<string | null>;

/** The personal data go once the day has closed, never while votes may still come (decision 081). */
export const PURGE_BEFORE_CLOSE = 'Los datos personales se borran después del cierre de la jornada.';
const afterTheClose =
  (db: Kysely<Database>, clock: () => Date): PurgeGate =>
  async () =>
    (await readElection(db, clock())).phase === 'cerrada' ? null : PURGE_BEFORE_CLOSE;

/**
 * 'Borrar datos personales' (decision 081): after the election, every record's name becomes its
 * initials and its phone goes, in one change with its audit row; the answers kept for phones' retries
 * (which may name a person) go with them. Votes, photos' rows, counters and results are not touched, so
 * every count stays as it was. Ballot photos' files are removed too when the admin chooses so, after
 * the commit (a file that fails to go is counted, not fatal: the names are gone already).
 * The audit log is never rewritten: its rows hold ids and field names only.
 */
export function createRecordsPurgeService(
  db: Kysely<Database>,
  clock: () => Date,
  options: { storage?: PhotoStorage | undefined; gate?: PurgeGate } = {},
) {
  const gate = options.gate ?? afterTheClose(db, clock);
  return {
    async purge(input: { photos: 'keep' | 'remove' }, actor: Actor): Promise<PurgeResult> {
      const refused = await gate();
      if (refused) throw Conflict(refused);
      const now = clock();
      const result = await runChange(
        db,
        async ({ trx, audit }) => {
          const repo = createRecordsAdminRepository(trx);
          let records = 0;
          let after = 0;
          for (;;) {
            const page = await repo.personalDataPage(after, PURGE_PAGE);
            if (page.length === 0) break;
            await repo.purgeSlice(page.map((r) => ({ ...r, nombre: initialsOf(r.nombre) })));
            records += page.length;
            after = page.at(-1)?.id ?? after;
          }
          const keptAnswers = await createIdempotencyRepository(trx).deleteAll();
          const smsMessages = await repo.deleteSmsMessages();
          // The keys phones reported name people's records and vouch for nothing once the day is over.
          await forgetReportedKeys(trx);
          const photoKeys = input.photos === 'remove' ? await repo.photoKeys() : [];
          await audit({
            actorEmail: actor.email,
            action: 'records.purge',
            target: 'records',
            ip: actor.ip,
            details: { records: records, photos: input.photos, photoFiles: photoKeys.length, keptAnswers, smsMessages },
            at: now,
          });
          return { records, photoKeys };
        },
        { forget: [recordListAnswers] },
      );
      let photoFilesRemoved = 0;
      for (const key of result.photoKeys) {
        if (!options.storage) break;
        try {
          await options.storage.delete(key);
          photoFilesRemoved++;
        } catch {
          // Counted as not removed: the operator sees the difference and can run it again.
        }
      }
      return { records: result.records, photoFiles: result.photoKeys.length, photoFilesRemoved };
    },
  };
}
