import type { Upload } from '@tus/server';
import type { Kysely } from 'kysely';
import { readElection, requireElectionOpen } from '#server/core/election/election';
import { type RecordChangeHooks, requireValidationDepartment } from '#server/core/records/records';
import type { Database } from '#server/platform/db/schema';
import { HttpError, NotFound, TooManyRequests } from '#server/platform/http/errors';
import { type Answer, type IdempotencyKeys, requestFingerprint } from '#server/platform/idempotency/idempotency';
import type { ImagePipeline } from '#server/platform/images/image-pipeline';
import { inspectReceivedFile } from '#server/platform/images/receive-upload';
import type { SessionUser } from '#server/platform/session/identity';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import type { ResumableUpload, ResumableUploads } from '#server/platform/uploads/resumable-uploads';
import type { TusContext } from '#server/platform/uploads/tus-bridge';
import { photoUploadMetadataSchema, photoUploadsMessages } from '#shared/features/photos/photo-uploads';
import type { PhotoUploadResult } from '#shared/features/photos/photos';
import { photoKindSchema } from '#shared/platform/records';
import { acceptPhoto, photoMaxBytes, requireOpenSlot } from './photos.service';

/**
 * One person's uploads not yet stored: beyond this, a new one waits. Their bytes together are bounded
 * too (RESUMABLE_UPLOAD_BUDGET_MB), each counted by the size it declared.
 */
export const MAX_OPEN_UPLOADS = 100;

export interface PhotoUploadsDeps {
  db: Kysely<Database>;
  storage: PhotoStorage;
  images: ImagePipeline;
  keys: IdempotencyKeys;
  uploads: ResumableUploads;
  hooks: RecordChangeHooks;
  now: () => Date;
  /** SMS votes are on: the answer's record carries its code. */
  smsVotes: boolean;
  /** The bytes of one person's open uploads together, at most. */
  budgetBytes: number;
  /** Refuses (507) when the data folder would fall under its floor of free space. */
  requireRoom: (bytes: number) => Promise<void>;
}

/**
 * Ballot photos sent by resumable upload (tus), as use cases: announcing one, and turning a complete one
 * into a stored photo through the same checks and the same change as a photo sent in one request.
 */
export function createPhotoUploadsService(deps: PhotoUploadsDeps) {
  const { db, storage, images, keys, uploads } = deps;
  const maxBytes = () => photoMaxBytes(db);

  /** The upload of this person, if it exists and has not expired (an expired one is removed now). */
  async function ownUpload(id: string, user: SessionUser): Promise<ResumableUpload> {
    const row = await uploads.find(id);
    if (!row || row.owner_email !== user.email) throw NotFound(photoUploadsMessages.gone);
    if (uploads.isExpired(row)) {
      await uploads.remove(id);
      throw new HttpError(410, photoUploadsMessages.gone);
    }
    return row;
  }

  /** The answer a stored upload got, from its Idempotency-Key. */
  async function storedAnswer(row: ResumableUpload, user: SessionUser): Promise<Answer<PhotoUploadResult>> {
    const kind = photoKindSchema.parse(row.kind);
    const earlier = await keys.replay<PhotoUploadResult>({
      itemKey: row.item_key,
      actor: user.email,
      fingerprint: requestFingerprint('photo', row.department_slug, row.record_id, kind, row.sha256 ?? ''),
    });
    if (!earlier) throw NotFound(photoUploadsMessages.gone);
    return earlier;
  }

  /**
   * A complete upload becomes a stored photo: every check of a photo sent in one request runs now
   * (access to the department, size and type by content, pixels, the once-only slot, the duplicate
   * warning, the audit row). A refusal removes the upload, bytes and all; a failure on our side (the
   * storage did not answer) keeps it, to be completed again.
   */
  async function finish(row: ResumableUpload, context: TusContext): Promise<Answer<PhotoUploadResult>> {
    const { user } = context;
    try {
      const kind = photoKindSchema.parse(row.kind);
      const department = await requireValidationDepartment(db, user, row.department_slug);
      // The SHA-256 the phone sent in the upload's metadata, checked against the bytes by acceptPhoto.
      const declared = photoUploadMetadataSchema.shape.sha256.safeParse(
        (await uploads.datastore.getUpload(row.id)).metadata?.sha256 ?? undefined,
      );
      const received = await inspectReceivedFile(
        uploads.fileOf(row.id),
        await maxBytes(),
        () => uploads.releaseBytes(row.id),
        { sha256: declared.success ? declared.data : undefined },
      );
      const at = deps.now();
      const answer = await acceptPhoto(
        {
          db,
          storage,
          images,
          keys,
          smsVotes: deps.smsVotes,
          hooks: {
            ...deps.hooks,
            // The upload is marked stored in the photo's own transaction: both happen, or neither.
            async afterPhoto(trx, photo) {
              await deps.hooks.afterPhoto?.(trx, photo);
              await uploads.markStored(trx, row.id, received.sha256, photo.at);
            },
          },
        },
        {
          department,
          recordId: row.record_id,
          kind,
          upload: received,
          user,
          ip: context.ip,
          now: at,
          itemKey: row.item_key,
          declaredSha256: declared.success ? declared.data : undefined,
          era: row.era ?? undefined,
        },
      );
      // Stored before under the same key (another upload of the same photo): this one answers the same.
      if (answer.replayed) await uploads.markStored(db, row.id, received.sha256, at.toISOString());
      await received.discard();
      return answer;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) await uploads.remove(row.id);
      throw error;
    }
  }

  // One completion per upload at a time in this process: the PATCH that ends it and a `complete` asked
  // meanwhile do not both read and move its bytes.
  const completing = new Map<string, Promise<Answer<PhotoUploadResult>>>();
  function complete(id: string, context: TusContext): Promise<Answer<PhotoUploadResult>> {
    const previous = completing.get(id) ?? Promise.resolve(undefined);
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        const row = await ownUpload(id, context.user);
        if (row.stored_at) return storedAnswer(row, context.user);
        return finish(row, context);
      });
    completing.set(id, run);
    const forget = () => {
      if (completing.get(id) === run) completing.delete(id);
    };
    run.then(forget, forget);
    return run;
  }

  /** What the person asking `…/:id/complete` gets: the stored answer, or the upload completed now. */
  async function completeAsked(id: string, context: Omit<TusContext, 'key'>): Promise<Answer<PhotoUploadResult>> {
    const row = await ownUpload(id, context.user);
    if (!row.stored_at) {
      const received = await uploads.datastore.getUpload(id).catch(() => undefined);
      // Its row without its file: a server restored from a copy (the file went with the lost machine,
      // decision 135). The phone starts a new upload of its own copy, as for one that expired.
      if (!received) throw new HttpError(410, photoUploadsMessages.gone);
      if (received.offset !== row.size_bytes) throw new HttpError(409, photoUploadsMessages.notFinished);
    }
    return complete(id, { ...context, key: row.item_key });
  }

  return {
    ownUpload,
    complete,
    completeAsked,

    /**
     * A new upload announced: its key, size and metadata; the department, the record and its slot as for
     * a photo sent in one request (a filled slot is refused before the bytes travel); room on the disk;
     * and the person's open uploads within their count and bytes.
     */
    async register(user: SessionUser, key: string | undefined, upload: Upload): Promise<void> {
      if (!key) throw new HttpError(400, photoUploadsMessages.keyRequired);
      if (upload.sizeIsDeferred || !upload.size) throw new HttpError(400, photoUploadsMessages.lengthRequired);
      const meta = photoUploadMetadataSchema.safeParse(upload.metadata ?? {});
      if (!meta.success) throw new HttpError(400, photoUploadsMessages.badMetadata);
      const { slug, recordId, kind } = meta.data;
      // As for a photo sent in one request: the day's phase and a filled slot refuse before the bytes travel.
      const now = deps.now();
      await requireElectionOpen(db, 'photo', {
        now,
        itemKey: key,
        item: { email: user.email, recordId, kind, fingerprint: meta.data.sha256 ?? '', era: meta.data.era },
      });
      // Begun during a drill, it is the drill's whatever its phone stamped: never real after it (decision 094).
      const day = await readElection(db, now);
      const era = day.phase === 'simulacro' ? (day.row?.era ?? meta.data.era) : meta.data.era;
      await requireOpenSlot({ db, keys }, { user, slug, recordId, kind, itemKey: key });
      // The data folder keeps its floor of free space for votes and the photos already accepted.
      await deps.requireRoom(upload.size);
      const registered = await uploads.register(
        {
          id: upload.id,
          owner_email: user.email,
          department_slug: slug,
          record_id: recordId,
          kind,
          item_key: key,
          size_bytes: upload.size,
          era: era ?? null,
        },
        { count: MAX_OPEN_UPLOADS, bytes: deps.budgetBytes },
      );
      if (registered.refused === 'count') throw TooManyRequests(photoUploadsMessages.tooManyOpen, 60);
      if (registered.refused === 'bytes') throw TooManyRequests(photoUploadsMessages.overBudget, 60);
    },
  };
}
