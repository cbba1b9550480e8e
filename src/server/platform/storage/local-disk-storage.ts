import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { beforePiping, fileStreamClosed } from '#server/platform/lib/file-stream';
import { makePrivateDirAsync, PRIVATE_FILE_MODE } from '#server/platform/lib/private-files';
import { isStorageKey, newStorageKey, type PhotoStorage } from './photo-storage';

/**
 * Makes a rename in `dir` durable: the file's data was synced before, but its new name is an entry of
 * the folder, which reaches the disk only when the folder is synced. Without it, after a power cut a
 * row could name a file whose directory entry never made it.
 */
async function syncFolder(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Photos on the local disk under `<root>` (normally `DATA_DIR/photos`). Files are written to a
 * temporary name, flushed, then renamed, and the folder synced: a crash or a cut-off stream never
 * leaves half a photo. What a crash does leave (a `.part` file, a photo whose row was never written)
 * is swept at start and by `storage:check` (local-sweep.ts).
 */
export function createLocalDiskStorage(root: string): PhotoStorage {
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`Clave de almacenamiento inválida: ${key}`);
    return path.join(root, key);
  };

  async function writeNew(key: string, body: Readable | Buffer): Promise<number> {
    const file = fileOf(key);
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    await beforePiping(source, () => makePrivateDirAsync(path.dirname(file)));
    const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const out = fs.createWriteStream(temp, { flags: 'wx', mode: PRIVATE_FILE_MODE });
    try {
      await pipeline(source, counter, out);
      const handle = await fsp.open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temp, file);
      await syncFolder(path.dirname(file));
      return size;
    } catch (error) {
      await fileStreamClosed(out);
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  return {
    driver: 'local',
    location: `local:${path.resolve(root)}`,

    async put(body, { suffix }) {
      const key = newStorageKey(suffix);
      const size = await writeNew(key, body);
      return { key, size };
    },

    async putAt(key, body) {
      return { size: await writeNew(key, body) };
    },

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const file = fileOf(key);
        const stat = await fsp.stat(file);
        if (!stat.isFile()) return undefined;
        return { stream: fs.createReadStream(file), size: stat.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async delete(key) {
      if (!isStorageKey(key)) return;
      await fsp.rm(fileOf(key), { force: true });
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        return (await fsp.stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
  };
}
