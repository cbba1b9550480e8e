import fsp from 'node:fs/promises';
import { HttpError } from '#server/platform/http/errors';
import { makePrivateDir } from '#server/platform/lib/private-files';
import { messages } from '#shared/platform/messages';

/** Reads how many bytes this process may still write on the disk that holds `dir`. */
export type FreeBytesReader = (dir: string) => Promise<number>;

/** statfs: the blocks available to an unprivileged process (what a write by us can still use). */
const statfsFreeBytes: FreeBytesReader = async (dir) => {
  const stats = await fsp.statfs(dir);
  return stats.bavail * stats.bsize;
};

/** How soon a phone may try again after a refusal for lack of space. */
const DISK_FULL_RETRY_SECONDS = 300;

/**
 * The data folder's disk (DATA_DIR: the SQLite database, the photos, the uploads being received) and the
 * space it keeps free (`DATA_DIR_MIN_FREE_MB`). Uploads are what can fill it, so a new one that would
 * leave less than the floor is refused with 507; what is left stays for votes and photos already
 * accepted. The reader is injected by tests, which need no full disk.
 */
export function createDataDisk(options: { dir: string; minFreeBytes: number; freeBytes?: FreeBytesReader }) {
  const read = options.freeBytes ?? statfsFreeBytes;
  /** Whether `free` bytes, less `bytes` more received, leave the disk full or under the floor. */
  const short = (free: number, bytes = 0) => free <= 0 || free - bytes < options.minFreeBytes;
  makePrivateDir(options.dir);
  return {
    /** The floor this disk keeps free, in bytes (`DATA_DIR_MIN_FREE_MB`). */
    minFreeBytes: options.minFreeBytes,

    /** The bytes this process may still write there (what `/metrics` tells; NaN when unreadable). */
    async freeBytes(): Promise<number> {
      try {
        return await read(options.dir);
      } catch {
        return Number.NaN;
      }
    },

    /** Refuses (507, with Retry-After) receiving `bytes` more when that would leave less than the floor. */
    async requireRoom(bytes: number): Promise<void> {
      if (short(await read(options.dir), bytes)) {
        throw new HttpError(507, messages.api.diskFull, { 'retry-after': String(DISK_FULL_RETRY_SECONDS) });
      }
    },

    /**
     * Why the data folder cannot take writes now, or undefined when it can: it could not be read, it is
     * full, or it is under the floor.
     */
    async problem(): Promise<string | undefined> {
      let free: number;
      try {
        free = await read(options.dir);
      } catch (error) {
        return `free space unreadable: ${(error as Error).message}`;
      }
      if (!short(free)) return undefined;
      return free <= 0 ? 'no free space' : `free space ${free} bytes, under the floor of ${options.minFreeBytes}`;
    },
  };
}
export type DataDisk = ReturnType<typeof createDataDisk>;
