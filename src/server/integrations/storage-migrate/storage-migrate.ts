import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import type { Kysely } from 'kysely';
import { storageKeyOfPhotoUrl } from '#server/features/candidates/candidates.service';
import { listPhotoFileKeys } from '#server/features/photos/photos.service';
import type { Database } from '#server/platform/db/schema';
import { isStorageKey, type PhotoStorage } from '#server/platform/storage/photo-storage';
import { createStorageMigrateRepository } from './storage-migrate.repository';

/** Files copied at the same time. */
export const COPY_CONCURRENCY = 4;
/** A target that fails this many files in a row is down, not unlucky: stop instead of trying the rest. */
export const MAX_FAILURES_IN_A_ROW = 10;

export interface MigrateReport {
  /** Files the database points at. */
  total: number;
  /** Verified in an earlier run, not copied again. */
  alreadyCopied: number;
  /** Copied and verified in this run. */
  copied: number;
  /** Keys the database names but the source does not have. */
  missing: string[];
  failed: { key: string; reason: string }[];
  /** True when the run stopped early because the target kept failing. */
  stopped: boolean;
}

export interface MigrateOptions {
  db: Kysely<Database>;
  source: PhotoStorage;
  target: PhotoStorage;
  now?: () => Date;
  concurrency?: number;
  /** Called after each file with the number handled so far in this run and the number to handle. */
  onProgress?: (done: number, pending: number) => void;
}

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', heic: 'image/heic' };
const contentTypeOf = (key: string) => CONTENT_TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream';

/** Every stored file the database points at: ballot photos and uploaded candidate photos. */
export async function keysToCopy(db: Kysely<Database>): Promise<string[]> {
  const repo = createStorageMigrateRepository(db);
  const candidateKeys = (await repo.listCandidatePhotoUrls()).map((url) => storageKeyOfPhotoUrl(url) ?? '');
  // Demo placeholders ('demo:…') and pictures of the public folder are not stored files.
  const keys = [...(await listPhotoFileKeys(db)), ...candidateKeys].filter(isStorageKey);
  return [...new Set(keys)].sort();
}

/** Passes a stream through while measuring its sha256 and size. */
function measuring(): { stream: Transform; result: () => { sha256: string; size: number } } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ sha256: hash.digest('hex'), size }) };
}

async function digest(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

type Outcome =
  | { kind: 'copied'; sha256: string; size: number }
  | { kind: 'missing' }
  | { kind: 'failed'; reason: string };

async function copyOne(key: string, source: PhotoStorage, target: PhotoStorage): Promise<Outcome> {
  const file = await source.get(key);
  if (!file) return { kind: 'missing' };
  const measured = measuring();
  // A failure on either side reaches the other: a cut-off read fails the write, a failed write stops the read.
  pipeline(file.stream, measured.stream, () => {});
  try {
    await target.putAt(key, measured.stream, { contentType: contentTypeOf(key) });
  } finally {
    measured.stream.destroy();
  }
  const sent = measured.result();
  if (sent.size !== file.size) {
    return { kind: 'failed', reason: `se leyeron ${sent.size} de ${file.size} bytes del origen` };
  }
  const back = await target.get(key);
  if (!back) return { kind: 'failed', reason: 'no aparece en el destino después de copiarla' };
  const stored = await digest(back.stream);
  if (stored.sha256 !== sent.sha256 || stored.size !== sent.size) {
    return {
      kind: 'failed',
      reason:
        `la copia no coincide con el original (sha256 ${stored.sha256.slice(0, 12)}… de ${stored.size} bytes, ` +
        `se esperaba ${sent.sha256.slice(0, 12)}… de ${sent.size} bytes)`,
    };
  }
  return { kind: 'copied', ...sent };
}

/**
 * Copies every stored photo file from one driver to another under the same key, verifying each copy by
 * reading it back from the target and comparing sha256 and size. Verified copies are recorded in
 * `storage_copies`, so a run that was interrupted resumes with the files it had not verified yet.
 * A file missing from the source is reported and does not stop the others.
 */
export async function migratePhotos(options: MigrateOptions): Promise<MigrateReport> {
  const { db, source, target } = options;
  const now = options.now ?? (() => new Date());
  const repo = createStorageMigrateRepository(db);
  const all = await keysToCopy(db);
  const copiedBefore = await repo.listCopied(target.location);
  const pending = all.filter((key) => !copiedBefore.has(key));
  const report: MigrateReport = {
    total: all.length,
    alreadyCopied: all.length - pending.length,
    copied: 0,
    missing: [],
    failed: [],
    stopped: false,
  };

  let next = 0;
  let done = 0;
  let failuresInARow = 0;
  const worker = async () => {
    while (next < pending.length && !report.stopped) {
      const key = pending[next++]!;
      let outcome: Outcome;
      try {
        outcome = await copyOne(key, source, target);
      } catch (error) {
        outcome = { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
      if (outcome.kind === 'copied') {
        await repo.recordCopy({
          target: target.location,
          key,
          sha256: outcome.sha256,
          size_bytes: outcome.size,
          copied_at: now().toISOString(),
        });
        report.copied++;
        failuresInARow = 0;
      } else if (outcome.kind === 'missing') {
        report.missing.push(key);
      } else {
        report.failed.push({ key, reason: outcome.reason });
        if (++failuresInARow >= MAX_FAILURES_IN_A_ROW) report.stopped = true;
      }
      options.onProgress?.(++done, pending.length);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? COPY_CONCURRENCY }, worker));
  report.missing.sort();
  report.failed.sort((a, b) => a.key.localeCompare(b.key));
  return report;
}
