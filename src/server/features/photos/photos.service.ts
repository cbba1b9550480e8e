import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  recordBeforeDrillItem,
  recordDrillItem,
  recordLateArrival,
  requireElectionOpen,
} from '#server/core/election/election';
import { createRecordPhotosRepository } from '#server/core/records/record-photos.repository';
import {
  departmentLists,
  notPendingRefusal,
  presentRecord,
  type RecordChangeHooks,
  requireValidationDepartment,
  withSmsCode,
} from '#server/core/records/records';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { mayReview } from '#server/platform/access/review-grants';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, type HttpError, NotFound, Refusal } from '#server/platform/http/errors';
import {
  type Answer,
  type IdempotencyKeys,
  type IdempotentRequest,
  requestFingerprint,
} from '#server/platform/idempotency/idempotency';
import { type ImagePipeline, ImageProcessingError } from '#server/platform/images/image-pipeline';
import { IMAGE_CONTENT_TYPES, IMAGE_EXTENSIONS } from '#server/platform/images/image-type';
import { ArrivedDamaged, type ReceivedUpload } from '#server/platform/images/receive-upload';
import type { SessionUser } from '#server/platform/session/identity';
import { parseMaxBytes } from '#server/platform/settings/settings.repository';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { PHOTO_SEND_ORIGINALS_SETTING } from '#shared/features/photos/photo-uploads';
import {
  PHOTO_MAX_BYTES_SETTING,
  type PhotoInfo,
  type PhotoUploadResult,
  photosMessages,
} from '#shared/features/photos/photos';
import type { PhotoKind } from '#shared/platform/constants';
import { contentDisposition, photoDownloadName, photoReadablePath } from './photo-names';
import { createPhotosRepository, type PhotoRow } from './photos.repository';

export function presentPhoto(photo: PhotoRow, departmentTitle: string, recordName: string): PhotoInfo {
  const ext = photo.content_type === 'image/heic' ? 'heic' : 'jpg';
  return {
    id: photo.id,
    kind: photo.kind,
    sha256: photo.sha256,
    sizeBytes: photo.size_bytes,
    contentType: photo.content_type,
    width: photo.width,
    height: photo.height,
    uploadedBy: photo.uploaded_by,
    uploadedAt: photo.uploaded_at,
    path: photoReadablePath(departmentTitle, photo.kind, recordName, ext),
  };
}

export interface StorePhotoInput {
  department: { id: number; slug: string; title: string };
  record: { id: number; nombre: string };
  kind: PhotoKind;
  /** The photo the slot held when the upload began (null: empty). Only admins replace. */
  current: number | null;
  upload: ReceivedUpload;
  user: SessionUser;
  ip: string | null;
  now: Date;
  /** The person's request went away: stop, store nothing, fill nothing. */
  signal?: AbortSignal;
  /** The request's Idempotency-Key: stored with the answer, in the photo's transaction. */
  idempotency?: { keys: IdempotencyKeys; request: IdempotentRequest };
  /** The era its phone stamped on it, or the drill's a resumable upload was begun in (decision 094). */
  era?: string | undefined;
}

/** Thrown inside the photo's transaction when the slot was no longer as the upload found it. */
class SlotTaken extends Error {}

/** The 409 of a filled slot, saying who filled it and when. */
export async function slotFilledConflict(db: Kysely<Database>, recordId: number, kind: PhotoKind): Promise<HttpError> {
  const record = await createRecordsRepository(db).findById(recordId);
  const photoId = record?.[`${kind}_photo_id`];
  const photo = photoId ? await createPhotosRepository(db).find(photoId) : undefined;
  return new Refusal(
    'slot_taken',
    photo ? photosMessages.slotFilledBy(photo.uploaded_by, photo.uploaded_at) : photosMessages.slotFilled,
  );
}

/**
 * Converts, stores and records an accepted upload: original, browser JPEG and thumbnail go to storage,
 * then one transaction adds the photo, fills the record's slot (only if it is still as it was: a slot
 * fills once, a replacement replaces what the admin saw), writes the audit row and, with an
 * Idempotency-Key, stores the key with the answer. If anything fails, the stored files are removed
 * again: an empty slot and no stray file.
 */
export async function storePhoto(
  deps: {
    db: Kysely<Database>;
    storage: PhotoStorage;
    images: ImagePipeline;
    hooks?: RecordChangeHooks;
    /** SMS votes are on: the answer's record carries its code (withSmsCode); the answer kept too. */
    smsVotes?: boolean;
  },
  input: StorePhotoInput,
): Promise<{ photo: PhotoRow; warning: string | null; answer: PhotoUploadResult }> {
  const { db, storage, images } = deps;
  const { upload, kind, record, user } = input;

  let processed: Awaited<ReturnType<ImagePipeline['process']>>;
  try {
    processed = await images.process(upload.file, upload.type);
  } catch (error) {
    if (error instanceof ImageProcessingError) throw BadRequest(photosMessages.damaged);
    throw error;
  }

  const stored: string[] = [];
  try {
    const original = await storage.put(fs.createReadStream(upload.file), {
      suffix: IMAGE_EXTENSIONS[upload.type],
      contentType: IMAGE_CONTENT_TYPES[upload.type],
      readablePath: photoReadablePath(input.department.title, kind, record.nombre, IMAGE_EXTENSIONS[upload.type]),
      signal: input.signal,
    });
    stored.push(original.key);
    const display = await storage.put(processed.display, {
      suffix: 'jpg',
      contentType: 'image/jpeg',
      signal: input.signal,
    });
    stored.push(display.key);
    const thumb = await storage.put(processed.thumb, {
      suffix: 'jpg',
      contentType: 'image/jpeg',
      signal: input.signal,
    });
    stored.push(thumb.key);
    // Whoever sent it is gone and will be told nothing: they will try again, so fill nothing now.
    input.signal?.throwIfAborted();

    const repo = createPhotosRepository(db);
    const sameImage = await repo.findSameImageElsewhere(upload.sha256, record.id);
    const at = input.now.toISOString();
    const row: Omit<PhotoRow, 'id'> = {
      record_id: record.id,
      kind,
      original_key: original.key,
      display_key: display.key,
      thumb_key: thumb.key,
      sha256: upload.sha256,
      size_bytes: upload.size,
      content_type: IMAGE_CONTENT_TYPES[upload.type],
      width: processed.width,
      height: processed.height,
      uploaded_by: user.email,
      uploaded_at: at,
      replaced_at: null,
      replaced_by: null,
      shared_url: original.sharedUrl ?? null,
    };

    const warning = sameImage ? photosMessages.duplicate : null;
    // The photo, its slot, the counts, the audit row and the key in one change; the department's kept
    // lists are forgotten once it has committed.
    const answer = await runChange(
      db,
      async ({ trx, audit }) => {
        // The day's phase decides in the photo's own transaction (docs/decisions/078).
        const key = input.idempotency?.request.itemKey;
        const allowance = await requireElectionOpen(trx, 'photo', {
          now: input.now,
          itemKey: key,
          item: { email: user.email, recordId: record.id, kind, fingerprint: upload.sha256, era: input.era },
        });
        const drillBefore = allowance.drill ? await recordBeforeDrillItem(trx, record.id) : undefined;
        const tx = createRecordPhotosRepository(trx);
        const id = await tx.insert({ ...row });
        const filled = await tx.fillSlot(record.id, kind, id, input.current, at, user.email);
        if (!filled) throw new SlotTaken();
        // Received in its department: the map's figures and the live stream move with it, as with a vote.
        await tx.countReceived(filled.department_id);
        if (input.current !== null) {
          await tx.markReplaced(input.current, user.email, at);
          // The replaced photo was part of a reviewed record: the new one waits for its review.
          if (filled.was_reviewed === 1) {
            await createRecordsRepository(trx).bumpCounts(filled.department_id, { reviewed: -1 });
          }
        } else if (filled.completed === 1) {
          // This photo filled the last empty slot of a voted record: it is validated now, and only now.
          await createRecordsRepository(trx).bumpCounts(filled.department_id, { validated: 1 });
        }
        // A drill photo is kept for the drill's erasure (decision 079) and goes nowhere else: the hooks
        // are told, and the one that sends photos to another system skips it.
        if (drillBefore) {
          await recordDrillItem(trx, {
            kind,
            recordId: record.id,
            photoId: id,
            itemKey: key,
            before: drillBefore,
            now: input.now,
          });
        }
        await deps.hooks?.afterPhoto?.(trx, { recordId: record.id, kind, photoId: id, at, drill: allowance.drill });
        await audit({
          actorEmail: user.email,
          action: input.current === null ? 'photo.upload' : 'photo.replace',
          departmentSlug: input.department.slug,
          target: `record:${record.id}`,
          ip: input.ip,
          details: {
            kind,
            photoId: id,
            sha256: upload.sha256,
            sizeBytes: upload.size,
            contentType: row.content_type,
            ...(input.current !== null ? { replacedPhotoId: input.current } : {}),
            ...(sameImage ? { sameImageAsRecord: sameImage.record_id } : {}),
            ...(allowance.late ? { late: true } : {}),
            ...(allowance.drill ? { drill: true } : {}),
          },
          at: input.now,
        });
        if (allowance.late && key) {
          await recordLateArrival(trx, {
            itemKey: key,
            kind,
            slug: input.department.slug,
            recordId: record.id,
            email: user.email,
            now: input.now,
          });
        }
        const updated = await createRecordsRepository(trx).findInDepartment(input.department.id, record.id);
        if (!updated) throw new SlotTaken();
        const result: PhotoUploadResult = {
          message: photosMessages.uploaded,
          photo: presentPhoto({ id, ...row }, input.department.title, record.nombre),
          record: withSmsCode({ record: presentRecord(updated) }, deps.smsVotes ?? false).record,
          warning,
        };
        if (input.idempotency) await input.idempotency.keys.remember(trx, input.idempotency.request, 201, result);
        return result;
      },
      { forget: [departmentLists([input.department.slug])] },
    );
    return { photo: { id: answer.photo.id, ...row }, warning, answer };
  } catch (error) {
    await Promise.all(stored.map((key) => storage.delete(key).catch(() => {})));
    if (error instanceof SlotTaken) throw await slotFilledConflict(db, record.id, kind);
    throw error;
  }
}

export interface AcceptPhotoDeps {
  db: Kysely<Database>;
  storage: PhotoStorage;
  images: ImagePipeline;
  keys: IdempotencyKeys;
  hooks?: RecordChangeHooks;
  /** SMS votes are on: the answer's record carries its code (withSmsCode). */
  smsVotes: boolean;
}

export interface AcceptPhotoInput {
  department: { id: number; slug: string; title: string };
  recordId: number;
  kind: PhotoKind;
  /** The received file, checked for size and type; the caller discards it afterwards. */
  upload: ReceivedUpload;
  user: SessionUser;
  ip: string | null;
  now: Date;
  /** The item key (the request's Idempotency-Key header), if it carried one. */
  itemKey?: string;
  /** The SHA-256 the phone computed of the bytes it sent (absent from phones that did not compute it). */
  declaredSha256?: string;
  signal?: AbortSignal;
  /** The era its phone stamped on it, or the drill's a resumable upload was begun in (decision 094). */
  era?: string | undefined;
}

/**
 * What happens to a received ballot photo, however it travelled (one multipart request, or a
 * resumable upload that just completed): a retry of an upload already stored gets its first answer;
 * otherwise the record must still be pending and, for validators, the slot empty; then the photo is
 * stored (storePhoto). Retries of one key in this process run one after the other.
 */
export async function acceptPhoto(deps: AcceptPhotoDeps, input: AcceptPhotoInput): Promise<Answer<PhotoUploadResult>> {
  const { db, keys } = deps;
  const { department, recordId: id, kind, upload, user, itemKey: key } = input;
  // Before anything else: only the bytes the phone hashed are stored, and their hash is the one audited.
  if (input.declaredSha256 !== undefined && input.declaredSha256 !== upload.sha256) throw ArrivedDamaged();
  const idempotency: IdempotentRequest | undefined = key
    ? {
        itemKey: key,
        actor: user.email,
        fingerprint: requestFingerprint('photo', department.slug, id, kind, upload.sha256),
      }
    : undefined;
  return keys.serialize(key, async (): Promise<Answer<PhotoUploadResult>> => {
    if (idempotency) {
      const earlier = await keys.replay<PhotoUploadResult>(idempotency);
      if (earlier) return earlier;
    }
    // Refused at once when the day's phase refuses it, before the image is worked on; checked again in
    // the photo's transaction.
    await requireElectionOpen(db, 'photo', {
      now: input.now,
      itemKey: key,
      item: { email: user.email, recordId: id, kind, fingerprint: upload.sha256, era: input.era },
    });
    // As it is now: the slot may have been filled while the file travelled.
    const record = await createRecordsRepository(db).findInDepartment(department.id, id);
    if (record?.status !== 'pendiente') throw await notPendingRefusal(db, department.id, id);
    const current = record[`${kind}_photo_id`];
    if (current !== null && user.role !== 'admin') throw await slotFilledConflict(db, id, kind);
    try {
      const { answer: body } = await storePhoto(
        { db, storage: deps.storage, images: deps.images, hooks: deps.hooks, smsVotes: deps.smsVotes },
        {
          department,
          record,
          kind,
          current,
          upload,
          user,
          ip: input.ip,
          now: input.now,
          signal: input.signal,
          idempotency: idempotency && { keys, request: idempotency },
          era: input.era,
        },
      );
      return { statusCode: 201, body, replayed: false };
    } catch (error) {
      // Another instance stored the same upload meanwhile: its answer is this request's too.
      const earlier = idempotency && (await keys.replay<PhotoUploadResult>(idempotency));
      if (earlier) return earlier;
      throw error;
    }
  });
}

/**
 * Photo rows written with placeholder keys (the demo data knows the database but not the storage): the
 * placeholders still waiting for their files, and pointing a placeholder's rows at stored files.
 */
export function createPhotoPlaceholders(db: Kysely<Database>) {
  const repo = createPhotosRepository(db);
  const kernel = createRecordPhotosRepository(db);
  return {
    list: (prefix: string): Promise<string[]> => repo.listPlaceholderKeys(prefix),
    replace: (placeholder: string, files: Parameters<typeof kernel.replacePlaceholder>[1]): Promise<void> =>
      kernel.replacePlaceholder(placeholder, files),
  };
}

/**
 * Before a photo's bytes travel: the department is the person's, the record is still pending and, for
 * a validator, the slot is still empty, unless the request may be a retry of the upload that filled it
 * (its key is known): that one gets its first answer again, once its file is compared. The record is
 * read before the key: a key stored with this slot's photo is then always seen. Admins may replace a
 * photo; the old one stays as evidence.
 */
export async function requireOpenSlot(
  deps: { db: Kysely<Database>; keys: IdempotencyKeys },
  input: { user: SessionUser; slug: string; recordId: number; kind: PhotoKind; itemKey: string | undefined },
): Promise<{ id: number; slug: string; title: string }> {
  const { db, keys } = deps;
  const { user, recordId, kind, itemKey: key } = input;
  const department = await requireValidationDepartment(db, user, input.slug);
  const found = await createRecordsRepository(db).findInDepartment(department.id, recordId);
  if (found?.status !== 'pendiente') throw await notPendingRefusal(db, department.id, recordId);
  if (found[`${kind}_photo_id`] !== null && user.role !== 'admin' && !(key && (await keys.exists(key)))) {
    throw await slotFilledConflict(db, recordId, kind);
  }
  return department;
}

/** The largest photo accepted now, in bytes (a setting). */
export async function photoMaxBytes(db: Kysely<Database>): Promise<number> {
  return parseMaxBytes(await createPhotosRepository(db).getSetting(PHOTO_MAX_BYTES_SETTING));
}

/** Whether phones send the original photo instead of a JPEG of at most 2560 px (a setting). */
export async function sendOriginals(db: Kysely<Database>): Promise<boolean> {
  return (await createPhotosRepository(db).getSetting(PHOTO_SEND_ORIGINALS_SETTING)) === '1';
}

/**
 * A stored photo's file for someone who may see its department (anyone else gets the 404 of a photo
 * that does not exist): the browser JPEG, the thumbnail or the original.
 */
export async function openPhoto(
  deps: { db: Kysely<Database>; storage: PhotoStorage },
  input: { user: SessionUser; id: number; variant: 'display' | 'thumb' | 'original'; download: boolean },
  log: FastifyBaseLogger,
) {
  const { db, storage } = deps;
  const photo = await createPhotosRepository(db).findForServing(input.id);
  if (!photo) throw NotFound();
  // The department's validators, and whoever may review its photos (decision 134).
  if (!(await mayReview(db, input.user, photo.department_id))) {
    await requireValidationDepartment(db, input.user, photo.department_slug);
  }
  const original = input.variant === 'original';
  const key = original ? photo.original_key : input.variant === 'thumb' ? photo.thumb_key : photo.display_key;
  const contentType = original ? photo.content_type : 'image/jpeg';
  const ext = contentType === 'image/heic' ? 'heic' : 'jpg';
  const file = await storage.get(key);
  if (!file) {
    log.error({ photoId: photo.id, variant: input.variant }, 'photo file missing from storage');
    throw NotFound();
  }
  const name = photoDownloadName(photo.department_title, photo.kind, photo.record_nombre, ext);
  return {
    contentType,
    size: file.size,
    stream: file.stream,
    disposition: contentDisposition(input.download ? 'attachment' : 'inline', name),
  };
}

/** The storage keys of every ballot photo's three files, current or replaced (replaced ones stay as evidence). */
export function listPhotoFileKeys(db: Kysely<Database>): Promise<string[]> {
  return createPhotosRepository(db).listPhotoKeys();
}
