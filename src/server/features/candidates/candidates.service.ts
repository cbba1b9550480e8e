import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import { type ImagePipeline, ImageProcessingError } from '#server/platform/images/image-pipeline';
import type { ReceivedUpload } from '#server/platform/images/receive-upload';
import type { Actor } from '#server/platform/session/identity';
import { createSettingsRepository, parseMaxBytes } from '#server/platform/settings/settings.repository';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import {
  type AdminCandidate,
  CANDIDATE_PHOTOS_PATH,
  CANDIDATE_PLACEHOLDER_PHOTO,
  candidatesMessages,
  type createCandidateBodySchema,
  type updateCandidateBodySchema,
} from '#shared/features/candidates/candidates';
import { PHOTO_MAX_BYTES_SETTING, photosMessages } from '#shared/features/photos/photos';
import { type AdminCandidateRow, createAdminCandidatesRepository } from './candidates.repository';

/** Longest side of a candidate's portrait: sharp on a projector, light on a phone. */
export const CANDIDATE_PHOTO_MAX_PX = 800;

export function presentCandidate(c: AdminCandidateRow): AdminCandidate {
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    colour: c.colour,
    photoUrl: c.photo_url,
    position: c.position + 1,
    votes: c.votes,
  };
}

/** The storage key behind a candidate photo URL of ours, or undefined (a picture of the public folder). */
export function storageKeyOfPhotoUrl(url: string): string | undefined {
  const prefix = `${CANDIDATE_PHOTOS_PATH}/`;
  return url.startsWith(prefix) ? url.slice(prefix.length) : undefined;
}

/**
 * Turns an accepted upload (already checked: JPEG or HEIC by content, within the size limit) into the
 * browser JPEG of a candidate, upright and at most CANDIDATE_PHOTO_MAX_PX, and stores it.
 */
export async function storeCandidatePhoto(
  deps: { storage: PhotoStorage; images: ImagePipeline },
  upload: ReceivedUpload,
): Promise<{ url: string; key: string; width: number; height: number }> {
  let display: Buffer;
  try {
    ({ display } = await deps.images.process(upload.file, upload.type));
  } catch (error) {
    if (error instanceof ImageProcessingError) throw BadRequest(photosMessages.damaged);
    throw error;
  }
  // The pipeline's browser copy is already upright JPEG; a portrait needs far fewer pixels. sharp (libvips)
  // is loaded here, for this rare admin task, so the server's own memory never holds it otherwise.
  const { default: sharp } = await import('sharp');
  const { data: jpeg, info } = await sharp(display)
    .resize(CANDIDATE_PHOTO_MAX_PX, CANDIDATE_PHOTO_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  const { key } = await deps.storage.put(jpeg, { suffix: 'jpg', contentType: 'image/jpeg' });
  return { url: `${CANDIDATE_PHOTOS_PATH}/${key}`, key, width: info.width, height: info.height };
}

/**
 * The candidates' use cases (docs/decisions/069): each change is one transaction with its audit row;
 * once it committed, the live results are told (on PostgreSQL) and a picture no longer anyone's goes.
 */
export function createCandidatesService(deps: {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  clock: () => Date;
  storage: PhotoStorage;
  images: ImagePipeline;
}) {
  const { db, dialect, clock, storage } = deps;
  const repo = createAdminCandidatesRepository(db);

  async function candidateOrThrow(id: number): Promise<AdminCandidateRow> {
    const c = await repo.find(id);
    if (!c) throw NotFound(candidatesMessages.candidateNotFound);
    return c;
  }

  async function codeIsFree(code: string, exceptId?: number): Promise<void> {
    const other = await repo.findByCode(code);
    if (other && other.id !== exceptId) throw Conflict(candidatesMessages.candidateCodeTaken(code));
  }

  /** A stored picture of ours that nobody shows any more (pictures of the public folder stay). */
  async function dropPhoto(url: string): Promise<void> {
    const key = storageKeyOfPhotoUrl(url);
    if (key) await storage.delete(key).catch(() => {});
  }

  const present = async (id: number) => presentCandidate(await candidateOrThrow(id));

  return {
    /** In ballot order, with their votes. */
    list: async (): Promise<AdminCandidate[]> => (await repo.list()).map(presentCandidate),

    /** One candidate; 404 when there is none. */
    find: present,

    /**
     * A candidate's current photo, by its stored key, or undefined: only a current photo is served, no
     * other stored file (ballots!); `missing` when the row names it but the storage lost it.
     */
    async currentPhoto(key: string) {
      if (!(await repo.findByPhotoUrl(`${CANDIDATE_PHOTOS_PATH}/${key}`))) return undefined;
      return (await storage.get(key)) ?? ('missing' as const);
    },

    /** The largest photo accepted, in bytes (the photos' own setting). */
    photoMaxBytes: async (): Promise<number> =>
      parseMaxBytes(await createSettingsRepository(db).get(PHOTO_MAX_BYTES_SETTING)),

    /** Adds a candidate at the end of the ballot, with the placeholder picture; 409 when the code is taken. */
    async create(body: z.output<typeof createCandidateBodySchema>, actor: Actor): Promise<AdminCandidate> {
      await codeIsFree(body.code);
      const now = clock();
      const id = await runChange(db, async ({ trx, audit }) => {
        const newId = await createAdminCandidatesRepository(trx).insert({
          ...body,
          photoUrl: CANDIDATE_PLACEHOLDER_PHOTO,
        });
        await audit({
          actorEmail: actor.email,
          action: 'candidate.create',
          target: body.code,
          ip: actor.ip,
          details: { name: body.name, colour: body.colour },
          at: now,
        });
        return newId;
      });
      await repo.notifyResults(dialect);
      return present(id);
    },

    /** Name, code, colour or place on the ballot; a code already on ballots stays as it is (409). */
    async update(id: number, body: z.output<typeof updateCandidateBodySchema>, actor: Actor): Promise<AdminCandidate> {
      const before = await candidateOrThrow(id);
      const { code, name, colour, position } = body;
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (code !== undefined && code !== before.code) {
        // Votes keep the candidates' codes: a code already on ballots stays as it is.
        if (await repo.hasBallots(before.id)) throw Conflict(candidatesMessages.candidateHasVotes);
        await codeIsFree(code, before.id);
        changes.code = { from: before.code, to: code };
      }
      if (name !== undefined && name !== before.name) changes.name = { from: before.name, to: name };
      if (colour !== undefined && colour !== before.colour) changes.colour = { from: before.colour, to: colour };
      let order: number[] | undefined;
      if (position !== undefined && position !== before.position + 1) {
        const ids = (await repo.list()).map((c) => c.id).filter((other) => other !== before.id);
        ids.splice(Math.min(position - 1, ids.length), 0, before.id);
        order = ids;
        changes.position = { from: before.position + 1, to: Math.min(position, ids.length) };
      }
      if (Object.keys(changes).length > 0) {
        await runChange(db, async ({ trx, audit }) => {
          const tx = createAdminCandidatesRepository(trx);
          await tx.update(before.id, {
            code: changes.code ? code : undefined,
            name: changes.name ? name : undefined,
            colour: changes.colour ? colour : undefined,
          });
          if (order) await tx.reorder(order);
          await audit({
            actorEmail: actor.email,
            action: 'candidate.update',
            target: code ?? before.code,
            ip: actor.ip,
            details: changes,
            at: clock(),
          });
        });
        await repo.notifyResults(dialect);
      }
      return present(before.id);
    },

    /** Deletes a candidate that has no votes yet (409 otherwise); the ballot as it is now. */
    async remove(id: number, actor: Actor): Promise<AdminCandidate[]> {
      const c = await candidateOrThrow(id);
      if (await repo.hasBallots(c.id)) throw Conflict(candidatesMessages.candidateHasVotes);
      await runChange(db, async ({ trx, audit }) => {
        const tx = createAdminCandidatesRepository(trx);
        await tx.delete(c.id);
        await tx.reorder((await tx.list()).map((x) => x.id));
        await audit({
          actorEmail: actor.email,
          action: 'candidate.delete',
          target: c.code,
          ip: actor.ip,
          details: { name: c.name },
          at: clock(),
        });
      });
      await dropPhoto(c.photo_url);
      await repo.notifyResults(dialect);
      return (await repo.list()).map(presentCandidate);
    },

    /**
     * A new picture from an accepted upload (checked: JPEG or HEIC by content, within the size limit).
     * If anything fails, the stored picture goes again; once it is in, the old one goes.
     */
    async setPhoto(id: number, upload: ReceivedUpload, actor: Actor): Promise<AdminCandidate> {
      const c = await candidateOrThrow(id);
      let stored: Awaited<ReturnType<typeof storeCandidatePhoto>> | undefined;
      try {
        stored = await storeCandidatePhoto(deps, upload);
        const photo = stored;
        await runChange(db, async ({ trx, audit }) => {
          await createAdminCandidatesRepository(trx).update(c.id, { photo_url: photo.url });
          await audit({
            actorEmail: actor.email,
            action: 'candidate.photo',
            target: c.code,
            ip: actor.ip,
            details: {
              sha256: upload.sha256,
              sizeBytes: upload.size,
              contentType: upload.type === 'heic' ? 'image/heic' : 'image/jpeg',
              width: photo.width,
              height: photo.height,
            },
            at: clock(),
          });
        });
      } catch (error) {
        if (stored) await storage.delete(stored.key).catch(() => {});
        throw error;
      }
      await dropPhoto(c.photo_url);
      await repo.notifyResults(dialect);
      return present(c.id);
    },
  };
}
export type CandidatesService = ReturnType<typeof createCandidatesService>;
