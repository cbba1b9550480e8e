import { photosMessages } from '#shared/features/records/photos';
import type { OutboxFile } from './outbox-item';

const ALLOWED_NAME = /\.(jpe?g|heic|heif)$/i;
const ALLOWED_TYPE = /^image\/(jpeg|heic|heif)$/;

/** A first look at the bytes: JPEG's marker or an ISO-BMFF `ftyp` box (HEIC). The server decides for good. */
function looksLikeBallotPhoto(head: Uint8Array): boolean {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  return String.fromCharCode(...head.subarray(4, 8)) === 'ftyp';
}

/**
 * Gets a picked photo ready to wait on the phone: refuses what is plainly not a JPEG or HEIC, and copies
 * its bytes (a File from the camera can stop being readable later; an ArrayBuffer is kept by every
 * browser's IndexedDB, where a Blob is not always).
 */
export async function preparePhoto(file: File): Promise<{ file: OutboxFile } | { error: string }> {
  if (!ALLOWED_NAME.test(file.name) && !ALLOWED_TYPE.test(file.type)) return { error: photosMessages.badFormat };
  let data: ArrayBuffer;
  try {
    data = await file.arrayBuffer();
  } catch {
    return { error: photosMessages.damaged };
  }
  if (data.byteLength === 0) return { error: photosMessages.damaged };
  if (!looksLikeBallotPhoto(new Uint8Array(data, 0, Math.min(16, data.byteLength)))) {
    return { error: photosMessages.badFormat };
  }
  return { file: { name: file.name, type: file.type || 'application/octet-stream', data } };
}
