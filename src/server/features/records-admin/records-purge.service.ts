import type { Kysely } from 'kysely';
import { forgetReportedKeys, readElection } from '#server/core/election/election';
import { lastPurgeAnswers } from '#server/core/records/purge-hold';
import { createPurgesRepository } from '#server/core/records/purges.repository';
import { createRecordChangesRepository } from '#server/core/records/record-changes.repository';
import { recordListAnswers } from '#server/core/records/records';
import { runChange } from '#server/platform/change/change';
import { type RewriteWait, rewriteFiles, withSecureDelete } from '#server/platform/db/erasure';
import type { Database } from '#server/platform/db/schema';
import { Conflict } from '#server/platform/http/errors';
import { createIdempotencyRepository } from '#server/platform/idempotency/idempotency.repository';
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

/** What a purge could not finish, in Spanish: running it again finishes it. */
export function purgeLeftovers(done: PurgeResult): string[] {
  const left: string[] = [];
  if (done.sharedLinksLeft > 0) {
    left.push(
      `${done.sharedLinksLeft} de ${done.sharedLinks} copias publicadas en Dropbox no se pudieron retirar: vuelve a ejecutar el borrado.`,
    );
  }
  if (!done.databaseRewritten) {
    left.push('No se pudo reescribir el archivo de la base de datos: vuelve a ejecutar el borrado.');
  }
  return left;
}

/** Whether the purge may run now: null if so, else the reason. */
export type PurgeGate = () => Promise<string | null>;

/** The personal data go once the day has closed, never while votes may still come (decision 081). */
export const PURGE_BEFORE_CLOSE = 'Los datos personales se borran después del cierre de la jornada.';
const afterTheClose =
  (db: Kysely<Database>, clock: () => Date): PurgeGate =>
  async () =>
    (await readElection(db, clock())).phase === 'cerrada' ? null : PURGE_BEFORE_CLOSE;

/** The tables the purge rewrites: their files are rewritten after it (decision 093). */
const PURGED_TABLES = ['records', 'photos', 'sms_messages', 'idempotency_keys'] as const;

/**
 * 'Borrar datos personales' (decision 081): after the election, every record's name becomes its
 * initials and its phone goes, in one change with its audit row; the answers kept for phones' retries
 * (which may name a person) go with them. Votes, photos' rows, counters and results are not touched, so
 * every count stays as it was. Ballot photos' files are removed too when the admin chooses so, after
 * the commit (a file that fails to go is counted, not fatal: the names are gone already).
 * The audit log is never rewritten: its rows hold ids and field names only.
 * Decision 093: first, every copy a storage published (a Dropbox file under the person's name and its
 * public link) is withdrawn, whether the photos stay or go; a photo's link is forgotten once its copy
 * is gone, and one that could not be withdrawn is kept and counted, so that running the purge again
 * finishes it. The purge is noted (imports are refused after it until a new election day), runs with
 * SQLite's secure deletion, and the database's files are rewritten once it has committed.
 */
export function createRecordsPurgeService(
  db: Kysely<Database>,
  clock: () => Date,
  options: { storage?: PhotoStorage | undefined; gate?: PurgeGate; rewriteWait?: RewriteWait } = {},
) {
  const gate = options.gate ?? afterTheClose(db, clock);
  return {
    async purge(input: { photos: 'keep' | 'remove' }, actor: Actor): Promise<PurgeResult> {
      const refused = await gate();
      if (refused) throw Conflict(refused);
      const published = await createRecordsAdminRepository(db).publishedPhotos();
      const withdrawn: number[] = [];
      for (const photo of published) {
        if (!options.storage?.unpublish) break;
        try {
          await options.storage.unpublish(photo.shared_url);
          withdrawn.push(photo.id);
        } catch {
          // Kept with its photo and counted: the admin runs the purge again once Dropbox answers.
        }
      }
      const now = clock();
      const result = await withSecureDelete(db, () =>
        runChange(
          db,
          async ({ trx, audit }) => {
            const repo = createRecordsAdminRepository(trx);
            const kernel = createRecordChangesRepository(trx);
            let records = 0;
            let after = 0;
            for (;;) {
              const page = await repo.personalDataPage(after, PURGE_PAGE);
              if (page.length === 0) break;
              await kernel.purgeSlice(page.map((r) => ({ ...r, nombre: initialsOf(r.nombre) })));
              records += page.length;
              after = page.at(-1)?.id ?? after;
            }
            const keptAnswers = await createIdempotencyRepository(trx).deleteAll();
            const smsMessages = await repo.deleteSmsMessages();
            // The keys phones reported name people's records and vouch for nothing once the day is over.
            await forgetReportedKeys(trx);
            const photoKeys = input.photos === 'remove' ? await repo.photoKeys() : [];
            await kernel.clearSharedUrls(withdrawn);
            await createPurgesRepository(trx).note({ at: now.toISOString(), by: actor.email ?? '', records });
            await audit({
              actorEmail: actor.email,
              action: 'records.purge',
              target: 'records',
              ip: actor.ip,
              details: {
                records: records,
                photos: input.photos,
                photoFiles: photoKeys.length,
                keptAnswers,
                smsMessages,
                sharedLinks: published.length,
                sharedLinksLeft: published.length - withdrawn.length,
              },
              at: now,
            });
            return { records, photoKeys };
          },
          { forget: [recordListAnswers, lastPurgeAnswers] },
        ),
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
      // What the rows held before stays in the database's free space until its files are rewritten. A
      // failure here (a disk too full for SQLite's copy, a transaction PostgreSQL kept open throughout)
      // is said: the purge, run again, rewrites them.
      const databaseRewritten = await rewriteFiles(db, PURGED_TABLES, options.rewriteWait).then(
        (done) => done.complete,
        () => false,
      );
      return {
        records: result.records,
        photoFiles: result.photoKeys.length,
        photoFilesRemoved,
        sharedLinks: published.length,
        sharedLinksLeft: published.length - withdrawn.length,
        databaseRewritten,
      };
    },

    /**
     * A new election day after a purge (decision 093): imports are taken again, for the lists of another
     * election. One change with its audit row; how many purges it ended the hold of.
     */
    async startNewDay(actor: Actor): Promise<{ purges: number }> {
      const now = clock();
      return runChange(db, async ({ trx, audit }) => {
        const purges = await createPurgesRepository(trx).startNewDay(now.toISOString(), actor.email ?? '');
        if (purges > 0) {
          await audit({
            actorEmail: actor.email,
            action: 'records.new_day',
            target: 'records',
            ip: actor.ip,
            details: { purges },
            at: now,
          });
        }
        return { purges };
      });
    },
  };
}
