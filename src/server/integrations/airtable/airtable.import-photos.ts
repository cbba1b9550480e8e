// The photos part of an Airtable import: photo links downloaded, checked and stored like uploads.
import { storePhoto } from '#server/features/photos/photos.service';
import { isClientError, isRefusal } from '#server/platform/http/errors';
import type { ImagePipeline } from '#server/platform/images/image-pipeline';
import { createLimiter } from '#server/platform/lib/limiter';
import { createSettingsRepository, parseMaxBytes } from '#server/platform/settings/settings.repository';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/photos/photos';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import type { ImportTarget } from './airtable.import-records';
import { AIRTABLE_IMPORT_USER, type RecordsRun, warn } from './airtable.import-report';
import { downloadPhoto, PhotoDownloadError } from './airtable.photos';

export interface PhotoImportOptions {
  storage: PhotoStorage;
  images: ImagePipeline;
  /** Where downloaded photos wait while they are checked. */
  tempDir: string;
  /** Photo downloads at once. */
  photoConcurrency?: number;
  photoTimeoutMs?: number;
  /** For photo downloads (tests). */
  fetch?: typeof fetch;
}

/**
 * Each photo link of a record whose slot is empty in Comando is downloaded and stored through the photo
 * service, as an upload would be: Comando is the source of truth for photos, so a slot filled in Comando
 * meanwhile keeps its photo. A link that fails is a warning; anything unexpected stops the import.
 */
export async function importPhotos(
  run: RecordsRun,
  targets: ImportTarget[],
  options: PhotoImportOptions,
): Promise<void> {
  const { db, progress, report, now } = run;
  const photoJobs: { target: ImportTarget; kind: PhotoKind; url: string }[] = [];
  for (const target of targets) {
    for (const kind of PHOTO_KINDS) {
      const url = target.row.photos[kind];
      if (url && target.record[`${kind}_photo_id`] === null) photoJobs.push({ target, kind, url });
    }
  }
  if (photoJobs.length === 0) return;
  const maxBytes = parseMaxBytes(await createSettingsRepository(db).get(PHOTO_MAX_BYTES_SETTING));
  const limiter = createLimiter(options.photoConcurrency ?? 4);
  let unexpected: unknown;
  progress.phase('Fotos', photoJobs.length);
  try {
    await Promise.all(
      photoJobs.map(({ target, kind, url }) =>
        limiter.run(async () => {
          try {
            const { record } = target;
            const department = run.municipalities.get(record.department_id) as {
              id: number;
              slug: string;
              title: string;
            };
            const upload = await downloadPhoto(url, {
              maxBytes,
              tempDir: options.tempDir,
              timeoutMs: options.photoTimeoutMs,
              fetch: options.fetch,
            });
            try {
              await storePhoto(
                { db, storage: options.storage, images: options.images },
                {
                  department,
                  record: { id: record.id, nombre: record.nombre },
                  kind,
                  current: null,
                  upload,
                  user: AIRTABLE_IMPORT_USER,
                  ip: null,
                  now: now(),
                },
              );
            } finally {
              await upload.discard();
            }
            report.records.photos++;
            if (!target.isNew) run.changed.add(target.row.sourceId);
          } catch (error) {
            if (error instanceof PhotoDownloadError) warn(run, target.row, `foto ${kind}: ${error.message}`);
            else if (isRefusal(error, 'slot_taken', 'voided', 'preparing', 'closed')) {
              // Filled in Comando meanwhile (or voided there, or the day takes no photo now): Comando's stands.
            } else if (isClientError(error)) {
              warn(run, target.row, `foto ${kind}: ${error.message}`);
            } else unexpected ??= error;
          } finally {
            progress.advance();
          }
        }),
      ),
    );
  } finally {
    progress.end();
  }
  if (unexpected) throw unexpected;
}
