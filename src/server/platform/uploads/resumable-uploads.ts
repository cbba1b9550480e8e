import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload } from '@tus/server';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import type { Database } from '#server/platform/db/schema';
import type { ResumableUploadsTable } from '#server/platform/db/schema-uploads';
import { fileStreamClosed } from '#server/platform/lib/file-stream';
import { createLimiter } from '#server/platform/lib/limiter';
import { makePrivateDir } from '#server/platform/lib/private-files';

export type ResumableUpload = Selectable<ResumableUploadsTable>;
export type NewResumableUpload = Omit<ResumableUpload, 'sha256' | 'stored_at' | 'created_at' | 'expires_at' | 'era'> & {
  era?: string | null;
};

type Db = Kysely<Database>;
type Limiter = ReturnType<typeof createLimiter>;
const HOUR_MS = 60 * 60 * 1000;

/** The first key of the PostgreSQL advisory locks taken while one person's new upload is counted. */
const OPEN_UPLOADS_LOCK = 46_001;

/** What one person may have open (unfinished, not expired) at once. */
export interface OpenUploadLimits {
  /** Uploads. */
  count: number;
  /** Bytes, each upload counted by the size it declared (Upload-Length). */
  bytes: number;
}

/** A registration: the new row, or which limit it would pass. */
export type Registration =
  | { row: ResumableUpload; refused?: undefined }
  | { row?: undefined; refused: 'count' | 'bytes' };

/** Where the bytes of tus uploads wait: beside the other uploads, on the server's own disk. */
export function resumableUploadDir(uploadsDir: string): string {
  return path.join(uploadsDir, 'tus');
}

/**
 * The parts of a resumable (tus) upload that are not the tus protocol itself (docs/decisions/046):
 * the disk store of its bytes, its row (who, what for, until when) and the sweep that removes what
 * expired. Time is the server's clock (`now`), so expiry is tested without waiting.
 */
export function createResumableUploads(
  db: Db,
  options: { directory: string; hours: number; now: () => Date; dialect: Dialect },
) {
  const { directory } = options;
  makePrivateDir(directory);

  const find = (id: string, on: Db = db): Promise<ResumableUpload | undefined> =>
    on.selectFrom('resumable_uploads').selectAll().where('id', '=', id).executeTakeFirst();

  const fileOf = (id: string) => path.join(directory, id);

  // One registration per person at a time in this process (see register).
  const turns = new Map<string, Limiter>();
  function oneAtATime<T>(owner: string, task: () => Promise<T>): Promise<T> {
    let turn = turns.get(owner);
    if (!turn) {
      turn = createLimiter(1);
      turns.set(owner, turn);
    }
    const mine = turn;
    return mine.run(task).finally(() => {
      if (mine.active === 0 && mine.waiting === 0 && turns.get(owner) === mine) turns.delete(owner);
    });
  }

  /** Removes the bytes and the tus info file; what is already gone is not an error. */
  async function removeFiles(id: string): Promise<void> {
    await fsp.rm(fileOf(id), { force: true });
    await fsp.rm(`${fileOf(id)}.json`, { force: true });
  }

  /**
   * @tus/file-store, with four differences (the fourth, the folder, just below): a stored upload, whose bytes already left for the photo
   * storage, still answers HEAD as complete (so a phone that lost the answer asks for it instead of
   * sending the photo again); removing an upload also forgets its row; and a PATCH cut off waits for
   * its last write to reach the file before it lets go of the upload (file-store's own write gives up
   * at once, and the HEAD that follows could read a shorter file, so the phone would send again from
   * an offset the server has already passed).
   */
  class PartsStore extends FileStore {
    override async write(readable: Readable, id: string, offset: number): Promise<number> {
      const file = fs.createWriteStream(fileOf(id), { flags: 'r+', start: offset });
      let received = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(readable, count, file);
      } catch {
        await fileStreamClosed(file);
        throw ERRORS.FILE_WRITE_ERROR;
      }
      return offset + received;
    }

    override async getUpload(id: string): Promise<Upload> {
      const row = await find(id);
      if (row?.stored_at) {
        return new Upload({ id, size: row.size_bytes, offset: row.size_bytes, creation_date: row.created_at });
      }
      return super.getUpload(id);
    }

    override async remove(id: string): Promise<void> {
      await removeFiles(id);
      await db.deleteFrom('resumable_uploads').where('id', '=', id).execute();
    }
  }

  // The folder was made above, synchronously. file-store's constructor makes it again with a callback
  // that throws outside any promise (its own comment says it should not): had the folder's parent gone
  // by then (a data folder removed as soon as the app closed), the process would get an uncaught error.
  // The method is private in its typings, hence the cast.
  (PartsStore.prototype as unknown as { checkOrCreateDirectory: () => void }).checkOrCreateDirectory = () => undefined;
  const datastore = new PartsStore({ directory });

  return {
    datastore,
    /** The file holding an upload's bytes. */
    fileOf,
    find,

    /**
     * Registers an upload being created, unless its owner's open uploads (unfinished and not expired)
     * would then pass `limits`: it expires `hours` after now. Counting and inserting are one step for
     * parallel creations (docs/decisions/062): on PostgreSQL the transaction first takes an advisory lock
     * of the owner, so each creation counts what the one before it inserted; on SQLite, Kysely runs one
     * transaction at a time on its one connection, and a commit by another process in between makes
     * this one fail (SQLITE_BUSY, a 503) instead of counting stale rows. Within this process one
     * person's creations also wait their turn before they take a connection, so a burst by one person
     * holds one connection of the pool, not all of them while they wait for the lock.
     */
    async register(upload: NewResumableUpload, limits: OpenUploadLimits): Promise<Registration> {
      const now = options.now();
      const row: ResumableUpload = {
        ...upload,
        era: upload.era ?? null,
        sha256: null,
        stored_at: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + options.hours * HOUR_MS).toISOString(),
      };
      return oneAtATime(upload.owner_email, () =>
        db.transaction().execute(async (trx): Promise<Registration> => {
          if (options.dialect === 'postgres') {
            await sql`select pg_advisory_xact_lock(${OPEN_UPLOADS_LOCK}, hashtext(${upload.owner_email}))`.execute(trx);
          }
          const open = await trx
            .selectFrom('resumable_uploads')
            .select((eb) => [
              eb.fn.countAll<number | string>().as('uploads'),
              eb.fn.coalesce(eb.fn.sum<number | string>('size_bytes'), eb.lit(0)).as('bytes'),
            ])
            .where('owner_email', '=', upload.owner_email)
            .where('stored_at', 'is', null)
            .where('expires_at', '>', row.created_at)
            .executeTakeFirstOrThrow();
          if (Number(open.uploads) >= limits.count) return { refused: 'count' };
          if (Number(open.bytes) + upload.size_bytes > limits.bytes) return { refused: 'bytes' };
          await trx.insertInto('resumable_uploads').values(row).execute();
          return { row };
        }),
      );
    },

    isExpired: (row: ResumableUpload): boolean => row.expires_at <= options.now().toISOString(),

    /** Inside the photo's transaction: the upload is stored, with the file's sha256. */
    async markStored(trx: Db, id: string, sha256: string, at: string): Promise<void> {
      await trx.updateTable('resumable_uploads').set({ sha256, stored_at: at }).where('id', '=', id).execute();
    },

    /**
     * After the photo is stored: its bytes are in the photo storage now, and tus's info file is not read
     * again (a stored upload is answered from its row, which stays to answer a retry).
     */
    releaseBytes: (id: string): Promise<void> => removeFiles(id),

    /** Removes an upload for good: bytes, info and row. */
    remove: (id: string): Promise<void> => datastore.remove(id),

    /**
     * Removes every upload past its time, finished or not (a finished one's answer stays with its
     * Idempotency-Key), the files of stored uploads (a stop between the photo's commit and their
     * removal), and files no row speaks for once they are as old as an upload may be (a crash between
     * creating a file and its row). Returns how many uploads went.
     */
    async sweep(): Promise<number> {
      const now = options.now();
      const expired = await db
        .selectFrom('resumable_uploads')
        .select('id')
        .where('expires_at', '<=', now.toISOString())
        .execute();
      for (const { id } of expired) await datastore.remove(id);

      const names = await fsp.readdir(directory).catch(() => [] as string[]);
      const ids = new Set(names.map((name) => name.replace(/\.json$/, '')));
      for (const id of ids) {
        const row = await find(id);
        if (row?.stored_at) await removeFiles(id);
        if (row) continue;
        const stat = await fsp.stat(fileOf(id)).catch(() => fsp.stat(`${fileOf(id)}.json`).catch(() => undefined));
        if (stat && now.getTime() - stat.mtimeMs >= options.hours * HOUR_MS) await removeFiles(id);
      }
      return expired.length;
    },
  };
}
export type ResumableUploads = ReturnType<typeof createResumableUploads>;
