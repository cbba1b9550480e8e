import { BadRequest } from '#server/platform/http/errors';
import { type ImagePipeline, ImageProcessingError } from '#server/platform/images/image-pipeline';
import type { ReceivedUpload } from '#server/platform/images/receive-upload';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { type AdminCandidate, CANDIDATE_PHOTOS_PATH } from '#shared/features/candidates/candidates';
import { photosMessages } from '#shared/features/records/photos';
import type { AdminCandidateRow } from './candidates.repository';

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
