import fsp from 'node:fs/promises';
import path from 'node:path';
import { resumableUploadDir } from '#server/platform/uploads/resumable-uploads';
import { isStorageKey } from './photo-storage';

/** Leftovers younger than this may belong to an upload still in progress: they are only listed. */
export const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;

export interface SweepFile {
  /** Relative to its folder: a storage key (`ab/…jpg`) or a temporary file's name. */
  name: string;
  size: number;
  modifiedAt: Date;
}

export interface SweepReport {
  /** Photo files no database row names. */
  orphans: SweepFile[];
  /** Temporary files (`.part`) of writes and uploads that never finished. */
  parts: SweepFile[];
  /** What was removed: the leftovers older than the grace period (none on a dry run). */
  removed: string[];
  /** Anything else found in the folders; never touched. */
  unknown: string[];
}

async function listFiles(root: string): Promise<SweepFile[]> {
  const out: SweepFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        const stat = await fsp.stat(full).catch(() => undefined);
        if (stat)
          out.push({
            name: path.relative(root, full).split(path.sep).join('/'),
            size: stat.size,
            modifiedAt: stat.mtime,
          });
      }
    }
  };
  await walk(root);
  return out;
}

/**
 * Finds what a crash can leave in local storage: photo files that no row names (stored, then the
 * process died before the row was written) and `.part` files of writes and uploads that never finished,
 * in the photo folder and the uploads folder. Those older than `graceMs` are removed (unless `dryRun`);
 * younger ones may be an upload in progress and are only listed. Files the storage never makes are
 * listed and left alone. The resumable uploads' folder is theirs to sweep, and skipped.
 */
export async function sweepLocalStorage(options: {
  /** The local photo folder; undefined when photos live elsewhere (S3, Dropbox). */
  photosDir: string | undefined;
  uploadsDir: string;
  /** Whether a database row names this storage key (read before the folders are listed). */
  isNamed: (key: string) => boolean;
  now: Date;
  graceMs?: number;
  dryRun?: boolean;
}): Promise<SweepReport> {
  const graceMs = options.graceMs ?? SWEEP_GRACE_MS;
  const report: SweepReport = { orphans: [], parts: [], removed: [], unknown: [] };
  const old = (f: SweepFile) => options.now.getTime() - f.modifiedAt.getTime() >= graceMs;
  const remove = async (dir: string, file: SweepFile) => {
    if (options.dryRun || !old(file)) return;
    await fsp.rm(path.join(dir, file.name), { force: true });
    report.removed.push(file.name);
  };
  const photosDir = options.photosDir;
  for (const file of photosDir ? await listFiles(photosDir) : []) {
    if (file.name.endsWith('.part')) {
      report.parts.push(file);
      await remove(photosDir as string, file);
    } else if (isStorageKey(file.name)) {
      if (options.isNamed(file.name)) continue;
      report.orphans.push(file);
      await remove(photosDir as string, file);
    } else {
      report.unknown.push(file.name);
    }
  }
  // Resumable uploads keep their bytes and tus's info files in a folder of their own, which their sweep
  // looks after with their rows (resumable-uploads.ts): those files are neither unknown nor leftovers here.
  const resumable = `${path.relative(options.uploadsDir, resumableUploadDir(options.uploadsDir))}/`;
  for (const file of await listFiles(options.uploadsDir)) {
    if (file.name.startsWith(resumable)) continue;
    const entry = { ...file, name: `uploads/${file.name}` };
    if (file.name.endsWith('.part')) {
      report.parts.push(entry);
      if (!options.dryRun && old(file)) {
        await fsp.rm(path.join(options.uploadsDir, file.name), { force: true });
        report.removed.push(entry.name);
      }
    } else {
      report.unknown.push(entry.name);
    }
  }
  return report;
}
