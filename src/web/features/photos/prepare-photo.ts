import { photosMessages } from '#shared/features/photos/photos';
import { sha256Hex } from './photo-hash';
import { rightSizeInWorker } from './right-size-client';

/** A photo ready to wait on the phone: its bytes, copied off the file picker, and their size. */
export interface PreparedPhoto {
  name: string;
  type: string;
  data: ArrayBuffer;
  /** What is sent, in bytes. */
  size: number;
  /** The picked photo's size when a right-sized copy is sent instead (docs/decisions/047). */
  originalSize?: number;
  /** The SHA-256 of `data`, sent with it so the server can tell the bytes arrived as they left (082). */
  sha256?: string;
}

const ALLOWED_NAME = /\.(jpe?g|heic|heif)$/i;
const ALLOWED_TYPE = /^image\/(jpeg|heic|heif)$/;

/** A first look at the bytes: JPEG's marker or an ISO-BMFF `ftyp` box (HEIC). The server decides for good. */
function looksLikeBallotPhoto(head: Uint8Array): boolean {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  return String.fromCharCode(...head.subarray(4, 8)) === 'ftyp';
}

export interface PrepareOptions {
  /** Send a JPEG of at most 2560 px instead of the original (the default; admins may turn it off). */
  rightSize: boolean;
}

/**
 * Gets a picked photo ready to wait on the phone: refuses what is plainly not a JPEG or HEIC, copies its
 * bytes (a File from the camera can stop being readable later; an ArrayBuffer is kept by every
 * browser's IndexedDB, where a Blob is not always) and, unless originals are asked for, makes the
 * right-sized JPEG in a Web Worker (a HEIC the browser cannot decode goes as it is). The SHA-256 of the
 * bytes to be sent goes with them (made in the worker when there is one).
 */
export async function preparePhoto(
  file: File,
  options: PrepareOptions = { rightSize: true },
): Promise<{ file: PreparedPhoto } | { error: string }> {
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
  const type = file.type || 'application/octet-stream';
  const originalSize = data.byteLength;
  if (options.rightSize) {
    const answer = await rightSizeInWorker({ data, type, lastModified: file.lastModified });
    // The worker hashed the bytes it gives back; without a worker (or if it failed) the page does.
    const sha256 = answer.sha256 ?? (await sha256Hex(answer.data));
    if (answer.resized) {
      return {
        file: {
          name: `${file.name.replace(/\.(jpe?g|heic|heif)$/i, '')}.jpg`,
          type: 'image/jpeg',
          data: answer.data,
          size: answer.data.byteLength,
          originalSize,
          ...(sha256 ? { sha256 } : {}),
        },
      };
    }
    // The bytes went to the worker and came back.
    data = answer.data;
    return { file: { name: file.name, type, data, size: originalSize, ...(sha256 ? { sha256 } : {}) } };
  }
  const sha256 = await sha256Hex(data);
  return { file: { name: file.name, type, data, size: originalSize, ...(sha256 ? { sha256 } : {}) } };
}
